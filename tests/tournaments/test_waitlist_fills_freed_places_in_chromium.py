"""A capped event whose waitlist fills the places freed after the start, through pages alone in Chromium: the
organizer (desktop) creates an event of 4 places and adds two guests by name; four players join by the code on
390 px phones — two take the last places, two are put in line; the event starts and round 1 is played; a player
drops from their own phone; the first in line is told on their phone (which updates by itself) that a place
freed up and confirms they are here; the organizer lets the second in line in over the cap from the check-in
page (shown as "over the cap"); round 2 pairs both as late entries. The second in line reads Russian.
Screenshots: tests/artifacts/waitlist_after_start/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import confirm_yes, screenshot_checked, signed_in_page
from tournaments.models import EntryChange, Match, Player, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "waitlist_after_start"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def _page(browser: Any, live_server: Any, user: Any, viewport: dict[str, int], opened: list[Any], ru: bool = False) -> Any:  # fmt: skip
    return signed_in_page(
        browser, live_server, user, viewport=viewport, locale="ru-RU" if ru else "en-US",
        language="ru" if ru else None, opened=opened,
    )  # fmt: skip


def _shot(page: Any, name: str, width: int | None = None) -> None:
    screenshot_checked(page, ARTIFACTS, name, width)


_confirm = confirm_yes


def test_the_waitlist_fills_places_freed_after_the_start_on_phones(
    browser, live_server, games, organizer, make_user, opened
):  # type: ignore[no-untyped-def]
    base = live_server.url
    desk = _page(browser, live_server, organizer, DESKTOP, opened)

    # --- an event of four places, late entry open until the end of round 2; two guests added by name ----------
    desk.goto(f"{base}/tournaments/new/")
    desk.fill("input[name=name]", "Capped Thursday")
    desk.select_option("select[name=game_format]", "caster:standard")
    desk.fill("input[name=rounds]", "3")
    desk.get_by_test_id("capacity").fill("4")
    desk.get_by_test_id("late-entry-until").fill("2")
    desk.locator("[data-testid=tournament-form] button[type=submit]").click()
    desk.wait_for_selector("[data-testid=tournament-name]")
    event = Tournament.objects.get(name="Capped Thursday")
    assert event.capacity == 4 and event.late_entry_until_round == 2
    for guest in ("Guest One", "Guest Two"):
        desk.get_by_test_id("guest-form").locator("input[name=name]").fill(guest)
        desk.get_by_test_id("guest-form").locator("button[type=submit]").click()
        desk.wait_for_load_state()

    # --- four phones join by the code: two take the last places, two wait in line --------------------------------
    names = ("mia", "noah", "rita", "pavel")
    users = {name: make_user(name) for name in names}
    phones = {
        name: _page(browser, live_server, users[name], PHONE, opened, ru=name == "pavel") for name in names
    }
    for name in names:
        phone = phones[name]
        phone.goto(f"{base}/tournaments/join/{event.join_code}/")
        phone.get_by_test_id("join-submit").click()
        phone.wait_for_url(f"**/tournaments/{event.pk}/me/")
    mia, noah, rita, pavel = (Player.objects.get(tournament=event, user=users[n]) for n in names)
    assert (mia.waitlisted, noah.waitlisted, rita.waitlisted, pavel.waitlisted) == (False, False, True, True)
    assert "number 1 in line" in phones["rita"].get_by_test_id("waitlisted").inner_text()
    assert "2-й в очереди" in phones["pavel"].get_by_test_id("waitlisted").inner_text()
    _shot(phones["rita"], "01-waitlisted-number-1", PHONE["width"])

    # --- start; round 1 is paired without the line and played on the dashboard -----------------------------------
    desk.goto(f"{base}/tournaments/{event.pk}/")
    desk.get_by_test_id("start-event").click()
    _confirm(desk)
    if not Match.objects.filter(round__tournament=event).exists():
        desk.goto(f"{base}/tournaments/{event.pk}/")
        desk.get_by_test_id("pair-next").click()
        _confirm(desk)
    first = list(Match.objects.filter(round__tournament=event, round__number=1, bye=False).order_by("table"))
    seated = {s.player_id for m in first for s in m.seats.all()}
    assert len(first) == 2 and rita.pk not in seated and pavel.pk not in seated
    phones["rita"].goto(f"{base}/tournaments/{event.pk}/me/")
    started = phones["rita"].get_by_test_id("waitlisted").inner_text()
    assert "has started and is full" in started and "number 1 in line" in started
    desk.goto(f"{base}/tournaments/{event.pk}/rounds/1/")
    for m in first:
        form = desk.get_by_test_id(f"entry-{m.pk}")
        form.locator("input[name=wins_a]").fill("2")
        form.locator("input[name=wins_b]").fill("0")
        form.locator("button[type=submit]").click()
        desk.wait_for_selector(f"[data-testid=entry-{m.pk}]", state="detached")

    # --- noah drops from his phone; rita's open page tells her by itself, and she confirms she is here ----------
    phones["noah"].goto(f"{base}/tournaments/{event.pk}/me/")
    phones["noah"].get_by_test_id("self-drop").click()
    _confirm(phones["noah"])
    phones["noah"].get_by_test_id("dropped").wait_for()
    rita_phone = phones["rita"]
    rita_phone.get_by_test_id("promoted").wait_for(timeout=30_000)  # no reload: the page polls
    assert "You play from round 2" in rita_phone.get_by_test_id("late-arrival").inner_text()
    _shot(rita_phone, "02-place-freed-up", PHONE["width"])
    rita_phone.get_by_test_id("late-check-in").click()
    rita_phone.get_by_test_id("late-confirmed").wait_for()
    rita.refresh_from_db()
    assert not rita.waitlisted and rita.joined_round == 2 and rita.checked_in_at is not None
    assert EntryChange.objects.filter(player=rita, action="promote").exists()

    # --- the organizer lets pavel in over the cap from the check-in page -----------------------------------------
    desk.goto(f"{base}/tournaments/{event.pk}/check-in/")
    desk.get_by_test_id(f"admit-{pavel.pk}").click()
    desk.get_by_test_id(f"over-cap-{pavel.pk}").wait_for()
    pavel.refresh_from_db()
    assert not pavel.waitlisted and pavel.joined_round == 2
    change = EntryChange.objects.get(player=pavel, action="admit")
    assert change.new["over_cap"] is True and change.changed_by == organizer
    _shot(desk, "03-check-in-over-the-cap-desktop")

    # --- round 2 pairs both late entries; their phones show their tables ----------------------------------------
    desk.goto(f"{base}/tournaments/{event.pk}/")
    desk.get_by_test_id("pair-next").click()
    _confirm(desk)
    second = Match.objects.filter(round__tournament=event, round__number=2)
    seated = {s.player_id for m in second for s in m.seats.all()}
    assert {rita.pk, pavel.pk} <= seated and noah.pk not in seated
    for name, shot in (("rita", "04-late-entry-paired"), ("pavel", "05-over-the-cap-paired-ru")):
        phones[name].goto(f"{base}/tournaments/{event.pk}/me/")
        seat = (
            phones[name].locator("[data-testid=my-table], [data-testid=my-bye]").first
        )  # five players: a bye
        seat.wait_for()
        _shot(phones[name], shot, PHONE["width"])
    assert re.search("Стол|бай", seat.inner_text()), seat.inner_text()
