"""The organizer's dashboard is live: a desktop dashboard stays open while a 390 px phone disputes a result and
calls a judge; the badge, the title count and the chime follow without a reload. A table's extra time reaches
that table's phone and the 1920 px projector by itself. Screenshots under tests/artifacts/live_organizer/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import signed_in_page

from .factories import make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "live_organizer"


def _context(browser: Any, live_server: Any, user: Any = None, *, viewport: dict[str, int]) -> Any:
    """A browser already signed in as ``user`` (a session made on the server side)."""

    return signed_in_page(browser, live_server, user, viewport=viewport, timeout_ms=20_000)


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    width = page.viewport_size["width"]
    if width <= 400:
        assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{name}: wider than the phone"


def test_the_dashboard_raises_a_dispute_and_a_judge_call_without_a_reload(
    browser: Any, live_server: Any, games: Any, organizer: Any, make_user: Any
) -> None:
    from tournaments import services
    from tournaments.models import MatchSeat

    users = [make_user(f"player{i}") for i in range(1, 5)]
    event = make_event(organizer, games["yugioh"], name="Live Cup", rounds=3, seed=7)
    for user in users:
        services.player_register(tournament=event, by=user)
    round_ = services.round_pair_next(tournament=event, by=organizer)
    services.round_timer_start(round_=round_, by=organizer, minutes=50)
    match = round_.matches.order_by("table").first()
    reporter, disputer = [s.player.user for s in MatchSeat.objects.filter(match=match).order_by("seat")]

    desk = _context(browser, live_server, organizer, viewport={"width": 1280, "height": 900})
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/rounds/1/")
    desk.wait_for_selector("[data-testid=alerts-none]")
    assert desk.get_by_test_id("alert-badge").is_hidden()
    desk.evaluate("window.stillTheSamePage = 'yes'")  # gone if the page ever reloads
    base_title = desk.title()

    # The opponent reports; the phone at 390 px disputes it.
    services.match_report_result(match=match, by=reporter, wins=[2, 0])
    phone = _context(browser, live_server, disputer, viewport={"width": 390, "height": 844})
    phone.goto(f"{phone.base_url}/tournaments/{event.pk}/me/")
    phone.locator("details.dispute summary").click()
    phone.fill("#dispute-reason", "We played three games")
    phone.get_by_test_id("dispute").click()
    phone.wait_for_selector("[data-testid=disputed]")

    desk.wait_for_selector(f"[data-testid=alert-dispute-{match.pk}]")
    assert desk.get_by_test_id("alert-badge").inner_text() == "1"
    assert desk.title() == f"(1) {base_title}"
    assert desk.evaluate("document.body.dataset.chimes") == "1"
    assert "We played three games" in desk.get_by_test_id(f"alert-dispute-{match.pk}").inner_text()

    # The same phone calls a judge to its table.
    phone.get_by_test_id("call-judge").click()
    phone.wait_for_selector("[data-testid=judge-called]")
    _shot(phone, "phone-judge-called")
    desk.wait_for_selector(f"[data-testid=judge-call-{match.table}]")
    assert desk.get_by_test_id("alert-badge").inner_text() == "2"
    assert desk.title() == f"(2) {base_title}"
    assert desk.evaluate("document.body.dataset.chimes") == "2"
    assert desk.evaluate("window.stillTheSamePage") == "yes", "the dashboard reloaded"
    assert desk.get_by_test_id(f"table-call-{match.pk}").is_visible()
    _shot(desk, "dashboard-dispute-and-judge-call")

    # Muted: a new alert changes the badge but does not chime.
    desk.get_by_test_id("alert-mute").click()
    other = round_.matches.order_by("table").last()
    services.judge_call(match=other, by=organizer)
    desk.wait_for_selector(f"[data-testid=judge-call-{other.table}]")
    assert desk.title() == f"(3) {base_title}" and desk.evaluate("document.body.dataset.chimes") == "2"

    # A table's extra time: on that table's phone and the projector, by themselves.
    projector = _context(browser, live_server, viewport={"width": 1920, "height": 1080})
    projector.goto(f"{projector.base_url}/tournaments/{event.pk}/projector/timer/")
    projector.wait_for_selector("[data-testid=projector-timer]")
    services.match_extend(match=match, by=organizer, minutes=5)
    phone.wait_for_selector("[data-testid=my-extra-time]")
    projector.wait_for_selector("[data-testid=projector-extensions]")
    assert f"Table {match.table}: +5 min" in projector.get_by_test_id("projector-extensions").inner_text()
    _shot(phone, "phone-extra-time")
    _shot(projector, "projector-extra-time")

    # Clearing the call from the dashboard.
    desk.get_by_test_id(f"answer-call-{match.judge_calls.get().pk}").click()
    desk.wait_for_selector(f"[data-testid=judge-call-{match.table}]", state="detached")
    assert desk.title() == f"(2) {base_title}"
    phone.wait_for_selector("[data-testid=call-judge]")
    for page in (desk, phone, projector):
        page.context.close()


def test_an_organizer_swaps_two_players_and_gives_a_penalty_in_the_pages(
    browser: Any, live_server: Any, games: Any, organizer: Any
) -> None:
    from tournaments import services
    from tournaments.models import MatchSeat, PairingChange, Penalty

    event = make_event(organizer, games["yugioh"], name="Mend Cup", rounds=3, players=6, seed=3)
    round_ = services.round_pair_next(tournament=event, by=organizer)
    seats = list(
        MatchSeat.objects.filter(match__round=round_)
        .select_related("player")
        .order_by("match__table", "seat")
    )
    a, b = seats[0].player, seats[2].player
    desk = _context(browser, live_server, organizer, viewport={"width": 1280, "height": 900})
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/rounds/1/")
    desk.get_by_test_id("mend-tools").locator("summary").click()
    form = desk.get_by_test_id("swap-form")
    form.locator("select[name=player]").select_option(label=a.name)
    form.locator("select[name=other]").select_option(label=b.name)
    _shot(desk, "mend-tools")
    form.get_by_test_id("swap").click()
    desk.wait_for_selector("[data-testid=confirm-page]")
    assert f"Swap {a.name} and {b.name}?" in desk.inner_text("h1")
    desk.get_by_test_id("confirm-yes").click()
    desk.wait_for_selector("[data-testid=pairing-changes]")
    assert (
        MatchSeat.objects.get(player=a).match.table == 2 and MatchSeat.objects.get(player=b).match.table == 1
    )
    assert PairingChange.objects.get().actor == organizer
    _shot(desk, "after-swap")

    desk.get_by_test_id("penalties-link").click()
    desk.select_option("[data-testid=penalty-player]", label=a.name)
    desk.fill("[data-testid=penalty-infraction]", "Slow play")
    desk.select_option("[data-testid=penalty-kind]", value="warning")
    desk.get_by_test_id("penalty-submit").click()
    desk.wait_for_selector("[data-testid=confirm-page]")
    desk.get_by_test_id("confirm-yes").click()
    desk.wait_for_selector("[data-testid=penalty-log]")
    assert Penalty.objects.get().penalty == "warning"
    _shot(desk, "penalties")
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/rounds/1/")
    assert desk.get_by_test_id(f"penalty-count-{a.pk}").inner_text().endswith("1")
    desk.context.close()

    # The projector's clock chimes once when the round's time runs out while it is on the wall.
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.live import live_version_bump

    round_.refresh_from_db()
    round_.timer_ends_at = timezone.now() + timedelta(seconds=4)
    round_.save(update_fields=["timer_ends_at"])
    live_version_bump(tournament_id=event.pk, what="timer")
    wall = _context(browser, live_server, viewport={"width": 1920, "height": 1080})
    wall.goto(f"{wall.base_url}/tournaments/{event.pk}/projector/timer/")
    wall.get_by_test_id("projector-sound").click()
    wall.wait_for_selector("body[data-chimes='1']", state="attached", timeout=15_000)
    assert wall.evaluate("document.body.dataset.lastChime") == "end"
    assert "Time is up" in wall.get_by_test_id("projector-timer").inner_text()
    _shot(wall, "projector-time-up")
    wall.context.close()
