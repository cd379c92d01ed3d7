"""The player cap and its waitlist.

One rule before and after the start: an event may cap its entries (``Tournament.capacity``); an entry past the
cap, or any new entry while others are waiting, is kept in line (``Player.waitlisted``, in order of entry).
When a place frees (a drop, a raised cap) the first in line moves up by itself — before the start into the
event, after the start as a late entry playing from the next round while late entry is open — audited as
``EntryChange(action="promote")``, which is also how their My event page knows to tell them (a late one is
asked to confirm they are present). An organizer may let in any waitlisted player, or add one over the cap:
both audited (``admit``, ``over_cap``). Waitlisted entries are never paired, checked in or in the standings.

- ``entry_goes_to_waitlist(tournament, over_cap=)`` — decide for a new entry (locks the event row:
  simultaneous joins at the cap are counted one after another).
- ``waitlist_promote(tournament=, by=)`` — fill the free places from the line; returns the promoted.
- ``waitlist_admit(player=, by=)`` — an organizer lets one waitlisted player in, over the cap if need be.
- ``waitlist_position(player)`` — 1 for the first in line; ``waitlist_may_move_up(tournament)``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import EntryChange, Player, Tournament
from ..permissions import require_organizer
from .common import announce
from .late_entry import late_entry_refusal, latest_swiss_round


def places_taken(tournament: Tournament) -> int:
    return tournament.players.filter(waitlisted=False, dropped_at_round__isnull=True).count()


def entry_goes_to_waitlist(tournament: Tournament, *, over_cap: bool = False) -> bool:
    """True when a new entry must wait for a place: the event is full, or others are waiting already (nobody
    jumps the line). ``over_cap``: an organizer's deliberate entry past the cap."""
    if tournament.capacity is None or over_cap:  # callers hold a fresh row; no cap, nothing to count or lock
        return False
    # The row lock serialises concurrent joins on PostgreSQL (SQLite serialises every writer already), so
    # two joins for the last place cannot both take it.
    capacity = (
        Tournament.objects.select_for_update()
        .filter(pk=tournament.pk)
        .values_list("capacity", flat=True)
        .get()
    )
    if capacity is None:
        return False
    return places_taken(tournament) >= capacity or waiting(tournament).exists()


def free_places(tournament: Tournament) -> int | None:
    """Places left under the cap (None: no cap)."""
    if tournament.capacity is None:
        return None
    return max(0, tournament.capacity - places_taken(tournament))


def waiting(tournament: Tournament) -> Any:
    return tournament.players.filter(waitlisted=True, dropped_at_round__isnull=True).order_by("id")


def waitlist_may_move_up(tournament: Tournament) -> bool:
    """Whether a waitlisted player can still get a place: before the start, or while late entry is open."""
    if tournament.status == Tournament.Status.REGISTRATION:
        return True
    return tournament.status == Tournament.Status.RUNNING and late_entry_refusal(tournament) is None


def _seat(player: Player, tournament: Tournament, by: Any, action: str, over_cap: bool = False) -> None:
    """Move a waitlisted player into the event: from round 1 before the start, else from the next round."""
    new: dict[str, Any] = {"status": "registered"}
    player.waitlisted = False
    fields = ["waitlisted"]
    if tournament.status != Tournament.Status.REGISTRATION:
        player.joined_round = latest_swiss_round(tournament) + 1
        fields.append("joined_round")
        new["joined_round"] = player.joined_round
    if over_cap:
        new["over_cap"] = True
    player.save(update_fields=fields)
    EntryChange.objects.create(
        player=player, changed_by=by if getattr(by, "is_authenticated", False) else None,
        action=action, old={"status": "waitlisted"}, new=new,
    )  # fmt: skip


@transaction.atomic
def waitlist_promote(*, tournament: Tournament, by: Any) -> list[Player]:
    """Move the first in line into every free place (audited, announced): before the start, and after it
    as late entries while late entry is open."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not waitlist_may_move_up(tournament):
        return []
    free = free_places(tournament)
    line = waiting(tournament)
    promoted = list(line if free is None else line[:free])
    for player in promoted:
        _seat(player, tournament, by, "promote")
    if promoted:
        announce(tournament.pk, "players")
    return promoted


@transaction.atomic
def waitlist_admit(*, player: Player, by: Any) -> Player:
    """An organizer lets one waitlisted player in, whatever their place in line — over the cap if it is
    reached (the override is audited and shown on the check-in list)."""
    tournament = Tournament.objects.select_for_update().get(pk=player.tournament_id)
    require_organizer(tournament, by)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if not player.waitlisted or player.dropped_at_round is not None:
        raise ValidationError(_("%(name)s is not on the waitlist.") % {"name": player.name})
    if tournament.status != Tournament.Status.REGISTRATION:
        refusal = late_entry_refusal(tournament)
        if refusal is not None:
            raise ValidationError(refusal)
    free = free_places(tournament)
    _seat(player, tournament, by, "admit", over_cap=free is not None and free <= 0)
    announce(tournament.pk, "players")
    return player


def admitted_over_cap(tournament: Tournament) -> set[int]:
    """Players an organizer let in past the cap (the check-in list marks them)."""
    return {
        pid
        for pid, new in EntryChange.objects.filter(
            player__tournament=tournament, action__in=("admit", "late_entry", "register")
        ).values_list("player_id", "new")
        if isinstance(new, dict) and new.get("over_cap")
    }


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
    return EntryChange.objects.filter(player=player, action__in=("promote", "admit")).exists()
