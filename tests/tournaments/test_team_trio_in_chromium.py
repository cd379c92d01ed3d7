"""A team trio event run by an organizer in Chromium, through the pages only: the event created, made a team
event of 3 and its teams registered on its team page (a typo'd username refused with the form kept), the
event started, round 1's three seat matches entered on the round dashboard, the team standings read; then a
member's 390 px phone shows their seat, their table and the team match's result. Screenshots under
tests/artifacts/team_trio/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import confirm_yes, screenshot_checked, signed_in_page
from tournaments.models import Match, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "team_trio"
PHONE = {"width": 390, "height": 844}
TEAMS = {"Blue Moon": ["ann", "boris", "chen"], "Red Sun": ["dana", "emil", "fay"],
         "Green Leaf": ["gus", "hana", "ivo"]}  # fmt: skip


def _page(browser: Any, live_server: Any, user: Any, viewport: dict[str, int], opened: list[Any]) -> Any:
    return signed_in_page(browser, live_server, user, viewport=viewport, opened=opened)


def _shot(page: Any, name: str, width: int | None = None) -> None:
    screenshot_checked(page, ARTIFACTS, name, width)


_confirm = confirm_yes


def test_an_organizer_runs_a_team_trio_event_in_the_pages(
    browser, live_server, games, organizer, make_user, opened
):  # type: ignore[no-untyped-def]
    users = {name: make_user(name) for names in TEAMS.values() for name in names}
    desk = _page(browser, live_server, organizer, {"width": 1280, "height": 900}, opened)
    base = live_server.url

    # --- the event, then its team settings ---------------------------------------------------------------------
    desk.goto(f"{base}/tournaments/new/")
    desk.fill("input[name=name]", "Trios Night")
    desk.select_option("select[name=game_format]", "mtg:constructed")
    desk.fill("input[name=rounds]", "2")
    desk.locator("[data-testid=tournament-form] button[type=submit]").click()
    desk.wait_for_selector("[data-testid=tournament-name]")
    event = Tournament.objects.get(name="Trios Night")
    desk.get_by_test_id("team-manage-link").click()
    desk.select_option("[data-testid=team-size]", "3")
    desk.get_by_test_id("team-setup-save").click()
    desk.wait_for_selector("[data-testid=team-add]")
    event.refresh_from_db()
    assert event.team_size == 3 and event.team_mode == "seats"

    # --- three teams by name and usernames; a typo is refused with what was typed kept --------------------------
    for number, (name, members) in enumerate(TEAMS.items()):
        desk.get_by_test_id("team-name").fill(name)
        for seat, username in enumerate(members):
            typed = "nobody" if number == 0 and seat == 2 else username
            desk.get_by_test_id(f"team-member_{seat}").fill(typed)
        desk.get_by_test_id("team-add-submit").click()
        desk.wait_for_load_state()
        if number == 0:
            assert "No account named nobody." in desk.content()
            assert desk.get_by_test_id("team-name").input_value() == name
            _shot(desk, "01-team-refused")
            desk.get_by_test_id("team-member_2").fill(members[2])
            desk.get_by_test_id("team-add-submit").click()
            desk.wait_for_load_state()
        assert f"Team {name} registered." in desk.content()
    assert desk.get_by_test_id("team-list").locator("tbody tr").count() == 3
    assert "A: ann · B: boris · C: chen" in desk.get_by_test_id("team-list").inner_text()
    _shot(desk, "02-teams")
    desk.set_viewport_size(PHONE)  # an organizer at the desk with only a phone: the page still fits
    _shot(desk, "02b-teams-on-a-phone", PHONE["width"])
    desk.set_viewport_size({"width": 1280, "height": 900})

    # --- start: round 1 pairs two teams seat against seat, the third team has a bye -----------------------------
    desk.goto(f"{base}/tournaments/{event.pk}/")
    desk.get_by_test_id("start-event").click()
    _confirm(desk)
    desk.goto(f"{base}/tournaments/{event.pk}/")
    if desk.get_by_test_id("pair-next").count():
        desk.get_by_test_id("pair-next").click()
        _confirm(desk)
    matches = list(Match.objects.filter(round__tournament=event, round__number=1).order_by("table"))
    played = [m for m in matches if not m.bye]
    assert len(played) == 3 and sum(m.bye for m in matches) == 3

    # --- the round dashboard: the three seat results, team A winning two seats of three -------------------------
    desk.goto(f"{base}/tournaments/{event.pk}/rounds/1/")
    for match, wins in zip(played, ([2, 0], [1, 2], [2, 1]), strict=True):
        form = desk.get_by_test_id(f"entry-{match.pk}")
        form.locator("input[name=wins_a]").fill(str(wins[0]))
        form.locator("input[name=wins_b]").fill(str(wins[1]))
        form.locator("button[type=submit]").click()
        desk.wait_for_load_state()
        desk.wait_for_selector(f"[data-testid=entry-{match.pk}]", state="detached")
    _shot(desk, "03-round-1-entered")
    assert Match.objects.filter(round__tournament=event, round__number=1, status="final").count() == 6

    winner_name = played[0].seats.get(seat=0).player.team_member.team.name
    loser_name = played[0].seats.get(seat=1).player.team_member.team.name
    desk.goto(f"{base}/tournaments/{event.pk}/teams/")
    rows = desk.get_by_test_id("team-standings").locator("tbody tr")
    assert rows.count() == 3
    assert loser_name in rows.nth(2).inner_text() and "0-1-0" in rows.nth(2).inner_text()
    assert "3" in rows.nth(0).inner_text() and "1-0-0" in rows.nth(0).inner_text()
    _shot(desk, "04-team-standings")

    # --- a member's phone: their seat, their table, the team match's result ---------------------------------------
    member = played[1].seats.get(seat=0).player  # lost their own seat, but their team won the match
    phone = _page(browser, live_server, member.user, PHONE, opened)
    phone.goto(f"{base}/tournaments/{event.pk}/me/")
    assert f"Your team: {winner_name}, seat B" in phone.get_by_test_id("my-team-seat").inner_text()
    assert phone.get_by_test_id("my-table").inner_text().endswith("2")
    result = phone.get_by_test_id("my-team-result").inner_text()
    assert result == f"Team match against {loser_name}: your team won, seats 2–1."
    assert (
        phone.get_by_test_id("team-why")
        .inner_text()
        .startswith("Why these opponents: both teams had 0 team points.")
    )
    _shot(phone, "05-member-phone", PHONE["width"])
    phone.goto(f"{base}/tournaments/{event.pk}/teams/")
    assert phone.get_by_test_id("team-standings").locator("tbody tr").count() == 3
    _shot(phone, "06-team-standings-phone", PHONE["width"])
    assert users["ann"].entries.get(tournament=event).team_member.seat == 0


def test_two_headed_giant_seat_b_reports_and_confirms_on_phones(
    browser, live_server, games, organizer, make_user, api_client_for, opened
):  # type: ignore[no-untyped-def]
    api = api_client_for(organizer)
    answer = api.post("/api/tournaments/", {"name": "2HG Night", "game": "mtg", "format": "constructed",
                                            "team_size": 2, "team_mode": "2hg", "rounds": 1}, format="json")  # fmt: skip
    tid = answer.json()["id"]
    for team, names in (("Heads", ["ann", "boris"]), ("Tails", ["dana", "emil"])):
        for name in names:
            make_user(name)
        assert api.post(f"/api/tournaments/{tid}/teams/", {"name": team, "members": names},
                        format="json").status_code == 201  # fmt: skip
    assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
    game = Match.objects.get(round__tournament_id=tid)
    head_a, head_b = (s.player for s in game.seats.order_by("seat"))
    partner = {m.player_id: next(o.player for o in m.team.members.all() if o.pk != m.pk)
               for t in Tournament.objects.get(pk=tid).teams.all() for m in t.members.all()}  # fmt: skip
    base = live_server.url
    reporter = _page(browser, live_server, partner[head_a.pk].user, PHONE, opened)
    reporter.goto(f"{base}/tournaments/{tid}/me/")
    reporter.get_by_test_id("my-team-2hg-match").click()
    form = reporter.get_by_test_id("wins-form")
    form.locator("input[name=wins_a]").fill("2")
    form.locator("input[name=wins_b]").fill("1")
    form.get_by_test_id("submit-wins").click()
    reporter.wait_for_load_state()
    assert reporter.get_by_test_id("match-status").inner_text().lower() == "reported"
    teams = reporter.get_by_test_id("match-teams").inner_text()
    first, second = ("Heads", "ann & boris"), ("Tails", "dana & emil")
    if head_a.user.username == "dana":
        first, second = second, first
    # Each side is the team with both heads (the slip's columns name teams, not seat-A players).
    assert teams == (
        f"Two-Headed Giant: {first[0]} — {second[0]} · {first[0]} ({first[1]}) — {second[0]} ({second[1]})"
    )
    _shot(reporter, "07-2hg-seat-b-reported", PHONE["width"])
    confirmer = _page(browser, live_server, partner[head_b.pk].user, PHONE, opened)
    confirmer.goto(f"{base}/tournaments/matches/{game.pk}/")
    confirmer.get_by_test_id("confirm").click()
    confirmer.wait_for_load_state()
    assert confirmer.get_by_test_id("match-status").inner_text().lower() == "confirmed"
    _shot(confirmer, "08-2hg-other-seat-b-confirmed", PHONE["width"])
    game.refresh_from_db()
    assert game.confirmed_by == partner[head_b.pk].user and game.reported_by == partner[head_a.pk].user
