"""Drops and their undo.

- ``player_drop(player=, by=)`` — the player (or an organizer) leaves: never paired again, still in the
  standings. ``dropped_at_round`` is the last Swiss round paired when they dropped (0 before round 1). A
  place freed before the start goes to the first on the waitlist (``waitlist.waitlist_promote``).
- ``player_drop_undo(player=, by=)`` — organizers take a drop back until the player would have been paired
  again, i.e. while no Swiss round after ``dropped_at_round`` exists. A no-show (dropped when the event
  started) follows ``no_shows_restore``'s rule instead: until round 1 has a result.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext as _

from config.api import StateConflict

from ..models import EntryChange, Player, Round, Tournament
from ..permissions import is_organizer, require_organizer
from .common import announce
from .waitlist import free_places, waitlist_promote


@transaction.atomic
def player_drop(*, player: Player, by: Any) -> Player:
    """The player is never paired again but stays in the standings."""
    tournament = Tournament.objects.select_for_update().get(pk=player.tournament_id)
    if not is_organizer(tournament, by) and (by is None or player.user_id != by.id):
        raise PermissionDenied(_("You can only drop yourself."))
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.dropped_at_round is not None:
        raise StateConflict(_("%(name)s has already dropped.") % {"name": player.name})
    if tournament.status == Tournament.Status.FINISHED:
        raise StateConflict(_("The event is over."))
    latest = tournament.round_set.filter(kind=Round.Kind.SWISS).order_by("-number").first()
    player.dropped_at_round = latest.number if latest else 0
    player.save(update_fields=["dropped_at_round"])
    if not player.waitlisted:
        waitlist_promote(tournament=tournament, by=by)
    announce(tournament.pk, "drop")
    return player


def drop_undoable(tournament: Tournament, player: Player) -> bool:
    """True while taking the drop back cannot change a round already paired."""
    if player.dropped_at_round is None or tournament.status not in (
        Tournament.Status.REGISTRATION, Tournament.Status.RUNNING,
    ):  # fmt: skip
        return False
    if player.no_show:
        from .checkin import round_one_has_results

        return (
            not round_one_has_results(tournament) and not tournament.round_set.filter(number__gt=1).exists()
        )
    return not tournament.round_set.filter(number__gt=player.dropped_at_round).exists()


@transaction.atomic
def player_drop_undo(*, player: Player, by: Any) -> Player:
    tournament = Tournament.objects.select_for_update().get(pk=player.tournament_id)
    require_organizer(tournament, by)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.dropped_at_round is None:
        raise StateConflict(_("%(name)s has not dropped.") % {"name": player.name})
    if player.no_show:
        from .checkin import no_shows_restore

        return no_shows_restore(tournament=tournament, by=by, players=[player])[0]
    if not drop_undoable(tournament, player):
        raise StateConflict(
            _(
                "%(name)s cannot come back: a later round has been paired without them. Add them as a late entry."
            )
            % {"name": player.name}
        )
    if (
        not player.waitlisted
        and tournament.status == Tournament.Status.REGISTRATION
        and free_places(tournament) == 0
    ):
        raise StateConflict(
            _("%(name)s cannot come back: the event is full and their place went to the waitlist.")
            % {"name": player.name}
        )
    EntryChange.objects.create(player=player, changed_by=by, action="undo_drop",
                               old={"dropped_at_round": player.dropped_at_round}, new={"dropped_at_round": None})  # fmt: skip
    player.dropped_at_round = None
    player.save(update_fields=["dropped_at_round"])
    announce(tournament.pk, "drop")
    return player
