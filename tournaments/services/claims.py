"""Guest entries that become an account's: a player claiming their pre-registered name, an organizer
linking any guest entry to an account. Either way the entry (its deck, results and standing) stays the
same row and now belongs to the account, so the player has My event, reports, confirms and sideboards from
their phone. One account has one entry per event; every link and claim is audited in ``EntryChange``.

- ``user_by_username(username)`` — the account, or a ValidationError naming the unknown username.
- ``player_claim(code=, player=, by=)`` — "this is me": a signed-in player takes over a guest entry of the
  event the join code opens, when its name may be theirs (``names.claim_candidates``).
- ``player_link(player=, by=, username=)`` — organizers link a guest entry to an account.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from config.api import MissingReference, StateConflict

from ..models import EntryChange, Player, Tournament
from ..permissions import require_organizer
from .common import announce
from .names import display_name, name_matches
from .registration import tournament_by_join_code


def user_by_username(username: str) -> Any:
    username = str(username or "").strip()
    if not username:
        raise ValidationError({"username": _("Give the username of an account.")})
    user = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
    if user is None:
        raise MissingReference(
            {"username": _("No account is called %(username)s.") % {"username": username[:150]}}
        )
    return user


def _take_over(*, player: Player, user: Any, by: Any, action: str) -> Player:
    """Give the guest entry to ``user``: refused when it belongs to an account already or when ``user``
    has an entry in the event (the unique constraint settles simultaneous requests)."""
    tournament = Tournament.objects.select_for_update().get(pk=player.tournament_id)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.user_id is not None:
        owner = get_user_model().objects.filter(pk=player.user_id).values_list("username", flat=True).first()
        raise StateConflict(
            _("The entry %(name)s already belongs to the account %(username)s.")
            % {"name": player.name, "username": owner}
        )
    other = tournament.players.filter(user=user).first()
    if other is not None:
        raise StateConflict(
            _("%(username)s already has an entry in %(event)s (%(name)s): one account, one entry.")
            % {"username": user.username, "event": tournament.name, "name": other.name}
        )
    player.user = user
    try:
        with transaction.atomic():
            player.save(update_fields=["user"])
    except IntegrityError:
        raise StateConflict(
            _("%(username)s already has an entry in %(event)s: one account, one entry.")
            % {"username": user.username, "event": tournament.name}
        ) from None
    EntryChange.objects.create(
        player=player, changed_by=by, action=action,
        old={"user": None}, new={"user": user.pk, "username": user.username},
    )  # fmt: skip
    announce(tournament.pk, "players")
    return player


@transaction.atomic
def player_claim(*, code: str, player: Player, by: Any) -> Player:
    """A signed-in player says "this is me" for a guest entry under their name in the event of ``code``."""
    if by is None or not by.is_authenticated:
        raise PermissionDenied(_("Log in to register."))
    tournament = tournament_by_join_code(code)
    if player.tournament_id != tournament.pk:
        raise MissingReference({"claim": _("That entry is not in %(event)s.") % {"event": tournament.name}})
    if player.dropped_at_round is not None:
        raise StateConflict({"claim": _("The entry %(name)s has dropped; ask the organizer.")
                               % {"name": player.name}})  # fmt: skip
    if player.user_id is None and not name_matches(player.name, by):
        raise PermissionDenied(
            _("The entry %(name)s is not under your name (%(mine)s); ask the organizer to link it to you.")
            % {"name": player.name, "mine": display_name(by)}
        )
    return _take_over(player=player, user=by, by=by, action="claim")


@transaction.atomic
def player_link(*, player: Player, by: Any, username: str) -> Player:
    """Organizers: the guest entry now belongs to the account ``username``."""
    tournament = Tournament.objects.get(pk=player.tournament_id)
    require_organizer(tournament, by)
    user = user_by_username(username)
    return _take_over(player=player, user=user, by=by, action="link")
