"""Celery tasks: thin adapters that take ids and call one service (for scripts and scheduled jobs)."""

from __future__ import annotations

from celery import shared_task

from accounts.models import User


@shared_task
def pair_next_round(tournament_id: int, user_id: int) -> int:
    """Pair the next round of a (large) event outside the request; returns the round number."""

    from .models import Tournament
    from .services import round_pair_next

    round_ = round_pair_next(
        tournament=Tournament.objects.get(pk=tournament_id), by=User.objects.get(pk=user_id)
    )
    return round_.number
