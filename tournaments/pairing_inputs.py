"""What the Swiss pairing engine is given for a round, built in one place.

The pairing service feeds it to the engine, and the pairing report and ``manage.py pairing_verify`` build
it again from the stored history to explain a round and reproduce it bit for bit: if the two ever built it
differently, the report would explain a round the engine never saw.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import phases, records
from .engine.pairing import PairingPlayer
from .models import Tournament


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
    all_points = phases.pairing_points(tournament, history, phase)
    opponents = records.opponents_by_player(history)
    byes = records.byes_by_player(history)
    downs = records.pair_downs_by_player(history)
    players = [
        PairingPlayer(
            id=p.id,
            points=all_points.get(p.id, 0),
            opponents=frozenset(opponents.get(p.id, ())),
            had_bye=p.id in byes,
            pair_downs=downs.get(p.id, 0),
        )
        for p in active
    ]
    return RoundInputs(players, {p.id: p.points for p in players})
