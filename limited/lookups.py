"""A limited event and a player's entry in it, read with SQL written once per process (config/prepared.py).

Every request of a drafting phone reads its event and its player, and every organizer's API call its event:
through the ORM each lookup cost more in query building than in the database."""

from __future__ import annotations

from django.http import Http404

from config.prepared import Prepared
from tournaments.models import Player

from .models import LimitedEvent

EVENT = Prepared(
    lambda tournament: (
        LimitedEvent.objects.select_related("tournament__game")
        .filter(tournament_id=tournament)
        .order_by()[:1]
    ),
    int,
)
PLAYER = Prepared(
    lambda tournament, user: Player.objects.filter(tournament_id=tournament, user_id=user).order_by()[:1],
    int,
    int,
)


def event_or_404(pk: int) -> LimitedEvent:
    """The limited event of tournament ``pk`` (with its tournament and game), or 404 (the pages' and the API's)."""
    event = EVENT.first(pk)
    if event is None:
        raise Http404
    return event
