"""What the Swiss pairing engine is given for a round, built in one place.

The pairing service feeds it to the engine, and the pairing report and ``manage.py pairing_verify`` build
it again from the stored history to explain a round and reproduce it bit for bit: if the two ever built it
differently, the report would explain a round the engine never saw.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from ..engine.pairing import PairingPlayer
from ..models import Phase, Tournament
from ..reads import phases, records


@dataclass(slots=True)
class RoundInputs:
    players: list[PairingPlayer]
    points: dict[int, int]
    """Pairing points of the players above (phase-aware)."""


def round_inputs(
    tournament: Tournament, history: records.History, number: int, entrants: list[int] | None = None
) -> RoundInputs:
    """Engine players for Swiss round ``number`` from ``history`` as it stood before that round.

    ``entrants`` narrows the players to a phase's (when the phase is being started they are not stored yet).
    """
    phase = phases.phase_of_round(tournament, number)
    if entrants is None and phase is not None:
        entrants = phase.entrants
    active = history.active_for_round(number)
    if entrants is not None:
        allowed = set(entrants)
        active = [p for p in active if p.id in allowed]
    all_points = pairing_points(tournament, history, phase)
    opponents, byes, downs = _past_rounds(history)
    no_one: frozenset[int] = frozenset()
    players = [
        PairingPlayer(
            id=p.id,
            points=all_points.get(p.id, 0),
            opponents=frozenset(opponents[p.id]) if p.id in opponents else no_one,
            had_bye=p.id in byes,
            pair_downs=downs.get(p.id, 0),
        )
        for p in active
    ]
    return RoundInputs(players, {p.id: p.points for p in players})


def pairing_points(tournament: Tournament, history: records.History, phase: Phase | None) -> dict[int, int]:
    """``phases.pairing_points`` (the standings' points: the whole event's, or the phase's own when it resets)
    without the tiebreakers and ranks the pairing never reads: at 16,384 players computing them was the
    largest part of posting a round. ``tests/tournaments/test_round_post_queries_and_pairings.py`` holds the two equal."""
    from ..engine.standings import compute_points

    source = history if phase is None or phase.carry_points else phases.phase_history(history, phase)
    if tournament.tiebreakers != "pods":
        points = _duel_points(source)
        if points is not None:
            return points
    players, matches = records.standing_inputs(source)
    return compute_points(players, matches, tournament.tiebreakers, pod_scale=source.pod_scale or None)


def _duel_points(history: records.History) -> dict[int, int] | None:
    """The standings' points of an event of two-player matches, read straight off the history (3 a won match
    or a bye, 1 a drawn one; a late entry's missed rounds score nothing): building a standings record per
    match cost more than the pairing itself. None when a record is anything else (a pod game, a seat of a
    player not listed): the standings engine then decides, and refuses what it refuses."""
    points = {p.id: 0 for p in history.players.values() if p.dropped_at_round != 0}
    try:
        for m in history.matches:
            if m.status not in records.RESULT_STATUSES:
                continue
            seats = m.seats
            if m.bye and len(seats) == 1:
                points[seats[0].player_id] += 3
            elif m.bye or len(seats) != 2 or seats[0].place is not None or seats[1].place is not None:
                return None
            else:
                a, b = seats
                if a.wins > b.wins:
                    points[a.player_id] += 3
                elif b.wins > a.wins:
                    points[b.player_id] += 3
                else:  # equal game wins, an intentional draw (0-0-3) included
                    points[a.player_id] += 1
                    points[b.player_id] += 1
    except KeyError:
        return None
    return points


def _past_rounds(history: records.History) -> tuple[dict[int, set[int]], set[int], dict[int, int]]:
    """Opponents, byes and pair-downs of every player (``records.opponents_by_player``, ``byes_by_player``
    and ``pair_downs_by_player``) in one pass over the matches instead of three."""
    opponents: dict[int, set[int]] = defaultdict(set)
    byes: set[int] = set()
    downs: dict[int, int] = defaultdict(int)
    for m in history.matches:
        seats = m.seats
        if m.bye:
            byes.add(seats[0].player_id)
        if len(seats) == 2:
            a, b = seats
            opponents[a.player_id].add(b.player_id)
            opponents[b.player_id].add(a.player_id)
        elif len(seats) > 2:
            ids = [s.player_id for s in seats]
            for pid in ids:
                opponents[pid].update(x for x in ids if x != pid)
        for s in seats:
            if s.paired_down:
                downs[s.player_id] += 1
    return opponents, byes, downs


# Hooks a higher layer adds from its AppConfig.ready(): hook(tournament=..., round_number=...) returns groups of
# player ids paired apart this round (limited/: "play within your pod" for the first rounds, MTR 7.x), or None.
PAIRING_GROUPS: list[Any] = []


def pairing_groups(tournament: Tournament, number: int, player_ids: list[int]) -> list[set[int]]:
    for hook in PAIRING_GROUPS:
        groups = hook(tournament=tournament, round_number=number)
        if groups:
            ids = set(player_ids)
            found = [set(g) & ids for g in groups]
            rest = ids - set().union(*found)  # late entries and anyone outside the groups: one more group
            return [g for g in [*found, rest] if g]
    return [set(player_ids)]
