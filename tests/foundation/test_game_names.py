"""Game display names are editable data (the twin-deck game has no official name)."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from cards.models import Game

pytestmark = pytest.mark.django_db


def test_it_lets_staff_rename_a_game_in_the_admin_and_shows_the_new_name(
    client: Any, games: dict[str, Any], make_user: Any
) -> None:
    staff = make_user("staff")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client.force_login(staff)
    twin = games["twindeck"]
    page = client.get(f"/admin/cards/game/{twin.pk}/change/")
    assert page.status_code == 200
    form = {
        "name": "Близнецы",
        "name_ru": "Близнецы",
        "description": twin.description,
        "formats-TOTAL_FORMS": "0",
        "formats-INITIAL_FORMS": "0",
        "formats-MIN_NUM_FORMS": "0",
        "formats-MAX_NUM_FORMS": "1000",
    }
    response = client.post(f"/admin/cards/game/{twin.pk}/change/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Game.objects.get(pk=twin.pk).name == "Близнецы"
    assert "Близнецы" in client.get("/").content.decode()
    assert any(game["name"] == "Близнецы" for game in client.get("/api/games/").json())


def test_it_keeps_the_edited_name_when_games_are_synced(games: dict[str, Any]) -> None:
    Game.objects.filter(slug="twindeck").update(name="Близнецы")
    out = StringIO()
    call_command("sync_games", stdout=out)
    assert Game.objects.get(slug="twindeck").name == "Близнецы"
    assert "twindeck: Близнецы (basic, limited)" in out.getvalue()


def test_it_does_not_let_games_be_added_or_deleted_in_the_admin(client: Any, make_user: Any) -> None:
    staff = make_user("staff")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client.force_login(staff)
    assert client.get("/admin/cards/game/add/").status_code == 403
