"""A limited event and a player's entry in it, read with SQL written once per process (config/prepared.py).

Every request of a drafting phone reads its event and its player, and every organizer's API call its event:
through the ORM each lookup cost more in query building than in the database."""

from __future__ import annotations

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
