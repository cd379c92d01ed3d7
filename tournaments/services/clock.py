"""The round clock beyond starting it (``rounds.round_timer_start``): pause, resume, add time.

- ``round_timer_pause(round_=, by=) -> Round`` — the clock stops; the seconds left are kept and every page
  shows "paused" instead of a running clock (``timer_ends_at`` is None while paused, so nothing counts a
  paused round as out of time).
- ``round_timer_resume(round_=, by=) -> Round`` — the clock runs again from the seconds that were left.
- ``round_timer_add(round_=, by=, minutes=) -> Round`` — 1–60 minutes more for every table (running or
  paused clock; a clock already at zero restarts with the added time).

Organizers only, and only on the latest round: an earlier round's clock no longer means anything.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.api import StateConflict

from ..models import Round
from ..permissions import require_organizer
from .common import announce

MAX_ADDED_MINUTES = 60


def _locked_latest(round_: Round, by: Any) -> Round:
    require_organizer(round_.tournament, by)
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if round_.tournament.round_set.filter(number__gt=round_.number).exists():
        raise StateConflict(_("Only the latest round's clock can be changed."))
    return round_


def whole_minutes(value: Any, *, low: int, high: int) -> int:
    """``value`` as whole minutes within [low, high] (an int or digits), else a ValidationError naming it."""
    if isinstance(value, str) and value.strip().isdecimal():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValidationError(
            {"minutes": _("Give whole minutes from %(low)s to %(high)s.") % {"low": low, "high": high}}
        )
    return value


@transaction.atomic
def round_timer_pause(*, round_: Round, by: Any) -> Round:
    round_ = _locked_latest(round_, by)
    if round_.timer_ends_at is None:
        raise StateConflict(_("The round clock is not running."))
    left = int((round_.timer_ends_at - timezone.now()).total_seconds())
    if left <= 0:
        raise StateConflict(_("Time is already up; add time instead."))
    round_.timer_paused_left = left
    round_.timer_ends_at = None
    round_.save(update_fields=["timer_paused_left", "timer_ends_at"])
    announce(round_.tournament_id, "timer")
    return round_


@transaction.atomic
def round_timer_resume(*, round_: Round, by: Any) -> Round:
    round_ = _locked_latest(round_, by)
    if round_.timer_paused_left is None:
        raise StateConflict(_("The round clock is not paused."))
    round_.timer_ends_at = timezone.now() + timedelta(seconds=round_.timer_paused_left)
    round_.timer_paused_left = None
    round_.save(update_fields=["timer_paused_left", "timer_ends_at"])
    announce(round_.tournament_id, "timer")
    return round_


@transaction.atomic
def round_timer_add(*, round_: Round, by: Any, minutes: Any) -> Round:
    round_ = _locked_latest(round_, by)
    minutes = whole_minutes(minutes, low=1, high=MAX_ADDED_MINUTES)
    if round_.timer_paused_left is not None:
        round_.timer_paused_left += minutes * 60
    elif round_.timer_ends_at is None:
        raise StateConflict(_("Start the round clock first."))
    else:
        # A clock already at zero starts again from now: the added minutes are playing time.
        round_.timer_ends_at = max(round_.timer_ends_at, timezone.now()) + timedelta(minutes=minutes)
    round_.save(update_fields=["timer_paused_left", "timer_ends_at"])
    announce(round_.tournament_id, "timer")
    return round_
