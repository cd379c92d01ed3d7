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

from ..tournaments.factories import make_event

NESTED = "[" * 50_000 + "]" * 50_000
MODERATELY_NESTED = {"game": "yugioh", "name": "deep", "notes": json.loads("[" * 100 + "]" * 100)}


_B = "b0undary"


def _multipart(fields: dict[str, str]) -> bytes:
    parts = [
        f'--{_B}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n' for k, v in fields.items()
    ]
    return ("".join(parts) + f"--{_B}--\r\n").encode()


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
    operations = _json_operations()
    assert len(operations) > 10
    answers = {}
    for method, path in operations:
        url = re.sub(r"\{[^}]+\}", "1", path)
        response = getattr(client, method)(url, NESTED, content_type="application/json")
        answers[f"{method.upper()} {path}"] = response.status_code
    assert all(code < 500 for code in answers.values()), answers
    # Those that read the body before looking anything up say why.
    for name in ("POST /api/decks/", "POST /api/decks/validate/"):
        assert answers[name] == 400, (name, answers[name])
    # The deck import reads only the multipart body its schema documents (a file upload): JSON is a media
    # type it does not take (415), refused before any decoding.
    assert client.post("/api/decks/import/", NESTED, content_type="application/json").status_code == 415


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
        "/api/decks/import/",
        {"game": "yugioh", "fmt": "json", "data": json.dumps(document)},
        format="multipart",
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


# --- path ids, text fields, encodings and uploads: what the schema says is what the API takes -----------

# Path parameters that are text by nature (a game's slug, a player's username); every other one is an id.
_TEXT_PATH_PARAMETERS = {"slug", "username"}


def test_every_path_id_in_the_schema_is_digits_only() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    loose = []
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            for parameter in operation.get("parameters", []):
                if parameter["in"] != "path" or parameter["name"] in _TEXT_PATH_PARAMETERS:
                    continue
                kind = parameter["schema"]
                digits = {"^[0-9]{1,18}$", "^[0-9]+$", r"^\d+$"}
                if kind.get("type") != "integer" and kind.get("pattern") not in digits:
                    loose.append(f"{method.upper()} {path} {parameter['name']}: {kind}")
    assert not loose, loose


def test_a_path_id_longer_than_any_key_names_nothing(api_client_for: Any, organizer: Any) -> None:
    # 37 digits once reached the pod-pause view, whose lookup the database refused (400 "cannot be stored or
    # looked up") for an id the schema allowed. Ids are at most 18 digits: a longer one matches no route.
    client = api_client_for(organizer)
    huge = "0381659544846543878980828300846078262"
    for method, url in (
        ("post", f"/api/tournaments/{huge}/draft/pods/2/pause/"),
        ("get", f"/api/tournaments/{huge}/"),
        ("get", f"/api/tournaments/{huge}/standings/"),
        ("get", f"/api/tournaments/1/pools/{huge}/"),
    ):
        response = getattr(client, method)(
            url, {"paused": False} if method == "post" else None, format="json"
        )
        assert response.status_code == 404, (url, response.status_code)
        assert response.json() == {"detail": "not found"}


def test_a_path_id_that_is_a_fixed_routes_name_reaches_no_other_route(api_client_for: Any, user: Any) -> None:
    # "requests" as a tournament id once reached the entry-request route (POST only): an undocumented 405.
    client = api_client_for(user)
    for url in ("/api/tournaments/requests/teams/", "/api/tournaments/join/penalties/", "/api/matches/x/"):
        response = client.get(url)
        assert response.status_code == 404, (url, response.status_code)
        assert response.json() == {"detail": "not found"}


@pytest.mark.parametrize(
    ("url", "body", "field"),
    [
        ("/api/decks/", {"game": "yugioh", "name": 5}, "name"),
        ("/api/tournaments/", {"game": "vale", "format": "standard", "name": 123}, "name"),
        ("/api/decks/validate/", {"game": "yugioh", "banlist": 7, "sections": {}}, "banlist"),
        ("/api/series/", {"game": "vale", "name": 1.5}, "name"),
    ],
)
def test_a_number_where_the_schema_says_text_is_a_400_naming_the_field(
    url: str, body: dict[str, Any], field: str, api_client_for: Any, make_user: Any, games: Any
) -> None:
    # DRF's CharField turned 5 into "5"; the schema says string, so a number is a malformed request.
    response = api_client_for(make_user("org", organizer=True)).post(url, body, format="json")
    assert response.status_code == 400, (url, response.content)
    assert response.json()[field] == ["Not a valid string."]


def test_a_number_in_a_list_of_names_or_in_credentials_is_a_400(
    api_client_for: Any, api_client: Any, organizer: Any, games: Any
) -> None:
    event = make_event(organizer, games["caster"])
    bulk = api_client_for(organizer).post(
        f"/api/tournaments/{event.pk}/players/bulk/", {"names": ["Ann", 7]}, format="json"
    )
    assert bulk.status_code == 400 and bulk.json() == {"names": {"1": ["Not a valid string."]}}
    assert not event.players.exists()
    # Not "no such account" (401): the request itself is malformed.
    token = api_client.post("/api/auth/token/", {"username": 1, "password": 2}, format="json")
    assert token.status_code == 400 and token.json()["username"] == ["Not a valid string."]


@pytest.mark.parametrize(
    ("url", "body", "content_type"),
    [
        ("/api/decks/", "game=yugioh&name=Form", "application/x-www-form-urlencoded"),
        (
            "/api/decks/",
            _multipart({"game": "yugioh", "name": "Form"}),
            f"multipart/form-data; boundary={_B}",
        ),
        ("/api/decks/import/", json.dumps({"game": "yugioh", "data": "3 Pot"}), "application/json"),
        ("/api/collection/import/", "game=yugioh&data=x", "application/x-www-form-urlencoded"),
    ],
    ids=["form-to-json", "multipart-to-json", "json-to-upload", "form-to-upload"],
)
def test_a_body_in_an_encoding_the_schema_does_not_document_is_a_415(
    url: str, body: Any, content_type: str, api_client_for: Any, user: Any, games: Any
) -> None:
    response = api_client_for(user).generic("POST", url, body, content_type=content_type)
    assert response.status_code == 415, (url, response.content)
    assert "Unsupported media type" in response.json()["detail"]
    assert not Deck.objects.exists()


@pytest.mark.parametrize("url", ["/api/decks/import/", "/api/collection/import/"])
def test_an_upload_with_no_readable_file_and_no_paste_is_a_422(
    url: str, api_client_for: Any, user: Any, games: Any
) -> None:
    # An empty file part closed without the line break before the next boundary (as werkzeug's test client
    # writes it): the multipart parser finds no file. The body matches the schema; there is nothing to read.
    body = (
        f'--{_B}\r\nContent-Disposition: form-data; name="game"\r\n\r\nyugioh\r\n'
        f'--{_B}\r\nContent-Disposition: form-data; name="file"; filename="file"\r\n'
        f"Content-Type: application/octet-stream\r\n\r\n--{_B}--\r\n"
    ).encode()
    response = api_client_for(user).generic(
        "POST", url, body, content_type=f"multipart/form-data; boundary={_B}"
    )
    assert response.status_code == 422, (url, response.content)
    assert not Deck.objects.exists()
