"""Team events with phases and a top cut: a Swiss phase after a cut of the team standings pairs only the
advancing teams, the single-elimination cut seeds teams (seat matches side by side, or one shared game in
Two-Headed Giant, byes to the top seeds when the cut is not a power of two) and the event finishes after the
final team match."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import Match, Round, Tournament

pytestmark = pytest.mark.django_db


def _event(api, **kw):  # type: ignore[no-untyped-def]
    body = {
        "name": "Trios",
        "game": "mtg",
        "format": "constructed",
        "team_size": 3,
        "rounds": 2,
        "seed": 11,
        **kw,
    }
    answer = api.post("/api/tournaments/", body, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()["id"]


def _teams(api, tid, make_user, count, size, prefix="t"):  # type: ignore[no-untyped-def]
    names = [f"{prefix}{i}" for i in range(count * size)]
    for name in names:
        make_user(name)
    for t in range(count):
        made = api.post(f"/api/tournaments/{tid}/teams/", {"name": f"Team {t}", "members": names[size * t: size * t + size]},
                        format="json")  # fmt: skip
        assert made.status_code == 201, made.content


def _play(event, organizer, number):  # type: ignore[no-untyped-def]
    """Every open seat match of the round: the lower table's first seat wins (team a wins every seat)."""
    for m in Match.objects.filter(round__tournament=event, round__number=number, bye=False).order_by("table"):
        services.match_report_result(match=m, by=organizer, wins=[2, 0])


def _team_of(event):  # type: ignore[no-untyped-def]
    return {m.player_id: m.team_id for t in event.teams.all() for m in t.members.all()}


def test_a_team_phase_pairs_only_the_teams_that_made_the_cut(games, organizer, make_user, api_client_for):
    api = api_client_for(organizer)
    tid = _event(api)
    _teams(api, tid, make_user, 6, 3)
    event = Tournament.objects.get(pk=tid)
    for number in (1, 2):
        assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
        _play(event, organizer, number)
    added = api.post(f"/api/tournaments/{tid}/phases/", {"kind": "swiss", "rounds": 1, "advance": {"top": 4}},
                     format="json")  # fmt: skip
    assert added.status_code == 201, added.content
    before = api.get(f"/api/tournaments/{tid}/teams/").json()["teams"]
    top4 = {row["team"] for row in before[:4]}
    assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
    team_of = _team_of(event)
    paired = {team_of[s.player_id] for m in Match.objects.filter(round__tournament=event, round__number=3)
              for s in m.seats.all()}  # fmt: skip
    assert paired == top4
    assert Match.objects.filter(round__tournament=event, round__number=3).count() == 6  # two team matches × 3
    _play(event, organizer, 3)
    phase = api.get(f"/api/tournaments/{tid}/phases/2/").json()
    assert phase["entrants"] == 12 and {row["team"] for row in phase["teams"]} == top4
    assert sum(row["wins"] for row in phase["teams"]) == 2  # the phase's own team matches only
    first = api.get(f"/api/tournaments/{tid}/phases/1/").json()
    assert len(first["teams"]) == 6 and sum(row["wins"] for row in first["teams"]) == 6


