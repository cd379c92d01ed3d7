"""Importing a game's card database is a per-game grant by staff ("card editors"), not something every
organizer may do."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from cards.models import Card, ImportJob


def _upload(game: str = "everseal") -> dict[str, Any]:
    cards = [{"external_id": "E-1", "name": "Test Card", "card_type": "unit"}]
    document = json.dumps({"format": "deckhall-cards", "version": 1, "game": game, "cards": cards})
    return {"game": game, "file": SimpleUploadedFile("cards.json", document.encode())}


@pytest.fixture
def plain_organizer(make_user: Any, games: Any) -> Any:
    return make_user("organizer-only", organizer=True)


def test_an_organizer_who_is_no_card_editor_cannot_import(
    api_client_for: Any, client: Any, plain_organizer: Any
) -> None:
    response = api_client_for(plain_organizer).post("/api/cards/import/", _upload(), format="multipart")
    assert response.status_code == 403
    client.force_login(plain_organizer)
    assert client.get("/cards/import/").status_code == 403
    assert client.post("/cards/import/", _upload()).status_code == 403
    assert not ImportJob.objects.exists() and not Card.objects.exists()


def test_a_card_editor_imports_only_the_games_granted(
    api_client_for: Any, client: Any, make_user: Any, games: Any, django_capture_on_commit_callbacks: Any
) -> None:
    editor = make_user("editor")  # not even an organizer: the grant is what counts
    games["everseal"].card_editors.add(editor)
    api = api_client_for(editor)
    refused = api.post("/api/cards/import/", _upload("vale"), format="multipart")
    assert refused.status_code == 403 and "vale" in refused.json()["detail"]
    with django_capture_on_commit_callbacks(execute=True):
        accepted = api.post("/api/cards/import/", _upload("everseal"), format="multipart")
    assert accepted.status_code == 202
    client.force_login(editor)
    page = client.get("/cards/import/").content.decode()
    game_select = re.search(r'<select name="game".*?</select>', page, re.S).group(0)
    assert re.findall(r'value="([^"]+)"', game_select) == ["everseal"]
    assert client.post("/cards/import/", _upload("vale")).status_code == 200  # the form refuses that game
    assert ImportJob.objects.count() == 1


def test_staff_import_any_game(api_client_for: Any, make_user: Any, games: Any) -> None:
    staff = make_user("root")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    response = api_client_for(staff).post("/api/cards/import/", _upload("vale"), format="multipart")
    assert response.status_code == 202
