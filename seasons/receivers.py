"""Reactions to tournament events: when an event finishes, its finishes are frozen and its matches rated."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from tournaments import signals
from tournaments.models import Tournament


@receiver(signals.tournament_changed, dispatch_uid="seasons.event_finished")
def on_event_finished(sender: Any, *, tournament_id: int, what: str, **kwargs: Any) -> None:
    if what != "finish":
        return

    from .services import event_finished

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is not None:
        event_finished(tournament=tournament)
