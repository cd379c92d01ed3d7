"""Hostile request bodies get a 400 naming the problem, never a 500, and change nothing."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from drf_spectacular.generators import SchemaGenerator

from decks.models import Deck

NESTED = "[" * 50_000 + "]" * 50_000
MODERATELY_NESTED = {"game": "yugioh", "name": "deep", "notes": json.loads("[" * 100 + "]" * 100)}


def _json_operations() -> list[tuple[str, str]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = []
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            content = (operation.get("requestBody") or {}).get("content", {})
            if "application/json" in content:
                operations.append((method, path))
    return sorted(operations)


@pytest.mark.django_db
def test_every_json_endpoint_refuses_a_deeply_nested_body(api_client_for: Any, make_user: Any) -> None:
    staff = make_user("root", organizer=True)
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    client = api_client_for(staff)
    # The deck import is documented as multipart (its file part) and reads a JSON body as well.
    operations = sorted({*_json_operations(), ("post", "/api/decks/import/")})
    assert len(operations) > 10
    answers = {}
    for method, path in operations:
        url = re.sub(r"\{[^}]+\}", "1", path)
        response = getattr(client, method)(url, NESTED, content_type="application/json")
        answers[f"{method.upper()} {path}"] = response.status_code
    assert all(code < 500 for code in answers.values()), answers
    # Those that read the body before looking anything up say why.
    for name in ("POST /api/decks/", "POST /api/decks/validate/", "POST /api/decks/import/"):
        assert answers[name] == 400, (name, answers[name])


@pytest.mark.django_db
def test_the_anonymous_token_endpoint_refuses_a_deeply_nested_body(api_client: Any) -> None:
    response = api_client.post("/api/auth/token/", NESTED, content_type="application/json")
    assert response.status_code == 400
    assert "nested deeper" in response.json()["detail"]


def test_a_body_within_the_decoder_limit_but_deeper_than_ours_is_refused(
    api_client_for: Any, user: Any, games: Any
) -> None:
    response = api_client_for(user).post("/api/decks/", MODERATELY_NESTED, format="json")
    assert response.status_code == 400
    assert "nested deeper than 32" in response.json()["detail"]
    assert not Deck.objects.exists()


def test_a_card_id_beyond_64_bits_is_a_400_naming_the_field(
    api_client_for: Any, user: Any, games: Any
) -> None:
    body = {"game": "yugioh", "name": "big", "sections": {"main": [{"card": 2**63, "count": 1}]}}
    response = api_client_for(user).post("/api/decks/", body, format="json")
    assert response.status_code == 400
    assert "sections" in response.json()
    hero = {"game": "caster", "name": "big", "hero": 2**64}
    assert api_client_for(user).post("/api/decks/", hero, format="json").status_code == 400
    assert not Deck.objects.exists()


def test_a_path_id_beyond_64_bits_is_never_a_server_error(api_client_for: Any, user: Any) -> None:
    huge = str(2**70)
    for url in (
        f"/api/decks/{huge}/",
        f"/api/cards/{huge}/",
        f"/api/banlists/{huge}/",
        f"/api/import-jobs/{huge}/",
    ):
        response = api_client_for(user).get(url)
        assert response.status_code in (400, 404), (url, response.status_code)
        assert response["Content-Type"].startswith("application/json")


def test_a_deck_import_with_nul_in_its_name_is_refused(api_client_for: Any, user: Any, games: Any) -> None:
    from cards import demo

    demo.load(io.StringIO())
    client = api_client_for(user)
    main = [{"card": "46986414", "count": 3}]
    document = {"format": "deckhall-deck", "version": 1, "name": "evil\u0000name", "sections": {"main": main}}
    response = client.post(
        "/api/decks/import/", {"game": "yugioh", "fmt": "json", "data": json.dumps(document)}, format="json"
    )
    # The request is well-formed; the list inside it is what cannot be read (422, README "Errors").
    assert response.status_code == 422, (connection.vendor, response.content)
    assert "NUL" in json.dumps(response.json())
    # A literal NUL anywhere in an uploaded file is refused before any lookup.
    upload = SimpleUploadedFile("deck.txt", b"3 Dark\x00Magician\n")
    raw = client.post("/api/decks/import/", {"game": "yugioh", "file": upload}, format="multipart")
    assert raw.status_code == 422 and "NUL" in json.dumps(raw.json())
    assert not Deck.objects.exists()


def test_a_deck_with_nul_in_its_notes_is_refused(api_client_for: Any, user: Any, games: Any) -> None:
    client = api_client_for(user)
    created = client.post("/api/decks/", {"game": "yugioh", "name": "ok"}, format="json").json()
    response = client.patch(f"/api/decks/{created['id']}/", {"notes": "a\u0000b"}, format="json")
    assert response.status_code == 400
    assert Deck.objects.get().notes == ""


def test_an_unknown_api_path_answers_json(api_client: Any, db: Any) -> None:
    response = api_client.get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response.json() == {"detail": "not found"}
