"""Registrations an organizer asks of a player: nothing of a player's is used without the player.

An organizer who names an account together with one of that player's own decks (a single entry, or a team
whose members bring their own decks) does not register anything: the player gets a request on their phone
(the events list and the event page) and accepts or declines it. Until they accept there is no entry — no
frozen list, nothing shown, nothing paired — and the organizer never reads the deck. The other way is the
organizer's own copy of the list, entered by hand: registered at once and marked "entered by the organizer"
(``Player.deck_entered_by_organizer``).

- ``entry_request_create(tournament=, by=, user=, deck=None) -> EntryRequest`` — organizers.
- ``entry_request_answer(entry_request=, by=, accept=) -> AnswerOutcome`` — the named player only.
- ``team_invite_by_organizer(tournament=, by=, name=, members=[users], decks=[their decks]) -> Team``.
- ``open_entry_requests(user, tournament=None)`` / ``open_team_invites(user)`` — what the player's pages show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.api import StateConflict

from ..models import EntryRequest, Player, Team, TeamInvite, Tournament
from ..permissions import is_organizer
from .common import announce
from .proposed_decks import proposed_deck_register
from .registration import player_register, registration_open
from .teams import team_form_errors


@dataclass
class AnswerOutcome:
    entry_request: EntryRequest
    player: Player | None = None
    # Why the proposed deck was not registered (it is no longer theirs, or not legal): the entry stands
    # without a list, and the player registers one from My event.
    deck_problems: list[str] = field(default_factory=list)


def _require_organizer_and_open(tournament: Tournament, by: Any) -> None:
    if not is_organizer(tournament, by):
        raise PermissionDenied(_("Only the organizers of this event may ask a player to register."))
    if tournament.status != Tournament.Status.REGISTRATION or not registration_open(tournament):
        raise StateConflict(_("Registration for this event is closed."))


def _own_deck_or_refuse(deck: Any, user: Any) -> None:
    if deck is not None and deck.owner_id != user.pk:
        raise ValidationError(
            {"deck": _("Deck %(id)s is not a deck of %(name)s's.") % {"id": deck.pk, "name": user.username}}
        )


@transaction.atomic
def entry_request_create(*, tournament: Tournament, by: Any, user: Any, deck: Any = None) -> EntryRequest:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organizer_and_open(tournament, by)
    if tournament.team_size > 1:
        raise StateConflict(_("This is a team event: register a team."))
    _own_deck_or_refuse(deck, user)
    if tournament.players.filter(user=user).exists():
        raise StateConflict(_("%(name)s is already registered.") % {"name": user.username})
    try:
        with transaction.atomic():
            made = EntryRequest.objects.create(tournament=tournament, user=user, requested_by=by, deck=deck)
    except IntegrityError:
        raise StateConflict(
            _("%(name)s already has a request to answer for this event.") % {"name": user.username}
        ) from None
    announce(tournament.pk, "players")
    return made


@transaction.atomic
def entry_request_answer(*, entry_request: EntryRequest, by: Any, accept: bool) -> AnswerOutcome:
    entry_request = (
        # of=self: PostgreSQL locks no row of an outer join (the deck is nullable), and the request is the row.
        EntryRequest.objects.select_for_update(of=("self",))
        .select_related("tournament", "deck")
        .get(pk=entry_request.pk)
    )
    if by is None or not by.is_authenticated or entry_request.user_id != by.pk:
        raise PermissionDenied(_("Only the named player can answer this request."))
    if entry_request.answered_at is not None:
        raise StateConflict(_("This request has been answered already."))
    outcome = AnswerOutcome(entry_request=entry_request)
    if accept:
        outcome.player = player_register(tournament=entry_request.tournament, by=by, user=by)
        outcome.deck_problems = proposed_deck_register(player=outcome.player, by=by, deck=entry_request.deck)
    entry_request.answered_at, entry_request.accepted = timezone.now(), bool(accept)
    entry_request.save(update_fields=["answered_at", "accepted"])
    announce(entry_request.tournament_id, "players")
    return outcome


@transaction.atomic
def team_invite_by_organizer(
    *, tournament: Tournament, by: Any, name: str, members: Sequence[Any], decks: Sequence[Any] = ()
) -> Team:
    """A team whose members bring their own decks: each member gets an invitation carrying their deck and
    joins the team (with it) by accepting on their own phone. The decks are not read here: the team rule
    is checked when each list is registered, against the teammates' lists registered by then."""
    from .team_invites import free_to_invite

    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organizer_and_open(tournament, by)
    size = tournament.team_size
    if size < 2:
        raise StateConflict(_("This event is not a team event."))
    name = (name or "").strip()
    errors = team_form_errors(tournament, name=name, members=members)
    if (
        "members" not in errors
        and decks
        and (len(decks) != size or any(d.owner_id != m.pk for d, m in zip(decks, members, strict=True)))
    ):
        errors["decks"] = _("Give either your own copy for every member or each member's own deck, in order.")
    if errors:
        raise ValidationError(errors)
    for user in members:
        free_to_invite(tournament, user)
    team = Team.objects.create(tournament=tournament, name=name, created_by=by)
    for seat, user in enumerate(members):
        TeamInvite.objects.create(team=team, user=user, seat=seat, deck=decks[seat] if decks else None)
    announce(tournament.pk, "players")
    return team


def open_entry_requests(user: Any, tournament: Tournament | None = None) -> list[EntryRequest]:
    if user is None or not user.is_authenticated:
        return []
    rows = EntryRequest.objects.filter(user=user, answered_at__isnull=True).select_related(
        "tournament", "requested_by", "deck"
    )
    if tournament is not None:
        rows = rows.filter(tournament=tournament)
    return list(rows.order_by("created_at", "id"))


def open_team_invites(user: Any) -> list[TeamInvite]:
    """Team seats waiting for this player's answer, in events still taking registrations."""
    if user is None or not user.is_authenticated:
        return []
    return list(
        TeamInvite.objects.filter(
            user=user, answered_at__isnull=True, team__tournament__status=Tournament.Status.REGISTRATION
        )
        .select_related("team__tournament", "team__created_by")
        .order_by("created_at", "id")
    )
