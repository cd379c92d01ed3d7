"""The player cap and its waitlist.

An event may cap its entries (``Tournament.capacity``). Before the start, an entry past the cap is kept
in line (``Player.waitlisted``, in order of entry); when a place frees before the start (a drop, a raised
cap) the first in line moves up by itself — audited as ``EntryChange(action="promote")``, which is also how
their My event page knows to tell them. Waitlisted entries are never paired, checked in or in the
standings. After the start a full event takes no late entry (no place frees any more: drops keep theirs).

- ``entry_goes_to_waitlist(tournament)`` — decide for a new entry (locks the event row: simultaneous
  joins at the cap are counted one after another).
- ``waitlist_promote(tournament=, by=)`` — fill the free places from the line; returns the promoted.
- ``waitlist_position(player)`` — 1 for the first in line.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import EntryChange, Player, Tournament
from .common import announce


def places_taken(tournament: Tournament) -> int:
    return tournament.players.filter(waitlisted=False, dropped_at_round__isnull=True).count()


def entry_goes_to_waitlist(tournament: Tournament) -> bool:
    """True when a new entry must wait for a place; refuses one after the start when the event is full."""
    if tournament.capacity is None:  # callers hold a fresh row; no cap, nothing to count or lock
        return False
    # The row lock serialises concurrent joins on PostgreSQL (SQLite serialises every writer already), so
    # two joins for the last place cannot both take it.
    capacity = (
        Tournament.objects.select_for_update()
        .filter(pk=tournament.pk)
        .values_list("capacity", flat=True)
        .get()
    )
    if capacity is None or places_taken(tournament) < capacity:
        return False
    if tournament.status != Tournament.Status.REGISTRATION:
        raise ValidationError(
            _("%(event)s is full (%(n)s players): no late entry is possible.")
            % {"event": tournament.name, "n": capacity}
        )
    return True


def free_places(tournament: Tournament) -> int | None:
    """Places left under the cap (None: no cap)."""
    if tournament.capacity is None:
        return None
    return max(0, tournament.capacity - places_taken(tournament))


def waiting(tournament: Tournament) -> Any:
    return tournament.players.filter(waitlisted=True, dropped_at_round__isnull=True).order_by("id")


@transaction.atomic
def waitlist_promote(*, tournament: Tournament, by: Any) -> list[Player]:
    """Before the start, move the first in line into every free place (audited, announced)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.REGISTRATION:
        return []
    free = free_places(tournament)
    line = waiting(tournament)
    promoted = list(line if free is None else line[:free])
    for player in promoted:
        player.waitlisted = False
        player.save(update_fields=["waitlisted"])
        EntryChange.objects.create(
            player=player, changed_by=by if getattr(by, "is_authenticated", False) else None,
            action="promote", old={"status": "waitlisted"}, new={"status": "registered"},
        )  # fmt: skip
    if promoted:
        announce(tournament.pk, "players")
    return promoted


def waitlist_position(player: Player) -> int | None:
    if not player.waitlisted or player.dropped_at_round is not None:
        return None
    return (
        Player.objects.filter(
            tournament_id=player.tournament_id,
            waitlisted=True,
            dropped_at_round__isnull=True,
            id__lt=player.pk,
        ).count()
        + 1
    )


def was_promoted(player: Player) -> bool:
    return EntryChange.objects.filter(player=player, action="promote").exists()
