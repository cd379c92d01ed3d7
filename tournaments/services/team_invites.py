"""Teams registered by players: a captain names the team and the teammates, each teammate accepts (or declines)
on their own phone, and only then becomes an entry of the team. Nobody is registered without agreeing; a
declined seat waits until the captain names someone else. The organizer's own page (``teams.team_register``)
stays for teams registered at the desk.

- ``team_propose(tournament=, by=, name=, teammates=[users]) -> Team`` — the captain (seat A) and invites.
- ``team_invite_answer(invite=, by=, accept=) -> TeamInvite`` — the invited player only.
- ``team_invite_replace(team=, by=, seat=, user=) -> TeamInvite`` — the captain (or an organizer) names
  someone else for a seat whose invite was declined.
- ``team_of_captain(tournament, user)`` / ``open_invites(tournament, user)`` — what the event page shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.api import StateConflict

from ..models import Team, TeamInvite, TeamMember, Tournament
from ..permissions import is_organizer
from .common import announce
from .registration import player_register, registration_open


def _require_open(tournament: Tournament) -> None:
    if tournament.team_size < 2:
        raise StateConflict(_("This event is not a team event."))
    if tournament.status != Tournament.Status.REGISTRATION or not registration_open(tournament):
        raise StateConflict(_("Registration for this event is closed."))


def free_to_invite(tournament: Tournament, user: Any) -> None:
    if tournament.players.filter(user=user).exists():
        raise StateConflict(_("%(name)s is already registered for this event.") % {"name": user.username})
    if TeamInvite.objects.filter(team__tournament=tournament, user=user, answered_at__isnull=True).exists():
        raise StateConflict(
            _("%(name)s is already invited to a team of this event.") % {"name": user.username}
        )


@transaction.atomic
def team_propose(*, tournament: Tournament, by: Any, name: str, teammates: Sequence[Any]) -> Team:
    if by is None or not by.is_authenticated:
        raise PermissionDenied(_("Log in to register a team."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_open(tournament)
    name = (name or "").strip()
    errors: dict[str, str] = {}
    if not name or len(name) > 100:
        errors["name"] = _("A team needs a name of at most 100 characters.")
    elif tournament.teams.filter(name__iexact=name).exists():
        errors["name"] = _("There is already a team named “%(name)s”.") % {"name": name}
    others = [u for u in teammates if u.pk != by.pk]
    if len(others) != tournament.team_size - 1 or len({u.pk for u in others}) != len(others):
        errors["members"] = _("Name your %(n)s teammates, each a different player other than you.") % {
            "n": tournament.team_size - 1
        }
    if errors:
        raise ValidationError(errors)
    for user in (by, *others):
        free_to_invite(tournament, user)
    team = Team.objects.create(tournament=tournament, name=name, created_by=by)
    captain = player_register(tournament=tournament, by=by, user=by)
    TeamMember.objects.create(team=team, player=captain, seat=0)
    for seat, user in enumerate(others, start=1):
        TeamInvite.objects.create(team=team, user=user, seat=seat)
    announce(tournament.pk, "players")
    return team


@transaction.atomic
def team_invite_answer(*, invite: TeamInvite, by: Any, accept: bool) -> TeamInvite:
    invite = TeamInvite.objects.select_for_update().select_related("team__tournament").get(pk=invite.pk)
    if by is None or not by.is_authenticated or invite.user_id != by.pk:
        raise PermissionDenied(_("Only the invited player can answer this invitation."))
    if invite.answered_at is not None:
        raise StateConflict(_("This invitation has been answered already."))
    tournament = invite.team.tournament
    if accept:
        _require_open(tournament)
        player = player_register(tournament=tournament, by=by, user=by)
        try:
            with transaction.atomic():
                TeamMember.objects.create(team=invite.team, player=player, seat=invite.seat)
        except IntegrityError:
            raise StateConflict(_("That seat of the team is taken.")) from None
        invite.deck_problems = _submit_proposed_deck(invite, player, by)
    invite.answered_at, invite.accepted = timezone.now(), bool(accept)
    invite.save(update_fields=["answered_at", "accepted"])
    announce(tournament.pk, "players")
    return invite


def _submit_proposed_deck(invite: TeamInvite, player: Any, by: Any) -> list[str]:
    """The deck the organizer proposed for this seat, checked first by the team rule against the teammates'
    lists registered so far."""
    from ..models import Player
    from ..printables.decklists import snapshot_from_deck
    from .proposed_decks import proposed_deck_register
    from .team_decks import team_deck_conflicts

    tournament = invite.team.tournament

    def team_rule(deck: Any) -> list[str]:
        mates = Player.objects.filter(team_member__team=invite.team, deck__isnull=False).exclude(pk=player.pk)
        conflicts = team_deck_conflicts(
            game=tournament.game, format_slug=tournament.format_slug,
            decks=[(deck.name, snapshot_from_deck(deck)), *[(mate.name, mate.deck) for mate in mates]],
        )  # fmt: skip
        return [c["message"] for c in conflicts]

    return proposed_deck_register(player=player, by=by, deck=invite.deck, checks=[team_rule])


@transaction.atomic
def team_invite_replace(*, team: Team, by: Any, seat: int, user: Any) -> TeamInvite:
    team = Team.objects.select_related("tournament").get(pk=team.pk)
    tournament = team.tournament
    captain = (
        TeamMember.objects.filter(team=team, seat=0, player__user=by).exists() if by is not None else False
    )
    if not (captain or is_organizer(tournament, by)):
        raise PermissionDenied(_("Only the team's captain or an organizer may invite a teammate."))
    _require_open(tournament)
    if not 1 <= seat < tournament.team_size or TeamMember.objects.filter(team=team, seat=seat).exists():
        raise StateConflict(_("That seat of the team is taken."))
    if TeamInvite.objects.filter(team=team, seat=seat, answered_at__isnull=True).exists():
        raise StateConflict(_("That seat already waits for an answer."))
    free_to_invite(tournament, user)
    invite = TeamInvite.objects.create(team=team, user=user, seat=seat)
    announce(tournament.pk, "players")
    return invite


def team_of_captain(tournament: Tournament, user: Any) -> dict[str, Any] | None:
    """The team this user captains here, with each seat's state, or None."""
    if user is None or not user.is_authenticated:
        return None
    member = (
        TeamMember.objects.filter(team__tournament=tournament, player__user=user, seat=0)
        .select_related("team")
        .first()
    )
    if member is None:
        return None
    team = member.team
    members = {m.seat: m.player.name for m in team.members.select_related("player")}
    latest: dict[int, TeamInvite] = {}
    for invite in team.invites.select_related("user").order_by("created_at", "id"):
        latest[invite.seat] = invite
    seats = []
    for seat in range(tournament.team_size):
        invite = latest.get(seat)
        if seat in members:
            state = "member"
        elif invite is not None and invite.answered_at is None:
            state = "waiting"
        else:
            state = "declined" if invite is not None else "empty"
        seats.append({"seat": seat, "letter": "ABC"[seat], "name": members.get(seat) or
                      (invite.user.username if invite else ""), "state": state})  # fmt: skip
    return {"team": team, "seats": seats, "complete": len(members) == tournament.team_size}


def open_invites(tournament: Tournament, user: Any) -> list[TeamInvite]:
    if user is None or not user.is_authenticated:
        return []
    return list(
        TeamInvite.objects.filter(
            team__tournament=tournament, user=user, answered_at__isnull=True
        ).select_related("team__created_by")
    )
