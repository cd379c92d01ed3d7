"""A player answers, on their phone (390 px), the registration an organizer asked of them with their own
deck: the request is on their events list (English and Russian), Accept registers them with that deck and
opens My event; the organizer's desktop deck lists then show it as the player's own, while a list the
organizer typed in is marked "entered by the organizer". Screenshots in tests/artifacts/entry_request/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import signed_in_page

from .test_players_accept_registrations_organizers_ask_for import _deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "entry_request"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_a_player_accepts_on_their_phone_and_the_organizers_copy_is_marked(
    browser: Any, live_server: Any, games: Any, organizer: Any, make_user: Any, api_client_for: Any
) -> None:
    from tournaments.models import Player

    dora, erin = make_user("dora"), make_user("erin")
    api = api_client_for(organizer)
    made = api.post("/api/tournaments/", {"name": "Asked Open", "game": "mtg", "format": "constructed",
                                          "deck_registration": True}, format="json")  # fmt: skip
    tid = made.json()["id"]
    own = _deck(dora, games["mtg"], "Dora")
    copy = _deck(organizer, games["mtg"], "Desk")
    assert api.post(f"/api/tournaments/{tid}/players/", {"username": "dora", "deck": own.pk},
                    format="json").status_code == 202  # fmt: skip
    assert api.post(f"/api/tournaments/{tid}/players/", {"username": "erin", "deck": copy.pk},
                    format="json").status_code == 201  # fmt: skip

    ru = signed_in_page(browser, live_server, dora, viewport=PHONE, locale="ru-RU")
    ru.goto(f"{live_server.url}/tournaments/")
    assert "просит зарегистрировать вас" in ru.locator('[data-testid="my-requests"]').inner_text()
    _shot(ru, "phone-request-ru")
    ru.context.close()

    phone = signed_in_page(browser, live_server, dora, viewport=PHONE)
    phone.goto(f"{live_server.url}/tournaments/")
    request = phone.locator('[data-testid="my-requests"]')
    assert "asks to register you for Asked Open" in request.inner_text()
    assert "Dora Brew" in request.inner_text()  # her own deck's name, on her own phone
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways at 390 px ({width} px)"
    _shot(phone, "phone-request")
    phone.locator('[data-testid="entry-request-accept"]').click()
    phone.wait_for_url(f"**/tournaments/{tid}/me/")
    _shot(phone, "phone-my-event-after-accepting")
    phone.context.close()
    assert Player.objects.get(tournament_id=tid, user=dora).source_deck_id == own.pk

    desk = signed_in_page(browser, live_server, organizer, viewport=DESKTOP)
    desk.goto(f"{live_server.url}/tournaments/{tid}/decklists/")
    lists = desk.locator('[data-testid="decklist"]')
    assert lists.count() == 2
    marks = {lists.nth(i).locator("h2").inner_text(): lists.nth(i).locator(
        '[data-testid="entered-by-organizer"]').count() for i in range(2)}  # fmt: skip
    assert marks == {"dora": 0, "erin entered by the organizer": 1}, marks
    _shot(desk, "desktop-decklists")
    desk.context.close()
    assert erin.entries.get().deck_entered_by_organizer
