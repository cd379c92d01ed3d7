"""Phases: a day 2 of Swiss for those who made a cut by points, points carried over or reset; a closing cut
of any size; standings per phase."""

from __future__ import annotations

import random

import pytest

from tournaments import services
from tournaments.models import Round
from tournaments.reads import records

from .factories import finish_round, make_event

pytestmark = pytest.mark.django_db


def _results(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    return lambda match: rng.choice([[2, 0], [0, 2], [2, 1]])


def _points(event) -> dict[int, int]:  # type: ignore[no-untyped-def]
    return {
        r.player_id: r.points for r in records.compute_rows(records.load_history(event), event.tiebreakers)
    }


def _play_swiss(event, organizer, rounds: int, seed: int = 0) -> None:  # type: ignore[no-untyped-def]
    for i in range(rounds):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer, outcome=_results(seed + i))


def test_a_day_two_pairs_only_players_with_the_points_and_carries_them(games, organizer, api_client_for):
    event = make_event(organizer, games["caster"], players=16, rounds=3)
    _play_swiss(event, organizer, 3)
    client = api_client_for(organizer)
    answer = client.post(
        f"/api/tournaments/{event.pk}/phases/", {"kind": "swiss", "rounds": 2, "advance": {"min_points": 6}},
        format="json",
    )  # fmt: skip
    assert answer.status_code == 201, answer.content
    assert [p["rounds"] for p in answer.json()["phases"]] == [[1, 2, 3], [4, 5]]
    before = _points(event)
    qualified = {pid for pid, pts in before.items() if pts >= 6}
    for number in (4, 5):
        assert client.post(f"/api/tournaments/{event.pk}/rounds/").status_code == 201
        round_ = event.round_set.get(number=number)
        seated = set(round_.matches.values_list("seats__player_id", flat=True))
        assert seated == qualified
        report = client.get(f"/api/tournaments/{event.pk}/rounds/{number}/report/").json()
        assert report["rematches"] == [] and report["pair_downs"] == report["pair_downs_lower_bound"]
        if number == 4:
            # Carried over: the round groups players by their points from day 1.
            from tournaments.pairings.report import _facts

            assert _facts(round_).points == {pid: before[pid] for pid in qualified}
        finish_round(event, organizer, outcome=_results(number))
    phase2 = client.get(f"/api/tournaments/{event.pk}/phases/2/").json()
    assert {row["player"] for row in phase2["standings"]} == qualified
    # Points carried over: the phase's standings show what its pairing used, the whole event's points.
    overall = _points(event)
    assert {row["player"]: row["points"] for row in phase2["standings"]} == {
        pid: overall[pid] for pid in qualified
    }
    phase1 = client.get(f"/api/tournaments/{event.pk}/phases/1/").json()
    assert {row["player"]: row["points"] for row in phase1["standings"]} == before
    # Overall standings go on counting everything.
    assert max(_points(event).values()) > 6


def test_a_minimum_count_fills_the_cut_and_points_can_reset(games, organizer):
    event = make_event(organizer, games["caster"], players=12, rounds=2)
    _play_swiss(event, organizer, 2, seed=5)
    phase = services.phase_create(
        tournament=event, by=organizer, rounds=1, min_points=6, min_count=8, carry_points=False
    )
    services.round_pair_next(tournament=event, by=organizer)
    phase.refresh_from_db()
    assert len(phase.entrants) == 8
    from tournaments.pairings.report import _facts

    # Reset: everyone in the phase starts from zero, so nobody is paired down.
    assert set(_facts(event.round_set.get(number=3)).points.values()) == {0}


def test_phases_are_refused_with_reasons(games, organizer, user, api_client_for):
    event = make_event(organizer, games["caster"], players=8)
    client = api_client_for(organizer)
    url = f"/api/tournaments/{event.pk}/phases/"
    answer = client.post(url, {"kind": "swiss", "rounds": 2}, format="json")
    assert answer.status_code == 409 and "first phase" in str(answer.json())
    services.tournament_update(tournament=event, by=organizer, rounds=1)
    assert client.post(url, {"kind": "swiss", "rounds": 0}, format="json").status_code == 400
    assert client.post(url, {"kind": "swiss"}, format="json").status_code == 400
    assert client.post(url, {"kind": "knockout", "rounds": 1}, format="json").status_code == 400
    assert api_client_for(user).post(url, {"kind": "swiss", "rounds": 1}, format="json").status_code == 403
    # A cut nobody makes is refused when the phase would start, naming the phase.
    services.phase_create(tournament=event, by=organizer, rounds=1, min_points=9)
    services.round_pair_next(tournament=event, by=organizer)
    finish_round(event, organizer)
    with pytest.raises(Exception, match="phase 2"):
        services.round_pair_next(tournament=event, by=organizer)


def test_a_top_twelve_gives_the_top_four_seeds_a_bye(games, organizer, api_client_for):
    event = make_event(organizer, games["caster"], players=24, rounds=3)
    _play_swiss(event, organizer, 3, seed=9)
    client = api_client_for(organizer)
    assert client.post(f"/api/tournaments/{event.pk}/phases/", {"kind": "single_elim", "size": 12},
                       format="json").status_code == 201  # fmt: skip
    cut = services.topcut_start(tournament=event, by=organizer)
    assert cut.kind == Round.Kind.TOP_CUT
    matches = list(cut.matches.order_by("table"))
    assert sum(m.bye for m in matches) == 4 and len(matches) == 8
    byes = {m.seats.get().cut_seed for m in matches if m.bye}
    assert byes == {1, 2, 3, 4}


def test_the_phase_pages_show_each_phases_standings(games, organizer, client):
    event = make_event(organizer, games["caster"], players=8, rounds=1)
    _play_swiss(event, organizer, 1, seed=3)
    services.phase_create(tournament=event, by=organizer, rounds=1, top=4)
    services.round_pair_next(tournament=event, by=organizer)
    detail = client.get(f"/tournaments/{event.pk}/").content.decode()
    assert 'data-testid="phase-links"' in detail
    page = client.get(f"/tournaments/{event.pk}/phases/2/").content.decode()
    assert "top 4" in page and page.count("<tr>") == 1 + 4
    assert client.get(f"/tournaments/{event.pk}/phases/1/").status_code == 200
    assert client.get(f"/tournaments/{event.pk}/phases/3/").status_code == 404


def test_my_events_points_follow_a_phase_that_resets_them(games, organizer):
    from tournaments.pairings import report as pairing_report

    event = make_event(organizer, games["caster"], players=10, rounds=2)
    _play_swiss(event, organizer, 2, seed=11)
    services.phase_create(tournament=event, by=organizer, rounds=2, top=6, carry_points=False)
    for _ in range(2):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer, outcome=_results(4))
    round4 = event.round_set.get(number=4)
    facts = pairing_report._facts(round4)
    for match in round4.matches.filter(bye=False):
        ids = list(match.seats.values_list("player_id", flat=True))
        assert pairing_report.pairing_points_of(round4, event, ids) == {pid: facts.points[pid] for pid in ids}
