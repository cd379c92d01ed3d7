"""Starting an event: the no-shows dropped, the field checked, the number of Swiss rounds fixed.

- ``tournament_start(tournament=, by=)`` — closes check-in and registration, drops everyone who did not
  check in (``Player.no_show``; only when check-in was opened), fixes the round count from attendance and sets
  the event running. ``rounds.round_pair_next`` does the same for round 1 when the organizer has not.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.api import StateConflict

from ..models import Tournament
from ..permissions import require_organizer
from .common import announce


def rounds_from_attendance(players: int, top_cut: int) -> int:
    """Swiss rounds for ``players``: the MTR table from 9 players; below it enough rounds for one undefeated
    player (⌈log2 n⌉: 2 → 1, 3–4 → 2, 5–8 → 3), which is what the event form promises for a blank field."""
    from ..engine.pairing import recommended_rounds

    return recommended_rounds(players, top_cut) or max(1, (players - 1).bit_length())


def start_event(tournament: Tournament, by: Any) -> None:
    """Drop the no-shows and check that the event can start (``tournament`` must be locked)."""
    # Waitlisted entries never had a place: neither no-shows nor players; they stay in line, unpaired.
    entries = tournament.players.filter(waitlisted=False)
    if tournament.check_in_opened_at is not None:
        no_shows = entries.filter(checked_in_at__isnull=True, dropped_at_round__isnull=True)
        no_shows.update(dropped_at_round=0, no_show=True)
    players = entries.filter(dropped_at_round__isnull=True)
    count = players.count()
    if count < 2:
        raise StateConflict(_("At least two players are needed to start."))
    if tournament.team_size > 1:
        _check_teams(tournament, players)
    if tournament.deck_registration:
        missing = list(players.filter(deck__isnull=True).values_list("name", flat=True)[:10])
        if missing:
            raise StateConflict(
                _("Deck registration is on and these players have no registered deck: %(names)s.")
                % {"names": ", ".join(missing)}
            )
    if tournament.rounds is None:
        # A team event is paired team against team: its length follows the number of teams.
        tournament.rounds = rounds_from_attendance(max(2, count // tournament.team_size), tournament.top_cut)
    tournament.status = Tournament.Status.RUNNING
    tournament.registration_frozen_at = tournament.registration_frozen_at or timezone.now()
    tournament.save(update_fields=["rounds", "status", "registration_frozen_at"])
    announce(tournament.pk, "start")


def _check_teams(tournament: Tournament, players: Any) -> None:
    """A team event starts only with every entry on a team, every team whole, and two teams at least —
    checked before anything changes, so a refused start leaves the event as it was."""
    loners = list(players.filter(team_member__isnull=True).values_list("name", flat=True)[:10])
    if loners:
        raise StateConflict(
            _("These entries are on no team, so they could never be paired: %(names)s. Put them in a team or "
              "drop them, then start.") % {"names": ", ".join(loners)}
        )  # fmt: skip
    sizes = Counter(players.values_list("team_member__team__name", flat=True))
    short = sorted(name for name, size in sizes.items() if size < tournament.team_size)
    if short:
        raise StateConflict(
            _("These teams are missing a member: %(names)s.") % {"names": ", ".join(short[:10])}
        )
    if len(sizes) < 2:
        raise StateConflict(_("At least two teams are needed to start."))


@transaction.atomic
def tournament_start(*, tournament: Tournament, by: Any) -> Tournament:
    require_organizer(tournament, by)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.REGISTRATION:
        raise StateConflict(_("The event has already started."))
    start_event(tournament, by)
    return tournament
