"""In Chromium on a 390 px phone: after the start a late player joins by code, sees that they play from the
next round, and reports their games from their own phone; a pre-registered player says "this is me" for the
entry the organizer added by name instead of making a second one; a player on the waitlist (in Russian) sees
their page tell them, by itself, that a place freed up. Screenshots in tests/artifacts/late_entry/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import signed_in_page

from .factories import finish_round, make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "late_entry"
PHONE = {"width": 390, "height": 844}


def _phone(browser: Any, live_server: Any, user: Any, locale: str = "en-US") -> Any:
    """A 390 px phone already signed in as ``user`` (a server-side session: the log-in form is tested
    elsewhere)."""

    return signed_in_page(browser, live_server, user, viewport=PHONE, locale=locale)


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name}: {width}px wide on a 390px phone"


def _join_by_code(page: Any, code: str) -> None:
    page.goto(f"{page.base_url}/tournaments/join/")
    page.fill("[data-testid=join-code-input]", code.lower())
    page.get_by_test_id("join-code-go").click()
    page.wait_for_selector("[data-testid=join-form]")


def test_a_late_player_joins_by_code_and_reports_from_their_phone(
    browser: Any, live_server: Any, games: Any, organizer: Any, make_user: Any
) -> None:
    from tournaments import services
    from tournaments.models import EntryChange, Match, Player

    event = make_event(organizer, games["caster"], name="Late Cup", rounds=3, seed=7)
    services.players_bulk_add(
        tournament=event, by=organizer, rows=["Ann Lee", "Ben Cole", "Cy Diaz", "Dee Fox", "Erin Park"]
    )
    lena, erin = make_user("lena"), make_user("erin")
    services.tournament_start(tournament=event, by=organizer)
    services.round_pair_next(tournament=event, by=organizer)
    finish_round(event, organizer)

    # Lena arrives during round 1: the code still works and says she plays from round 2.
    phone = _phone(browser, live_server, lena)
    _join_by_code(phone, event.join_code)
    assert "you enter late and play from round 2" in phone.get_by_test_id("late-join").inner_text()
    assert "counts as a match loss" in phone.get_by_test_id("late-join").inner_text()
    _shot(phone, "01-late-join")
    phone.get_by_test_id("join-submit").click()
    phone.wait_for_selector("[data-testid=next-step]")
    assert "you play from round 2" in phone.get_by_test_id("next-step").inner_text()
    assert "0–1–0" in phone.get_by_test_id("my-record").inner_text()  # the missed round: a match loss
    _shot(phone, "02-late-my-event")
    late = Player.objects.get(tournament=event, user=lena)
    assert late.joined_round == 2 and EntryChange.objects.filter(player=late, action="late_entry").exists()

    # Erin was added by name before the event: she takes over that entry instead of a second one.
    erin_phone = _phone(browser, live_server, erin)
    _join_by_code(erin_phone, event.join_code)
    guest = Player.objects.get(tournament=event, name="Erin Park")
    _shot(erin_phone, "03-claim-offer")
    erin_phone.get_by_test_id(f"claim-{guest.pk}").check()
    erin_phone.get_by_test_id("join-submit").click()
    erin_phone.wait_for_selector("[data-testid=my-record]")
    assert erin_phone.locator("h1.me-title").inner_text() == "Erin Park"
    assert Player.objects.filter(tournament=event).count() == 6
    assert Player.objects.get(pk=guest.pk).user == erin

    # Round 2 is paired: Lena's phone shows her table, and she saves both games herself.
    services.round_pair_next(tournament=event, by=organizer)
    match = Match.objects.get(round__tournament=event, round__number=2, seats__player=late)
    assert not match.bye
    phone.reload()
    phone.wait_for_selector("[data-testid=my-table]")
    for number in (1, 2):
        form = phone.get_by_test_id(f"game-form-{number}")
        form.locator(f"input[name=first][value='{late.pk}']").check()
        form.locator(f"input[name=winner][value='{late.pk}']").check()
        form.get_by_test_id(f"save-game-{number}").click()
        # My event sends its writes from a queue on the phone: wait until nothing waits in it.
        phone.wait_for_selector("[data-testid=offline-queue] li.waiting", state="detached")
    phone.wait_for_selector("[data-testid=waiting-confirm]")
    _shot(phone, "04-late-reported")
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED and match.reported_by == lena

    # The organizer's event page (desktop) shows the late-entry window and adds an account by username.
    desk = _phone(browser, live_server, organizer)
    desk.set_viewport_size({"width": 1280, "height": 900})
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/")
    assert (
        "Late entry is open until the end of round 2" in desk.get_by_test_id("late-entry-status").inner_text()
    )
    make_user("mo")
    desk.fill("#account-username", "mo")
    desk.get_by_test_id("account-form").locator("button").click()
    desk.wait_for_selector("tr[data-player='mo']")
    desk.screenshot(path=str(ARTIFACTS / "05-organizer-event.png"), full_page=True)
    assert Player.objects.get(tournament=event, user__username="mo").joined_round == 3


def test_a_waitlisted_phone_learns_by_itself_that_a_place_freed_up(
    browser: Any, live_server: Any, games: Any, organizer: Any, make_user: Any
) -> None:
    from tournaments import services
    from tournaments.models import Player

    event = make_event(organizer, games["caster"], name="Full Cup", capacity=1)
    (guest,) = services.players_bulk_add(tournament=event, by=organizer, rows=["Ann Lee"])
    vera = make_user("vera")
    phone = _phone(browser, live_server, vera, locale="ru-RU")
    _join_by_code(phone, event.join_code)
    phone.get_by_test_id("join-submit").click()
    phone.wait_for_selector("[data-testid=waitlisted]")
    assert "1-й в очереди" in phone.get_by_test_id("waitlisted").inner_text()
    assert "вы в листе ожидания" in phone.locator(".messages").inner_text()
    _shot(phone, "06-waitlisted-ru")
    assert Player.objects.get(tournament=event, user=vera).waitlisted
    services.player_drop(player=guest, by=organizer)
    # No reload: the page polls and shows the promotion.
    phone.wait_for_selector("[data-testid=promoted]", timeout=20_000)
    assert "Освободилось место" in phone.get_by_test_id("promoted").inner_text()
    assert phone.locator("[data-testid=waitlisted]").count() == 0
    _shot(phone, "07-promoted-ru")
