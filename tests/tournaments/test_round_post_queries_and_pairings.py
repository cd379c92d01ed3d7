"""Posting a Swiss round stays a fixed handful of queries whatever the size of the event, and the speed work on
posting changed no pairing: the rounds posted for a fixed seed and fixed results are the ones the
code paired before it (a digest recorded from that code)."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import services
from tournaments.models import Match, MatchSeat, Player, Round

pytestmark = pytest.mark.django_db

# sha256 of the pairings below (names, tables, byes, pair-downs of rounds 1–4), as paired before the speed
# work: 65 players (a bye every round), one drop, one fixed table, draws among the results.
PAIRINGS_DIGEST = "1d92080059567365ba1cba39180abe4767dc05d36235c9a294122ebf51c45f8e"


def _event(organizer: Any, game: Any, players: int) -> Any:
    fmt = "advanced" if game.slug == "yugioh" else "standard"
    event = services.tournament_create(created_by=organizer, name="Big", game=game, format_slug=fmt,
                                       rounds=6, seed=2026)  # fmt: skip
    Player.objects.bulk_create([Player(tournament=event, name=f"P{i:04d}") for i in range(players)])
    return event


def _finish(round_: Round, rng: random.Random) -> None:
    """Random results (wins and drawn games) for every open match, written directly: results are not under test."""
    for match in round_.matches.filter(bye=False).order_by("table"):
        wins, draws = rng.choice(
            [((2, 0), 0), ((2, 1), 0), ((1, 2), 0), ((0, 2), 1), ((1, 1), 1), ((1, 0), 2)]
        )
        seats = list(match.seats.order_by("seat"))
        for seat, won in zip(seats, wins, strict=True):
            seat.wins = won
        MatchSeat.objects.bulk_update(seats, ["wins"])
        match.draws, match.status = draws, Match.Status.FINAL
        match.save(update_fields=["draws", "status"])


def _posted(round_: Round) -> list[tuple[Any, ...]]:
    return [
        (
            m.table,
            m.bye,
            m.status,
            tuple((s.seat, s.player.name, s.wins, s.paired_down) for s in m.seats.all()),
        )
        for m in round_.matches.prefetch_related("seats__player").order_by("table")
    ]


def test_the_posted_rounds_are_the_ones_paired_before_the_speed_work(games, organizer):
    event = _event(organizer, games["caster"], 65)
    rng = random.Random(26)
    posted = []
    for number in range(1, 5):
        if number == 2:
            Player.objects.filter(tournament=event, name="P0007").update(dropped_at_round=1)
            Player.objects.filter(tournament=event, name="P0030").update(fixed_table=5)
        round_ = services.round_pair_next(tournament=event, by=organizer)
        posted.append((round_.number, _posted(round_)))
        _finish(round_, rng)
    digest = hashlib.sha256(repr(posted).encode()).hexdigest()
    assert digest == PAIRINGS_DIGEST, digest


def _round_two_queries(organizer: Any, game: Any, players: int, capture: Any) -> tuple[int, int]:
    """Queries of posting round 2 (the service, its commit's signals) and of the first render of the pairings page."""
    from django.test import Client

    event = _event(organizer, game, players)
    _finish(services.round_pair_next(tournament=event, by=organizer), random.Random(players))
    with CaptureQueriesContext(connection) as post, capture(execute=True):
        services.round_pair_next(tournament=event, by=organizer)
    with CaptureQueriesContext(connection) as render:
        assert Client().get(reverse("tournaments:pairings", args=[event.pk])).status_code == 200
    return len(post), len(render)


def test_posting_a_round_costs_the_same_queries_at_64_and_512_players(
    games, organizer, django_capture_on_commit_callbacks
):
    small = _round_two_queries(organizer, games["caster"], 64, django_capture_on_commit_callbacks)
    large = _round_two_queries(organizer, games["caster"], 512, django_capture_on_commit_callbacks)
    assert small == large
    post, render = large
    assert post <= 20, post
    assert render <= 12, render


@pytest.mark.parametrize("policy", ["mtg", "yugioh", "pokemon", "pods"])
def test_the_points_for_pairing_are_the_standings_points(policy):
    """``compute_points`` (what pairing reads) gives every player the points of ``compute_standings``, for
    random events with byes, missed rounds, intentional draws, drawn games and (pods) shared places."""
    from tournaments.engine.standings import MatchRecord, StandingPlayer, compute_points, compute_standings

    rng = random.Random(policy)
    for _event_number in range(20):
        players = [
            StandingPlayer(i, f"P{i}", dropped=rng.random() < 0.1) for i in range(1, rng.randint(2, 40))
        ]
        records: list[MatchRecord] = []
        for number in range(1, rng.randint(1, 6)):
            ids = [p.id for p in players]
            rng.shuffle(ids)
            size = rng.choice([3, 4]) if policy == "pods" else 2
            while len(ids) >= size:
                seated, ids = tuple(ids[:size]), ids[size:]
                if policy == "pods":
                    places = tuple(rng.randint(1, size) for _ in seated)
                    values = tuple((rng.randint(0, 9),) for _ in seated)
                    records.append(MatchRecord(number, seated, places=places, tiebreak_values=values))
                elif rng.random() < 0.1:
                    records.append(MatchRecord(number, seated, (0, 0), 3, intentional_draw=True))
                else:
                    wins = rng.choice([(2, 0), (2, 1), (1, 2), (0, 2), (1, 1), (0, 0)])
                    records.append(MatchRecord(number, seated, wins, rng.randint(0, 1)))
            for left in ids:
                records.append(MatchRecord(number, (left,), (2,), is_bye=True))
            if rng.random() < 0.3:
                records.append(MatchRecord(number, (players[0].id,), (0,), missed=True))
        scale = rng.choice([None, 5]) if policy == "pods" else None
        expected = {
            row.player_id: row.points for row in compute_standings(players, records, policy, pod_scale=scale)
        }
        assert compute_points(players, records, policy, pod_scale=scale) == expected


@pytest.mark.parametrize("game", ["caster", "yugioh"])
def test_the_pairing_points_are_the_phase_standings_points(games, organizer, game):
    """``pairing_inputs.pairing_points`` answers what ``phases.pairing_points`` (the standings) answers: late
    entries with their missed-round losses, a drop, an intentional draw, drawn games, a result still waiting
    for its confirmation, a bye, and a second phase that starts its points from zero."""
    from tournaments.pairings import inputs as pairing_inputs
    from tournaments.reads import phases, records

    event = _event(organizer, games[game], 21)
    rng = random.Random(game)
    for number in range(1, 7):
        if number == 3:
            Player.objects.bulk_create(
                [Player(tournament=event, name=f"Late {i}", joined_round=3) for i in range(3)]
            )
            Player.objects.filter(tournament=event, name="P0004").update(dropped_at_round=2)
        if number == 5:
            services.phase_create(tournament=event, by=organizer, rounds=2, top=12, carry_points=False)
        event.refresh_from_db()
        round_ = services.round_pair_next(tournament=event, by=organizer)
        _finish(round_, rng)
        open_match = round_.matches.filter(bye=False).order_by("table").first()
        Match.objects.filter(pk=open_match.pk).update(status=Match.Status.REPORTED, draws=3)
        MatchSeat.objects.filter(match=open_match).update(wins=0)
        history = records.load_history(event)
        for phase in (None, phases.phase_of_round(event, number + 1)):
            expected = phases.pairing_points(event, history, phase)
            assert pairing_inputs.pairing_points(event, history, phase) == expected, (number, phase)
        Match.objects.filter(pk=open_match.pk).update(status=Match.Status.FINAL)


def test_the_collector_resumes_after_pairing_even_when_the_pairing_fails():
    import gc

    from tournaments.services.rounds import collector_paused

    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        assert not gc.isenabled()
        raise RuntimeError("no valid pairing")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled(), "a collector paused by someone else stays paused"
    finally:
        gc.enable()
