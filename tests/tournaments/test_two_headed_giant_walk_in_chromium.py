"""A Two-Headed Giant event of four teams run through pages alone in Chromium, from join to finish: the organizer
(desktop) creates the event and makes it Two-Headed Giant on its team page; eight players on 390 px phones come
in by the join code — three captains register their team and name a teammate, who accepts on their own phone,
and the fourth team is registered at the organizer's desk; the event starts; every round, the seat B head of one
team reports the team's game game by game on My event and a head of the other team confirms it there; rounds are
paired until the event is finished, and the final standings name the teams. The heads of one team read their
phones in Russian all along. Screenshots: tests/artifacts/two_headed_giant/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import confirm_yes, screenshot_checked, signed_in_page
from tournaments.models import Match, Player, TeamMember, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "two_headed_giant"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# Captain, teammate. The last team is registered by the organizer; "Twin Heads" read Russian.
TEAMS = {"Blue Mages": ("alice", "bob"), "Twin Heads": ("p06", "p07"), "Red Dawn": ("cara", "dan"),
         "Green Oak": ("eve", "finn")}  # fmt: skip
RUSSIAN = {"p06", "p07"}


def _page(browser: Any, live_server: Any, user: Any, viewport: dict[str, int], opened: list[Any], ru: bool = False) -> Any:  # fmt: skip
    return signed_in_page(
        browser, live_server, user, viewport=viewport, locale="ru-RU" if ru else "en-US",
        language="ru" if ru else None, opened=opened,
    )  # fmt: skip


def _shot(page: Any, name: str, width: int | None = None) -> None:
    screenshot_checked(page, ARTIFACTS, name, width)


_confirm = confirm_yes


def _label(event: Tournament) -> dict[int, str]:
    """player id -> "Blue Mages (alice & bob)"."""
    out = {}
    for team in event.teams.all():
        heads = " & ".join(m.player.name for m in team.members.order_by("seat"))
        for member in team.members.all():
            out[member.player_id] = f"{team.name} ({heads})"
    return out


def _partner(player_id: int) -> Player:
    member = TeamMember.objects.get(player_id=player_id)
    return member.team.members.exclude(pk=member.pk).get().player


def test_a_two_headed_giant_event_runs_on_eight_phones_from_join_to_finish(
    browser, live_server, games, organizer, make_user, opened
):  # type: ignore[no-untyped-def]
    users = {name: make_user(name) for heads in TEAMS.values() for name in heads}
    base = live_server.url
    desk = _page(browser, live_server, organizer, DESKTOP, opened)

    # --- the organizer creates the event and makes it Two-Headed Giant ------------------------------------------
    desk.goto(f"{base}/tournaments/new/")
    desk.fill("input[name=name]", "Giant Friday")
    desk.select_option("select[name=game_format]", "mtg:constructed")
    desk.fill("input[name=rounds]", "2")
    desk.locator("[data-testid=tournament-form] button[type=submit]").click()
    desk.wait_for_selector("[data-testid=tournament-name]")
    event = Tournament.objects.get(name="Giant Friday")
    desk.get_by_test_id("team-manage-link").click()
    desk.select_option("[data-testid=team-size]", "2")
    desk.select_option("[data-testid=team-mode]", "2hg")
    desk.get_by_test_id("team-setup-save").click()
    desk.wait_for_selector("[data-testid=team-add]")
    event.refresh_from_db()
    assert (event.team_size, event.team_mode) == (2, "2hg")

    # --- phones come in by the join code: captains register teams, teammates accept on their own phones ---------
    phones = {
        name: _page(browser, live_server, users[name], PHONE, opened, ru=name in RUSSIAN) for name in users
    }
    join = f"{base}/tournaments/join/{event.join_code}/"
    by_desk = "Green Oak"
    for team, (captain, mate) in TEAMS.items():
        if team == by_desk:
            continue
        phone = phones[captain]
        phone.goto(join)
        phone.wait_for_selector(
            "[data-testid=team-propose]"
        )  # a team event asks for the team, never a solo entry
        assert not Player.objects.filter(tournament=event, user=users[captain]).exists()
        phone.get_by_test_id("team-name").fill(team)
        phone.get_by_test_id("team-mate-1").fill(mate)
        if team == "Blue Mages":
            _shot(phone, "01-captain-names-the-team", PHONE["width"])
        phone.get_by_test_id("team-propose-submit").click()
        phone.wait_for_selector("[data-testid=my-team]")
        other = phones[mate]
        other.goto(join)
        other.locator("[data-testid^=team-invite-]").first.wait_for()
        if team == "Twin Heads":
            assert (
                "приглашает вас в команду «Twin Heads»"
                in other.locator("[data-testid=team-entry]").inner_text()
            )
            _shot(other, "02-teammate-invited-ru", PHONE["width"])
        other.get_by_test_id("team-invite-accept").click()
        other.wait_for_load_state()
        assert TeamMember.objects.filter(team__name=team, player__user=users[mate]).exists()
    desk.get_by_test_id("team-name").fill(by_desk)
    for seat, username in enumerate(TEAMS[by_desk]):
        desk.get_by_test_id(f"team-member_{seat}").fill(username)
    desk.get_by_test_id("team-add-submit").click()
    desk.wait_for_load_state()
    assert desk.get_by_test_id("team-list").locator("tbody tr").count() == 4
    _shot(desk, "03-four-teams-desktop")

    # --- start, then every round on the phones -------------------------------------------------------------------
    desk.goto(f"{base}/tournaments/{event.pk}/")
    desk.get_by_test_id("start-event").click()
    _confirm(desk)
    label = _label(event)
    name_of = {p.pk: p.user.username for p in event.players.select_related("user")}
    for number in (1, 2):
        if number > 1:
            desk.goto(f"{base}/tournaments/{event.pk}/")
            desk.get_by_test_id("pair-next").click()
            _confirm(desk)
        if not Match.objects.filter(round__tournament=event, round__number=number).exists():
            desk.goto(f"{base}/tournaments/{event.pk}/")
            desk.get_by_test_id("pair-next").click()
            _confirm(desk)
        games_ = list(Match.objects.filter(round__tournament=event, round__number=number).order_by("table"))
        assert len(games_) == 2 and not any(m.bye for m in games_)  # four teams: two shared games, no bye
        desk.goto(f"{base}/tournaments/{event.pk}/rounds/{number}/")
        dashboard = desk.get_by_test_id("pairings").inner_text()
        for m in games_:
            a, b = (label[s.player_id] for s in m.seats.order_by("seat"))
            assert a in dashboard and b in dashboard
        _shot(desk, f"04-round-{number}-dashboard-desktop")
        for m in games_:
            head_a, head_b = (s.player for s in m.seats.order_by("seat"))
            # Seat B of the first team reports the team's win game by game; the other team's seat B confirms.
            reporter, confirmer = _partner(head_a.pk), _partner(head_b.pk)
            phone = phones[name_of[reporter.pk]]
            phone.goto(f"{base}/tournaments/{event.pk}/me/")
            versus = phone.get_by_test_id("my-team-versus").inner_text()
            if reporter.user.username in RUSSIAN:
                assert versus == f"{label[head_a.pk]} против {label[head_b.pk]}"
            else:
                assert versus == f"{label[head_a.pk]} vs {label[head_b.pk]}"
            for game in (1, 2):
                form = phone.get_by_test_id(f"game-form-{game}")
                form.locator(f"input[name=first][value='{head_b.pk if game == 1 else head_a.pk}']").check()
                form.locator(f"input[name=winner][value='{head_a.pk}']").check()
                if number == 1 and game == 1 and m == games_[0]:
                    _shot(phone, f"05-seat-b-reports-{reporter.user.username}", PHONE["width"])
                form.get_by_test_id(f"save-game-{game}").click()
                phone.wait_for_load_state()
                if game == 1:
                    phone.get_by_test_id("game-form-2").wait_for()
            phone.get_by_test_id("waiting-confirm").wait_for()
            m.refresh_from_db()
            assert m.status == Match.Status.REPORTED
            other = phones[name_of[confirmer.pk]]
            other.goto(f"{base}/tournaments/{event.pk}/me/")
            box = other.get_by_test_id("confirm-box")
            box.wait_for()
            if number == 1:
                _shot(other, f"06-other-team-confirms-{confirmer.user.username}", PHONE["width"])
            box.get_by_test_id("confirm").click()
            other.get_by_test_id("settled").wait_for()
            m.refresh_from_db()
            assert m.status in (Match.Status.CONFIRMED, Match.Status.FINAL)

    # --- finish: the standings name the teams ---------------------------------------------------------------------
    desk.goto(f"{base}/tournaments/{event.pk}/")
    desk.get_by_test_id("finish").click()
    _confirm(desk)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    desk.goto(f"{base}/tournaments/{event.pk}/standings/")
    teams = desk.get_by_test_id("standings-teams").locator("tbody tr")
    assert teams.count() == 4
    first = teams.nth(0).inner_text()
    assert "2-0-0" in first and "6" in first
    _shot(desk, "07-final-standings-desktop")
    phone = phones["p06"]
    phone.goto(f"{base}/tournaments/{event.pk}/standings/")
    assert "Команды («Двухголовый гигант»)" in phone.get_by_test_id("standings-teams").inner_text()
    _shot(phone, "08-final-standings-phone-ru", PHONE["width"])
    phone.goto(f"{base}/tournaments/{event.pk}/me/")
    # Each head is told their team's place, not their own line among the players.
    final = phone.get_by_test_id("my-final").inner_text()
    assert final.startswith("Итоги: ваша команда Twin Heads заняла") and "из 4 команд" in final
    _shot(phone, "09-my-event-finished-ru", PHONE["width"])
    english = phones["alice"]
    english.goto(f"{base}/tournaments/{event.pk}/me/")
    told = english.get_by_test_id("my-final").inner_text()
    assert told.startswith("Final standings: your team Blue Mages finished") and " of 4 teams" in told
