"""A phone's live page never replaces a form the person started filling in, even when the poll that brings the
change left before they touched it (found walking a Two-Headed Giant event: a game's choices were wiped by an
answer already on its way, and "Save game 2" refused an empty form). The poll's answer is held in the page by a
stand-in ``fetch`` so the order is certain: poll sent, form touched, answer arrives."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser_session import signed_in_page
from tournaments import services

from .factories import make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
# Every poll of My event waits in window.__held until the test answers it.
HOLD_POLLS = """
window.__held = [];
const realFetch = window.fetch.bind(window);
window.fetch = function (url, options) {
  if (String(url).includes("/me/live/")) {
    return new Promise(function (resolve) { window.__held.push(resolve); });
  }
  return realFetch(url, options);
};
"""
ANSWER = """() => window.__held.shift()(new Response('<p data-testid="swapped">new</p>',
  {status: 200, headers: {"ETag": '"changed"'}}))"""


def _held_until(page: Any, count: int) -> None:
    """Wait until ``count`` polls are held (the page's CSP forbids wait_for_function's string evaluation)."""
    for _ in range(150):
        if page.evaluate("() => window.__held.length") == count:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"never {count} polls held")


def _phone(browser: Any, live_server: Any, user: Any, event: Any) -> Any:
    page = signed_in_page(browser, live_server, user, viewport=PHONE)
    page.add_init_script(HOLD_POLLS)
    page.goto(f"{live_server.url}/tournaments/{event.pk}/me/")
    _held_until(page, 1)  # the first poll has left and waits for its answer
    return page


def test_an_answer_in_flight_never_wipes_a_game_being_entered(
    browser, live_server, games, organizer, make_user
):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["caster"], rounds=2)
    ann, ben = make_user("ann"), make_user("ben")
    for account in (ann, ben):
        services.player_register(tournament=event, by=account, user=account)
    services.tournament_start(tournament=event, by=organizer)
    if not event.round_set.exists():
        services.round_pair_next(tournament=event, by=organizer)

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
