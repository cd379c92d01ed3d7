"""A phone's My event never loses what the person is entering when an answer arrives (found walking a Two-Headed
Giant event, where game 2's choices were wiped and "Save game 2" refused an empty form):

- a live poll's answer that left before they touched a form is not swapped in;
- the answer to "Save game 1" (sent from the phone's queue, which offers game 2's form at once) keeps the
  choices they made meanwhile in game 2's form.

The answers are held in the page by a stand-in ``fetch`` so the order is certain: request sent, form touched,
answer arrives."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser_session import signed_in_page
from tournaments import services

from .factories import make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# Every poll of My event waits in window.__held until the test answers it; every saved game waits in
# window.__writes until the test lets it reach the server.
HOLD_POLLS = """
window.__held = [];
window.__writes = [];
const realFetch = window.fetch.bind(window);
window.fetch = function (url, options) {
  if (String(url).includes("/me/live/")) {
    return new Promise(function (resolve) { window.__held.push(resolve); });
  }
  if (String(url).includes("/games/")) {
    return new Promise(function (resolve, reject) {
      window.__writes.push(function () { realFetch(url, options).then(resolve, reject); });
    });
  }
  return realFetch(url, options);
};
"""
ANSWER = """() => window.__held.shift()(new Response('<p data-testid="swapped">new</p>',
  {status: 200, headers: {"ETag": '"changed"'}}))"""


def _held_until(page: Any, count: int, what: str = "__held") -> None:
    """Wait until ``count`` requests are held (the page's CSP forbids wait_for_function's string evaluation)."""
    for _ in range(150):
        if page.evaluate(f"() => window.{what}.length") == count:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"never {count} requests held in {what}")


def _phone(browser: Any, live_server: Any, user: Any, event: Any) -> Any:
    page = signed_in_page(browser, live_server, user, viewport=PHONE)
    page.add_init_script(HOLD_POLLS)
    page.goto(f"{live_server.url}/tournaments/{event.pk}/me/")
    _held_until(page, 1)  # the first poll has left and waits for its answer
    return page


@pytest.fixture
def paired(games, organizer, make_user):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["caster"], rounds=2)
    ann, ben = make_user("ann"), make_user("ben")
    for account in (ann, ben):
        services.player_register(tournament=event, by=account, user=account)
    services.tournament_start(tournament=event, by=organizer)
    if not event.round_set.exists():
        services.round_pair_next(tournament=event, by=organizer)
    return event, ann, ben


def test_a_poll_answer_in_flight_never_wipes_a_game_being_entered(browser, live_server, paired):  # type: ignore[no-untyped-def]
    event, ann, ben = paired

    untouched = _phone(browser, live_server, ben, event)
    untouched.evaluate(ANSWER)
    untouched.get_by_test_id("swapped").wait_for()  # a page nobody is filling in takes the change
    untouched.context.close()

    phone = _phone(browser, live_server, ann, event)
    form = phone.get_by_test_id("game-form-1")
    form.locator("input[name=first]").first.check()
    form.locator("input[name=winner]").first.check()
    phone.evaluate(ANSWER)
    phone.wait_for_timeout(200)  # the answer's text is read and handled
    assert phone.get_by_test_id("swapped").count() == 0
    assert form.locator("input[name=first]").first.is_checked()
    assert form.locator("input[name=winner]").first.is_checked()
    phone.context.close()


def test_the_answer_to_game_one_keeps_the_choices_made_in_game_two(browser, live_server, paired):  # type: ignore[no-untyped-def]
    from tournaments.models import Match

    event, ann, _ben = paired
    phone = _phone(browser, live_server, ann, event)
    match = Match.objects.get(round__tournament=event, bye=False)
    me = match.seats.get(player__user=ann).player_id
    them = match.seats.exclude(player__user=ann).get().player_id
    one = phone.get_by_test_id("game-form-1")
    one.locator(f"input[name=first][value='{them}']").check()
    one.locator(f"input[name=winner][value='{me}']").check()
    one.get_by_test_id("save-game-1").click()
    _held_until(phone, 1, "__writes")  # game 1 is on its way; the phone already offers game 2
    two = phone.get_by_test_id("game-form-2")
    two.wait_for()
    two.locator(f"input[name=first][value='{me}']").check()
    two.locator(f"input[name=winner][value='{me}']").check()
    phone.evaluate("() => window.__writes.shift()()")
    phone.locator(".messages").get_by_text("Game 1 saved.").wait_for()  # the answer's page is in
    two = phone.get_by_test_id("game-form-2")
    assert two.locator(f"input[name=first][value='{me}']").is_checked()
    assert two.locator(f"input[name=winner][value='{me}']").is_checked()
    two.get_by_test_id("save-game-2").click()
    _held_until(phone, 1, "__writes")
    phone.evaluate("() => window.__writes.shift()()")
    phone.get_by_test_id("waiting-confirm").wait_for()
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    assert [s.wins for s in match.seats.order_by("seat")] == (
        [2, 0] if match.seats.get(seat=0).player_id == me else [0, 2]
    )
    phone.context.close()
