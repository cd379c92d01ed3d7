"""Check-in, and undoing the no-show drops the start made (the start itself is ``start.py``).

- ``checkin_open(tournament=, by=)`` — organizers open check-in while registration runs.
- ``player_check_in(player=, by=, present=True)`` — a player checks in from their phone while check-in is
  open; organizers mark anyone present (or not) until the event starts. Refused once the event started.
- ``no_shows_restore(tournament=, by=)`` — undoes those drops while round 1 has no result; a paired round 1
  is paired again with them.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.api import StateConflict

from ..models import EntryChange, Match, Player, Round, Tournament
from ..permissions import is_organizer, require_organizer
from .common import announce
from .late_entry import latest_swiss_round
from .rounds import round_repair


@transaction.atomic
def checkin_open(*, tournament: Tournament, by: Any) -> Tournament:
    require_organizer(tournament, by)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise StateConflict(_("The event has started; check-in is closed."))
    if tournament.check_in_opened_at is None:
        tournament.check_in_opened_at = timezone.now()
        tournament.save(update_fields=["check_in_opened_at"])
        announce(tournament.pk, "check_in")
    return tournament


@transaction.atomic
def player_check_in(*, player: Player, by: Any, present: bool = True) -> Player:
    tournament = Tournament.objects.select_for_update().get(pk=player.tournament_id)
    organizer = is_organizer(tournament, by)
    if not organizer and (by is None or not by.is_authenticated or player.user_id != by.id):
        raise PermissionDenied(_("You can only check yourself in."))
    player = Player.objects.select_for_update().get(pk=player.pk)
    # A late entry (or one who moved up from the waitlist after the start) confirms they are present before
    # their first round is paired; everyone else checks in before round 1.
    late_arrival = (
        tournament.status == Tournament.Status.RUNNING
        and player.joined_round > latest_swiss_round(tournament)
    )
    if tournament.status != Tournament.Status.REGISTRATION and not late_arrival:
        raise StateConflict(_("The event has started; check-in is closed."))
    if not organizer and not late_arrival and tournament.check_in_opened_at is None:
        raise StateConflict(_("Check-in has not opened yet."))
    if player.waitlisted and present:
        raise StateConflict(
            _("%(name)s is on the waitlist: check-in opens for them when a place frees.")
            % {"name": player.name}
        )
    if (player.checked_in_at is not None) == present:
        return player
    old = player.checked_in_at.isoformat() if player.checked_in_at else None
    player.checked_in_at = timezone.now() if present else None
    player.save(update_fields=["checked_in_at"])
    if organizer and player.user_id != getattr(by, "id", None):
        EntryChange.objects.create(
            player=player, changed_by=by, action="check_in" if present else "check_out",
            old={"checked_in_at": old}, new={"checked_in_at": player.checked_in_at.isoformat() if present else None},
        )  # fmt: skip
    announce(tournament.pk, "check_in")
    return player


def round_one_has_results(tournament: Tournament) -> bool:
    return (
        Match.objects.filter(round__tournament=tournament, round__number=1, bye=False)
        .exclude(status=Match.Status.PENDING)
        .exists()
        or Match.objects.filter(
            round__tournament=tournament, round__number=1, bye=False, games__isnull=False
        ).exists()
    )


@transaction.atomic
def no_shows_restore(*, tournament: Tournament, by: Any, players: list[Player] | None = None) -> list[Player]:
    """Bring back the players dropped as no-shows (all, or ``players``) while round 1 has no result."""
    require_organizer(tournament, by)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.REGISTRATION:
        raise StateConflict(_("The event has not started; nobody was dropped as a no-show."))
    if round_one_has_results(tournament) or tournament.round_set.filter(number__gt=1).exists():
        raise StateConflict(_("Round 1 already has results: a no-show can only join as a late entry now."))
    qs = tournament.players.filter(no_show=True)
    if players is not None:
        qs = qs.filter(pk__in=[p.pk for p in players])
    restored = list(qs)
    if not restored:
        raise StateConflict(_("Nobody to restore: no player was dropped as a no-show."))
    for player in restored:
        EntryChange.objects.create(player=player, changed_by=by, action="undo_no_show",
                                   old={"dropped_at_round": 0}, new={"dropped_at_round": None})  # fmt: skip
    qs.update(no_show=False, dropped_at_round=None, checked_in_at=timezone.now())
    round_one = tournament.round_set.filter(number=1, kind=Round.Kind.SWISS).first()
    if round_one is not None:
        round_repair(round_=round_one, by=by)
    announce(tournament.pk, "players")
    return [Player.objects.get(pk=p.pk) for p in restored]
