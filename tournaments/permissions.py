"""Who may do what in an event. Services call these; views only use them to show or hide controls."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from .models import Match, Player, Tournament


def can_organize_any(user: Any) -> bool:
    return bool(user is not None and user.is_authenticated and getattr(user, "can_organize", False))


def is_organizer(tournament: Tournament, user: Any) -> bool:
    """The creator, a co-organizer or staff."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or tournament.created_by_id == user.id:
        return True
    # Cached per tournament instance: list pages and templates ask many times.
    cache = tournament.__dict__.setdefault("_co_organizer_ids", None)
    if cache is None:
        cache = set(tournament.co_organizers.values_list("id", flat=True))
        tournament.__dict__["_co_organizer_ids"] = cache
    return user.id in cache


def require_organizer(tournament: Tournament, user: Any) -> None:
    if not is_organizer(tournament, user):
        raise PermissionDenied(_("Only the organizers of this event may do that."))


def player_for_user(tournament: Tournament, user: Any) -> Player | None:
    if user is None or not user.is_authenticated:
        return None
    return tournament.players.filter(user=user).first()


def seat_player_ids(match: Match) -> list[int]:
    return [seat.player_id for seat in match.seats.all()]


def user_seat_player(match: Match, user: Any) -> Player | None:
    """The player of this match that the user is, if any."""
    if user is None or not user.is_authenticated:
        return None
    for seat in match.seats.all():
        if seat.player.user_id == user.id:
            return seat.player
    return None


def can_see_decklist(tournament: Tournament, player: Player, user: Any) -> bool:
    if is_organizer(tournament, user):
        return True
    if user is not None and user.is_authenticated and player.user_id == user.id:
        return True
    return tournament.status == Tournament.Status.FINISHED and tournament.publish_decklists
