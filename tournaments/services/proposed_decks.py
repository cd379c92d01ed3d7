"""A deck an organizer proposed for a player (the player's own), registered once the player accepts: one
definition for single entries (entry requests) and team seats (team invitations)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Player
from .registration import player_submit_deck


def proposed_deck_register(*, player: Player, by: Any, deck: Any, checks: Sequence[Any] = ()) -> list[str]:
    """A deck an organizer proposed for this player (the player's own), registered as the player themself
    would once they accept; the reasons it was not, if any. ``checks`` are further callables returning
    reasons (a team rule against the teammates' lists). On a refusal the entry stands without a list and
    the player registers one from My event."""
    if deck is None:
        return []
    deck.refresh_from_db(fields=["owner"])
    if deck.owner_id != by.pk:
        return [_("The proposed deck is no longer yours: register a list from My event.")]
    for check in checks:
        reasons = check(deck)
        if reasons:
            return list(reasons)
    try:
        with transaction.atomic():
            player_submit_deck(player=player, by=by, deck=deck)
    except (ValidationError, PermissionDenied) as refused:
        return list(getattr(refused, "messages", [str(refused)]))
    return []
