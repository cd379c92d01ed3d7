"""Phases: more Swiss after a cut by points and/or rank, points carried over or reset.

- ``phase_create(tournament=, by=, rounds=, min_points=None, top=None, min_count=None, carry_points=True)``
  — organizers, before the top cut; the event's Swiss rounds grow by ``rounds``.
- ``phase_set_cut(tournament=, by=, size=)`` — the closing single-elimination cut, any size, until it starts.
- ``phase_seat_entrants(tournament=, number=, history=)`` — called when a phase's first round is paired:
  fixes who advanced (the standings then), so a later correction cannot move the cut under a running phase.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from config.api import StateConflict

from ..models import Phase, Tournament
from ..permissions import require_organizer
from ..reads import phases, records
from .common import announce

MAX_PHASE_ROUNDS = 20


def _count(value: Any, field: str, low: int, errors: dict[str, str]) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= 100_000:
        errors[field] = _("%(field)s must be a whole number of at least %(low)s.") % {
            "field": field,
            "low": low,
        }
        return None
    return value


@transaction.atomic
def phase_create(
    *,
    tournament: Tournament,
    by: Any,
    rounds: Any,
    min_points: Any = None,
    top: Any = None,
    min_count: Any = None,
    carry_points: bool = True,
) -> Phase:
    """Add a Swiss phase after the event's current last Swiss round."""
    require_organizer(tournament, by)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status in (Tournament.Status.TOP_CUT, Tournament.Status.FINISHED):
        raise StateConflict(_("Phases can only be added before the top cut."))
    if tournament.match_format == Tournament.MatchFormat.PODS:
        raise StateConflict(_("Pod events have no Swiss phases."))
    if tournament.rounds is None:
        raise StateConflict({"rounds": _("Set the number of Swiss rounds of the first phase first.")})
    errors: dict[str, str] = {}
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_PHASE_ROUNDS:
        errors["rounds"] = _("Rounds must be between 1 and %(n)s.") % {"n": MAX_PHASE_ROUNDS}
    values = {
        "min_points": _count(min_points, "min_points", 0, errors),
        "top": _count(top, "top", 2, errors),
        "min_count": _count(min_count, "min_count", 2, errors),
    }
    if errors:
        raise ValidationError(errors)
    latest = tournament.round_set.order_by("-number").first()
    if latest is not None and latest.number > tournament.rounds:
        raise StateConflict(_("Phases can only be added before the top cut."))
    number = (tournament.phases.order_by("-number").values_list("number", flat=True).first() or 1) + 1
    phase = Phase.objects.create(
        tournament=tournament,
        number=number,
        rounds=rounds,
        first_round=tournament.rounds + 1,
        carry_points=bool(carry_points),
        created_by=by,
        **values,
    )
    tournament.rounds += rounds
    tournament.save(update_fields=["rounds"])
    announce(tournament.pk, "phase")
    return phase


def phase_seat_entrants(*, tournament: Tournament, number: int, history: records.History) -> None:
    """If Swiss round ``number`` opens a phase, fix the phase's entrants from the standings before it."""
    phase = phases.phase_of_round(tournament, number)
    if phase is None or phase.first_round != number or phase.entrants is not None:
        return
    entrants = phases.cut_entrants(tournament, history, phase)
    if tournament.team_size > 1 and len(entrants) < 2 * tournament.team_size:
        raise StateConflict(
            _("Only %(n)s teams meet the cut of phase %(phase)s; lower it or add a minimum count.")
            % {"n": len(entrants) // tournament.team_size, "phase": phase.number}
        )
    if len(entrants) < 2:
        raise StateConflict(
            _("Only %(n)s players meet the cut of phase %(phase)s; lower it or add a minimum count.")
            % {"n": len(entrants), "phase": phase.number}
        )
    phase.entrants = entrants
    phase.save(update_fields=["entrants"])


@transaction.atomic
def phase_set_cut(*, tournament: Tournament, by: Any, size: Any) -> Tournament:
    """Set the closing single-elimination cut (any size from 2 to 64; 0 removes it) until it starts.

    Unlike the event settings this may change after round 1: a day-2 phase decides how big the cut is.
    """
    from .common import TOP_CUT_SIZES

    require_organizer(tournament, by)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status in (Tournament.Status.TOP_CUT, Tournament.Status.FINISHED):
        raise StateConflict(_("The top cut has already started."))
    if tournament.match_format == Tournament.MatchFormat.PODS:
        raise StateConflict({"size": _("Pod events have no single-elimination top cut.")})
    if isinstance(size, bool) or size not in TOP_CUT_SIZES:
        raise ValidationError({"size": _("Top cut must be 0 (none) or from 2 to 64 players.")})
    if size and tournament.team_size > 1:
        from ..reads.teams import team_cut_check

        team_cut_check(tournament)
    tournament.top_cut = size
    tournament.save(update_fields=["top_cut"])
    announce(tournament.pk, "settings")
    return tournament
