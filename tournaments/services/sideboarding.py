"""Sideboarding between games: private to the player and the organizers, validated by the rules engine.

- ``sideboard_options(match=, player=, by=) -> dict`` — what a click-to-swap screen needs: the next game, the
  player's current ``deck`` sections (cards that can go out) and ``side`` (cards that can come in: the side
  section, or in limited formats the registered pool minus the deck), each line
  ``{"section", "external_id", "name", "count"}``; ``swaps`` made so far in this match. Only the player and the
  organizers may read it (``PermissionDenied`` for anyone else, the opponent included).
- ``match_sideboard(match=, player=, by=, game_number=, swaps=[{"section", "out"?, "in"?, "count"}])`` — swap
  before game 2+; refused once the match is decided or confirmed, for a game already played, or for a card
  the player does not have. Limited events validate the result against the player's pool too.
- ``current_deck(match, player)`` — the registered list plus this match's swaps (restored at each new match).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from config.api import StateConflict
from games.registry import with_house_sideboard

from ..models import Match, Player, SideboardChange, Tournament
from ..permissions import is_organizer
from ..printables import decklists
from .common import (
    announce,
    format_uses_pool,
    game_rules,
    locked_match,
    max_games,
    sideboarding_allowed,
    wins_needed,
)


def current_deck(match: Match, player: Player) -> dict[str, Any] | None:
    """The player's deck in this match: the registered list plus this match's swaps (never earlier ones)."""
    change = (
        SideboardChange.objects.filter(match=match, player=player).order_by("-game_number", "-id").first()
    )
    return change.deck if change is not None else player.deck


def _check_viewer(tournament: Tournament, player: Player, by: Any) -> None:
    """Swaps are hidden information: the player and the organizers only."""
    if not is_organizer(tournament, by) and (
        by is None or not by.is_authenticated or player.user_id != by.id
    ):
        raise PermissionDenied(_("You can only sideboard your own deck."))


def side_section(tournament: Tournament) -> str | None:
    """The section side cards come from: the format's, or the one a house-rule sideboard adds."""

    fmt = game_rules(tournament.game).formats.get(tournament.format_slug)
    if fmt is not None and tournament.allow_sideboard:
        fmt = with_house_sideboard(fmt)
    policy = getattr(fmt, "sideboard", None) if fmt is not None else None
    return getattr(policy, "section", None)


def _lines(snapshot: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    return [
        {
            "section": slug,
            "external_id": str(line["external_id"]),
            "name": line["name"],
            "count": int(line["count"]),
        }
        for slug, lines in ((snapshot or {}).get("sections") or {}).items()
        for line in lines
        if int(line.get("count", 0)) > 0
    ]


def sideboard_options(*, match: Match, player: Player, by: Any) -> dict[str, Any]:
    tournament = match.round.tournament
    _check_viewer(tournament, player, by)
    if player.pk not in {s.player_id for s in match.seats.all()}:
        raise ValidationError(_("%(name)s is not playing this match.") % {"name": player.name})
    deck = current_deck(match, player)
    side = side_section(tournament)
    lines = _lines(deck)
    in_deck = [line for line in lines if line["section"] != side]
    available = [line for line in lines if line["section"] == side]
    if format_uses_pool(tournament) and player.pool:
        used: dict[str, int] = {}
        for line in in_deck:
            used[line["external_id"]] = used.get(line["external_id"], 0) + line["count"]
        available = []
        for line in _lines(player.pool):
            left = line["count"] - used.get(line["external_id"], 0)
            if left > 0:
                available.append({**line, "section": "pool", "count": left})
    games_played = match.games.count()
    return {
        "match": match.pk,
        "player": player.pk,
        "allowed": _refusal(tournament, match, games_played + 1) is None and player.deck is not None,
        "refusal": _refusal(tournament, match, games_played + 1) or "",
        "next_game": games_played + 1,
        "side_section": side or "",
        "deck": in_deck,
        "side": available,
        "swaps": [
            {"game_number": c.game_number, "swaps": c.swaps}
            for c in SideboardChange.objects.filter(match=match, player=player).order_by("game_number", "id")
        ],
    }


def _refusal(tournament: Tournament, match: Match, game_number: int) -> str | None:
    """Why no swap is possible before ``game_number`` now (None when it is)."""
    if not sideboarding_allowed(tournament):
        return _("Sideboarding is not allowed in this event.")
    if match.bye:
        return _("A bye has no games.")
    if match.status in (Match.Status.CONFIRMED, Match.Status.FINAL):
        return _("The match is over: its result is confirmed.")
    need = wins_needed(tournament, match.round)
    if max((s.wins for s in match.seats.all()), default=0) >= need or match.ended_by:
        return _("The match is decided: there is no next game.")
    if game_number < 2:
        return _("No sideboarding before game 1.")
    if game_number > max_games(tournament, match.round, drawn=match.draws):
        return _("This match has no game %(n)s.") % {"n": game_number}
    return None


@transaction.atomic
def match_sideboard(
    *, match: Match, player: Player, by: Any, game_number: int, swaps: Sequence[Mapping[str, Any]]
) -> SideboardChange:
    """Swap cards before ``game_number`` (2+); the rules engine checks the swap and the resulting deck."""
    match, seats = locked_match(match)
    tournament = match.round.tournament
    if player.pk not in {s.player_id for s in seats}:
        raise ValidationError(_("%(name)s is not playing this match.") % {"name": player.name})
    _check_viewer(tournament, player, by)
    if not isinstance(game_number, int) or isinstance(game_number, bool):
        raise ValidationError({"game_number": _("The game number must be a whole number.")})
    refusal = _refusal(tournament, match, game_number)
    if refusal is not None:
        # The match or event as it is now has no such swap to make (README "Errors": 409).
        raise StateConflict({"game_number": refusal} if "game" in refusal.lower() else refusal)
    played = match.games.count()
    if game_number <= played:
        raise StateConflict({"game_number": _("Game %(n)s has been played already.") % {"n": game_number}})
    if player.deck is None:
        raise StateConflict(_("%(name)s has no registered deck.") % {"name": player.name})
    before = current_deck(match, player)
    # Limited: the additional set is the rest of the player's pool (g001 1.5.2), so the engine judges the swap
    # against deck + additional set and the swapped list against the pool itself.
    pool = player.pool if format_uses_pool(tournament) else None
    if pool is None:  # no pool registered: deck + additional set as registered is the pool (g001 1.5.2)
        pool = decklists.additional_set_pool(tournament, player.deck)
    deck_after, report = decklists.apply_swaps(tournament=tournament, snapshot=before, swaps=swaps, pool=pool)
    if not report.get("legal", False):
        problems = [v.get("message", str(v)) for v in report.get("violations", [])][:10]
        raise ValidationError({"swaps": [_("This sideboard swap is not allowed."), *problems]})
    change = SideboardChange.objects.create(
        match=match,
        game_number=game_number,
        player=player,
        swaps=[dict(s) for s in swaps],
        deck=deck_after,
        report=report,
        created_by=by,
    )
    announce(tournament.pk, "sideboard")
    return change