def test_a_team_top_cut_seeds_teams_and_finishes_after_the_final(games, organizer, make_user, api_client_for):
    api = api_client_for(organizer)
    tid = _event(api, top_cut=4)
    _teams(api, tid, make_user, 6, 3)
    event = Tournament.objects.get(pk=tid)
    for number in (1, 2):
        assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
        _play(event, organizer, number)
    seeds = [row["team"] for row in api.get(f"/api/tournaments/{tid}/teams/").json()["teams"]][:4]
    semis = services.topcut_start(tournament=event, by=organizer)
    assert semis.kind == Round.Kind.TOP_CUT
    team_of = _team_of(event)
    matches = list(semis.matches.prefetch_related("seats").order_by("table"))
    assert len(matches) == 6
    pairs = [frozenset(team_of[s.player_id] for s in m.seats.all()) for m in matches]
    # Seed 1 meets seed 4 on tables 1-3 (seat against seat), seed 2 meets seed 3 on tables 4-6.
    assert (
        pairs[:3] == [frozenset({seeds[0], seeds[3]})] * 3
        and pairs[3:] == [frozenset({seeds[1], seeds[2]})] * 3
    )
    # Seed 4 wins two of three seats against seed 1; seed 2 wins all three.
    for m in matches:
        seats = sorted(m.seats.all(), key=lambda s: s.seat)
        winner_team = seeds[3] if m.table in (1, 2) else seeds[0] if m.table == 3 else seeds[1]
        wins = [2, 0] if team_of[seats[0].player_id] == winner_team else [0, 2]
        services.match_report_result(match=m, by=organizer, wins=wins)
    with pytest.raises(Exception, match="Finish the top cut"):
        services.tournament_finish(tournament=event, by=organizer)
    final = services.topcut_advance(tournament=event, by=organizer)
    finals = list(final.matches.prefetch_related("seats").order_by("table"))
    assert len(finals) == 3
    assert {team_of[s.player_id] for m in finals for s in m.seats.all()} == {seeds[3], seeds[1]}
    for m in finals:
        services.match_report_result(match=m, by=organizer, wins=[2, 1])
    with pytest.raises(Exception, match="final is played"):
        services.topcut_advance(tournament=event, by=organizer)
    services.tournament_finish(tournament=event, by=organizer)
    assert Tournament.objects.get(pk=tid).status == Tournament.Status.FINISHED
    # Final team standings: the cut's teams first by how far each went, then the rest by Swiss rank.
    rows = api.get(f"/api/tournaments/{tid}/teams/").json()["teams"]
    champion = team_of[finals[0].seats.get(seat=0).player_id]  # seat 0 won every final seat match 2-1
    runner_up = ({seeds[3], seeds[1]} - {champion}).pop()
    assert [(r["team"], r["top_cut"]) for r in rows[:2]] == [(champion, "winner"), (runner_up, "final")]
    assert {(r["team"], r["top_cut"]) for r in rows[2:4]} == {
        (seeds[0], "semifinal"),
        (seeds[2], "semifinal"),
    }
    assert [r["rank"] for r in rows] == list(range(1, 7)) and all(r["top_cut"] is None for r in rows[4:])
    # Every member of a team shares its stage in the players' standings.
    players = {
        r["player"]: r["top_cut"] for r in api.get(f"/api/tournaments/{tid}/standings/").json()["standings"]
    }
    winners = next(r for r in rows if r["team"] == champion)["members"]
    assert all(players[m["player"]] == "winner" for m in winners)


def test_a_two_headed_giant_cut_of_three_gives_the_top_seed_a_bye(
    games, organizer, make_user, api_client_for
):
    api = api_client_for(organizer)
    tid = _event(api, team_size=2, team_mode="2hg", top_cut=3)
    _teams(api, tid, make_user, 4, 2, prefix="g")
    event = Tournament.objects.get(pk=tid)
    for number in (1, 2):
        assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
        _play(event, organizer, number)
    seeds = [row["team"] for row in api.get(f"/api/tournaments/{tid}/teams/").json()["teams"]][:3]
    first = services.topcut_start(tournament=event, by=organizer)
    team_of = _team_of(event)
    matches = list(first.matches.prefetch_related("seats").order_by("table"))
    # One shared game per team pairing: the top seed's bye and seed 2 against seed 3.
    assert [m.bye for m in matches] == [True, False]
    assert team_of[matches[0].seats.get().player_id] == seeds[0]
    assert {team_of[s.player_id] for s in matches[1].seats.all()} == {seeds[1], seeds[2]}


def test_two_seat_teams_cannot_have_a_cut(games, organizer, api_client_for):
    api = api_client_for(organizer)
    body = {"name": "Pairs", "game": "mtg", "format": "constructed", "team_size": 2, "top_cut": 4}
    refused = api.post("/api/tournaments/", body, format="json")
    assert (
        refused.status_code == 422 and "team_size" in refused.json()
    )  # valid values that cannot go together
    tid = _event(api, team_size=2)
    later = api.post(f"/api/tournaments/{tid}/phases/", {"kind": "single_elim", "size": 4}, format="json")
    assert later.status_code == 400 and "top_cut" in str(later.json())
