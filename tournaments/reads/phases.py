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


@dataclasses.dataclass(frozen=True, slots=True)
class CutPreview:
    """Who a phase's cut would take if its first round were paired now."""

    advance: int
    cut: int
    lowest_points: int | None
    """The fewest points among those who advance (the cut line in points)."""


def cut_preview(
    tournament: Tournament, *, min_points: int | None, top: int | None, min_count: int | None
) -> CutPreview:
    """The cut by today's standings, for the organizer's "19 advance, 13 are cut" before adding a phase."""
    history = records.load_history(tournament)
    probe = Phase(tournament=tournament, number=0, rounds=1, first_round=(tournament.rounds or 0) + 1,
                  min_points=min_points, top=top, min_count=min_count)  # fmt: skip
    entrants = set(cut_entrants(tournament, history, probe))
    rows = [row for row in records.compute_rows(history, tournament.tiebreakers) if not row.dropped]
    points = [row.points for row in rows if row.player_id in entrants]
    return CutPreview(
        advance=len(entrants), cut=len(rows) - len(entrants & {r.player_id for r in rows}),
        lowest_points=min(points) if points else None,
    )  # fmt: skip


def cut_from_phase(tournament: Tournament, player_id: int) -> dict[str, Any] | None:
    """The phase a player did not advance into, with the line and their place before it; None if they play on.

    Only a phase whose entrants are fixed (its first round paired) can have cut anyone."""
    if tournament.status != Tournament.Status.RUNNING:
        return None
    for phase in Phase.objects.filter(tournament=tournament, entrants__isnull=False).order_by("-number"):
        if player_id in set(phase.entrants or ()):
            return None
        history = before_round(records.load_history(tournament), phase.first_round)
        rows = [row for row in records.compute_rows(history, tournament.tiebreakers) if not row.dropped]
        place = next((i for i, row in enumerate(rows, start=1) if row.player_id == player_id), None)
        if place is None:
            return None  # dropped before the cut: the drop is what their page says
        return {"phase": phase, "place": place, "count": len(rows)}
    return None


def phase_rows(tournament: Tournament, phase: Phase | None) -> list[Any]:
    """Standings of one phase: phase 1 is the event's first rounds; an added phase shows what its pairing uses
    — its entrants with the whole event's points when they carry over, its own rounds only when they reset
    (the overall standings are the event's standings)."""
    history = records.load_history(tournament)
    if phase is None:
        first_added = Phase.objects.filter(tournament=tournament).order_by("number").first()
        if first_added is not None:
            history = before_round(history, first_added.first_round)
        return records.compute_rows(history, tournament.tiebreakers)
    if phase.carry_points:
        entrants = set(phase.entrants or ())
        upto = before_round(history, phase.last_round + 1)
        rows = [
            row for row in records.compute_rows(upto, tournament.tiebreakers) if row.player_id in entrants
        ]
        return [dataclasses.replace(row, rank=place) for place, row in enumerate(rows, start=1)]
    return records.compute_rows(phase_history(history, phase), tournament.tiebreakers)
