"""Card editors update a game from the community's files on a page: check (dry run), update, undo."""

from __future__ import annotations

import pytest
from django.test import Client

from cards.models import Card, CardUpdate
from cards.services import import_job_run
from tests.cards.conftest import GOOD_ROWS, make_cdb

pytestmark = pytest.mark.django_db


@pytest.fixture
def babel(server, settings):
    base, root = server
    make_cdb(root / "cards.cdb", GOOD_ROWS[:3])
    settings.CARD_UPDATE_URLS = {"yugioh": [f"{base}/cards.cdb"]}
    return base


def _editor(organizer) -> Client:
    client = Client()
    client.force_login(organizer)
    return client


def test_it_checks_then_updates_then_undoes_from_the_page(
    games, organizer, babel, django_capture_on_commit_callbacks
):
    client = _editor(organizer)
    page = client.get("/cards/update/").content.decode()
    assert f"{babel}/cards.cdb" in page and 'data-testid="update-check-yugioh"' in page
    assert "none configured (CARD_UPDATE_URLS_CASTER)" in page

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/cards/update/", {"game": "yugioh", "action": "check"})
    job_page = client.get(response["Location"]).content.decode()
    assert 'data-testid="update-summary"' in job_page and "What this update would change" in job_page
    assert "3 new cards" in job_page and not Card.objects.exists()

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/cards/update/", {"game": "yugioh", "action": "apply"})
    assert "What this update changed" in client.get(response["Location"]).content.decode()
    assert Card.objects.filter(game__slug="yugioh").count() == 3
    assert 'data-testid="update-rollback-yugioh"' in client.get("/cards/update/").content.decode()

    response = client.post("/cards/update/", {"game": "yugioh", "action": "rollback"}, follow=True)
    assert "The latest update was undone" in response.content.decode()
    assert not Card.objects.exists()
    assert CardUpdate.objects.filter(status=CardUpdate.Status.ROLLED_BACK).count() == 1


def test_it_says_in_russian_that_the_source_cannot_be_reached(games, organizer, settings):
    settings.CARD_UPDATE_URLS = {"yugioh": ["http://127.0.0.1:9/cards.cdb"]}
    client = _editor(organizer)
    client.post("/cards/update/", {"game": "yugioh", "action": "apply"})  # runs on commit; here: rows only
    update = CardUpdate.objects.get()
    import_job_run(job_id=update.job_id)
    page = client.get(f"/cards/import/{update.job_id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "не удаётся связаться с 127.0.0.1:9" in page
    assert not Card.objects.exists()


def test_players_are_refused_the_update_page(games, user):
    client = Client()
    client.force_login(user)
    response = client.post("/cards/update/", {"game": "yugioh", "action": "apply"})
    assert response.status_code == 403 and not CardUpdate.objects.exists()
