"""Official player IDs (Konami CARD GAME ID, Wizards account …): the format is data in each game's rule set
(``[game.player_id]``); a player keeps one per game on their account, and every entry carries the ID it was
registered with, for the registration sheets and the standings exports the official systems read.

- ``official_id_check(game=, value=)`` — the cleaned ID, or a ValidationError naming the expected format.
- ``official_id_save(by=, game=, value=)`` — the account's ID for the game, copied to its open entries.
- ``player_official_id_set(player=, by=, value=)`` — one entry's ID (the player or an organizer).
- ``official_id_of(user, game)`` — the account's ID for the game ("" when none).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from accounts.models import OfficialId
from cards.models import Game

from ..models import EntryChange, Player, Tournament
from ..permissions import is_organizer
from .common import announce, game_rules


def official_id_check(*, game: Game, value: Any) -> str:
    rule = game_rules(game).player_id
    if rule is None:
        raise ValidationError({"official_id": _("%(game)s has no official player ID.") % {"game": game.name}})
    cleaned = " ".join(str(value or "").split())
    if cleaned and not rule.accepts(cleaned):
        raise ValidationError(
            {
                "official_id": _("“%(value)s” is not a %(name)s (for example %(example)s).")
                % {"value": cleaned[:60], "name": rule.title(get_language() or "en"), "example": rule.example}
            }
        )
    return cleaned


def official_id_of(user: Any, game: Game) -> str:
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    return (
        OfficialId.objects.filter(user=user, game_slug=game.slug).values_list("value", flat=True).first()
        or ""
    )


@transaction.atomic
def official_id_save(*, by: Any, game: Game, value: Any) -> str:
    """Keep (or clear, with an empty value) the account's ID for ``game``; entries of events not yet over
    take it too, so an ID added on the day reaches the sheets."""
    if by is None or not by.is_authenticated:
        raise PermissionDenied(_("Log in to keep your player IDs."))
    cleaned = official_id_check(game=game, value=value)
    if cleaned:
        OfficialId.objects.update_or_create(user=by, game_slug=game.slug, defaults={"value": cleaned})
    else:
        OfficialId.objects.filter(user=by, game_slug=game.slug).delete()
    entries = Player.objects.filter(user=by, tournament__game=game).exclude(
        tournament__status=Tournament.Status.FINISHED
    )
    for tournament_id in set(entries.values_list("tournament_id", flat=True)):
        announce(tournament_id, "players")
    entries.update(official_id=cleaned)
    return cleaned


@transaction.atomic
def player_official_id_set(*, player: Player, by: Any, value: Any) -> Player:
    tournament = player.tournament
    organizer = is_organizer(tournament, by)
    if not organizer and (by is None or player.user_id != by.id):
        raise PermissionDenied(_("Only the player or an organizer may change this ID."))
    cleaned = official_id_check(game=tournament.game, value=value)
    old = player.official_id
    player.official_id = cleaned
    player.save(update_fields=["official_id"])
    if player.user_id is not None and player.user_id == getattr(by, "id", None) and cleaned:
        OfficialId.objects.update_or_create(
            user=by, game_slug=tournament.game.slug, defaults={"value": cleaned}
        )
    if organizer and player.user_id != getattr(by, "id", None):
        EntryChange.objects.create(
            player=player,
            changed_by=by,
            action="official_id",
            old={"official_id": old},
            new={"official_id": cleaned},
        )
    announce(tournament.pk, "players")
    return player
