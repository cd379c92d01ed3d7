"""Reads about an event's phases: which phase a Swiss round belongs to, who is paired in it, which points
count for pairing it, and each phase's standings. Writes are in ``services/phases.py``."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..models import Phase, Tournament
from . import records


def phase_of_round(tournament: Tournament, number: int) -> Phase | None:
    """The added phase a Swiss round belongs to, or None for phase 1 (the event's first rounds)."""
    phases = getattr(tournament, "_phases_cache", None)
    if phases is None:
        phases = list(Phase.objects.filter(tournament=tournament).order_by("number"))
        tournament._phases_cache = phases  # type: ignore[attr-defined]
    for phase in phases:
        if phase.first_round <= number <= phase.last_round:
            return phase
    return None


def before_round(history: records.History, number: int) -> records.History:
    """The history as it stood when round ``number`` was paired (its own and later rounds left out)."""
    return dataclasses.replace(
        history,
        matches=[m for m in history.matches if m.round_number < number],
        swiss_rounds_played=min(history.swiss_rounds_played, number - 1),
    )


def phase_history(history: records.History, phase: Phase) -> records.History:
    """Only the phase's entrants and rounds: the standings of the phase on its own (points reset)."""
    entrants = set(phase.entrants or ())
    return dataclasses.replace(
        history,
        players={pid: p for pid, p in history.players.items() if pid in entrants},
        matches=[m for m in history.matches if phase.first_round <= m.round_number <= phase.last_round],
        late_entry_losses=False,
    )


def pairing_points(tournament: Tournament, history: records.History, phase: Phase | None) -> dict[int, int]:
    """Match points the pairing of a round uses: the whole event's, or the phase's own when it resets."""
    source = history if phase is None or phase.carry_points else phase_history(history, phase)
    return {row.player_id: row.points for row in records.compute_rows(source, tournament.tiebreakers)}


def cut_entrants(tournament: Tournament, history: records.History, phase: Phase) -> list[int]:
    """Who advances into ``phase``: standings before its first round, cut by points and/or rank (team
    events: by team standings, every member of an advancing team)."""
    if tournament.team_size > 1:
        from .teams import team_cut_entrants

        return team_cut_entrants(tournament, history, phase)
    rows = [row for row in records.compute_rows(history, tournament.tiebreakers) if not row.dropped]
    rows.sort(key=lambda row: row.rank)
    chosen = rows
    if phase.min_points is not None:
        chosen = [row for row in chosen if row.points >= phase.min_points]
    if phase.top is not None:
        chosen = chosen[: phase.top]
    if phase.min_count is not None and len(chosen) < phase.min_count:
        # The floor fills with the best-ranked players below the cut, in standings order.
        taken = {row.player_id for row in chosen}
        chosen = chosen + [row for row in rows if row.player_id not in taken][: phase.min_count - len(chosen)]
    return sorted(row.player_id for row in chosen)


def phase_rows(tournament: Tournament, phase: Phase | None) -> list[Any]:
    """Standings of one phase: phase 1 is the event's first rounds; an added phase counts its own rounds
    and its entrants only (the overall standings are the event's standings)."""
    history = records.load_history(tournament)
    if phase is None:
        first_added = Phase.objects.filter(tournament=tournament).order_by("number").first()
        if first_added is not None:
            history = before_round(history, first_added.first_round)
        return records.compute_rows(history, tournament.tiebreakers)
    return records.compute_rows(phase_history(history, phase), tournament.tiebreakers)
