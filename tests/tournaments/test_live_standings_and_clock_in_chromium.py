"""On a 390 px phone: the standings show the player's own place first and highlighted, no wider than the phone,
and follow a confirmed result without a reload; the My-event clock follows a clock start without a reload.
Screenshots under tests/artifacts/live_phone/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import signed_in_page

from .factories import make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "live_phone"
PHONE = {"width": 390, "height": 844}


def _phone(browser: Any, live_server: Any, user: Any) -> Any:
    return signed_in_page(browser, live_server, user, viewport=PHONE, timeout_ms=20_000)


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], (
        f"{name}: wider than the phone"
    )


def test_a_phone_sees_its_own_place_first_and_the_standings_follow_a_result_without_a_reload(
    browser: Any, live_server: Any, games: Any, organizer: Any, make_user: Any, settings: Any
) -> None:
    from tournaments import services

    settings.LIVE_STANDINGS_EVERY_S = 0  # the next poll shows the result (in a room: within 10 s more)
    event = make_event(organizer, games["caster"], name="Standings Cup", players=69, rounds=3)
    user = make_user("watcher")
    me = services.player_register(tournament=event, by=user, user=user, name="")
    round_ = services.round_pair_next(tournament=event, by=organizer)
    mine = round_.matches.get(seats__player=me)
    # Everyone else's result first: the watcher's own table is still open, so they sit in the lower half.
    for match in round_.matches.filter(bye=False).exclude(pk=mine.pk):
        services.match_report_result(match=match, by=organizer, wins=[2, 0])

    phone = _phone(browser, live_server, user)
    phone.goto(f"{phone.base_url}/tournaments/{event.pk}/standings/")
    box = phone.get_by_test_id("standings-mine-box")
    own = box.get_by_test_id("my-standing")
    assert "watcher" in own.inner_text()
    assert "mine" in (own.get_attribute("class") or "")
    assert phone.get_by_test_id("standings").locator("tbody tr").count() == 50
    before = box.locator("h2").inner_text()
    phone.evaluate("window.stillTheSamePage = 'yes'")  # gone if the page ever reloads
    _shot(phone, "standings-phone")

    # The watcher's table is confirmed as a win (the organizer enters it: final at once).
    seat = mine.seats.get(player=me).seat
    services.match_report_result(match=mine, by=organizer, wins=[2, 0] if seat == 0 else [0, 2])
    # A phone coming back to the tab asks at once (the 15-s poll would too, later).
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    phone.wait_for_function(
        "before => document.querySelector('[data-testid=standings-mine-box] h2').innerText !== before",
        arg=before,
    )
    assert phone.evaluate("window.stillTheSamePage") == "yes"
    assert "mine" in (
        phone.get_by_test_id("standings-mine-box").get_by_test_id("my-standing").get_attribute("class") or ""
    )
    _shot(phone, "standings-phone-after-result")
    phone.context.close()  # no poll may reach the server while the test's database is emptied


def test_the_clock_reaches_my_event_without_a_reload(
    browser: Any, live_server: Any, games: Any, organizer: Any, make_user: Any
) -> None:
    from tournaments import services

    users = [make_user(f"clock{i}") for i in range(4)]
    event = make_event(organizer, games["caster"], name="Clock Cup", rounds=3)
    for user in users:
        services.player_register(tournament=event, by=user, user=user, name="")
    round_ = services.round_pair_next(tournament=event, by=organizer)
    phone = _phone(browser, live_server, users[0])
    phone.goto(f"{phone.base_url}/tournaments/{event.pk}/me/")
    assert phone.get_by_test_id("my-timer").count() == 0
    phone.evaluate("window.stillTheSamePage = 'yes'")
    phone.evaluate("document.querySelector('[data-testid=my-match] h2').dataset.mark = 'kept'")
    services.round_timer_start(round_=round_, by=organizer, minutes=50)
    phone.wait_for_selector("[data-testid=my-timer]", timeout=12_000)
    phone.wait_for_function("document.querySelector('[data-testid=my-timer]').innerText.startsWith('49:')")
    # Only the clock was swapped: the rest of the fragment is the very same element.
    assert phone.evaluate("document.querySelector('[data-testid=my-match] h2').dataset.mark") == "kept"
    assert phone.evaluate("window.stillTheSamePage") == "yes"
    first = phone.get_by_test_id("my-timer").inner_text()
    phone.wait_for_timeout(1_500)
    assert phone.get_by_test_id("my-timer").inner_text() != first  # it keeps counting
    _shot(phone, "my-event-clock")
    phone.context.close()
