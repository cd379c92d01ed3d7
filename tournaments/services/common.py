"""What every service module needs: the game's rules, match length, locking, and announcing changes.

Every service is keyword-only, typed and atomic; it checks permissions itself (views and the API only parse
input and call it), raises ``ValidationError`` naming what is wrong (``PermissionDenied`` for who may not,
``StaleVersion`` for a confirm of a result that changed since), and writes nothing on error.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from cards.models import Game

from .. import signals
from ..models import Match, MatchSeat, Round, Tournament

MAX_SEED = 2**62
# Any size: a cut that is not a power of two gives its top seeds a first-round bye (engine/topcut.py).
TOP_CUT_SIZES = (0, *range(2, 65))


class StaleVersion(ValidationError):
    """A write based on a version of the result that is no longer current (the API answers 409)."""

    def __init__(self, message: str, *, current: Match) -> None:
        super().__init__(message)
        self.current = current


def game_rules(game: Game | str) -> Any:
    from games.registry import default_registry

    slug = game if isinstance(game, str) else game.slug
    return default_registry().game(slug)


def pod_size_range(rules: Any) -> tuple[int, int]:
    sizes = tuple(rules.pod_sizes) or (rules.min_players, rules.max_players)
    return min(sizes), max(sizes)


def sideboarding_allowed(tournament: Tournament) -> bool:
    if tournament.match_format == Tournament.MatchFormat.PODS or not tournament.deck_registration:
        return False
    return bool(game_rules(tournament.game).sideboard or tournament.allow_sideboard)


def wins_needed(tournament: Tournament, round_: Round | None = None) -> int:
    # Top cut matches are always best of three.
    if round_ is not None and round_.kind == Round.Kind.TOP_CUT:
        return 2
    return 1 if tournament.match_format == Tournament.MatchFormat.BO1 else 2


# A top-cut match must end with a winner, so a drawn game there does not use up one of its games; this many
# drawn games at most extend it (beyond them an organizer enters the result).
TOP_CUT_EXTRA_DRAWS = 2


def game_limit(need: int, *, top_cut: bool, drawn: int = 0) -> int:
    """The games a match may have: a best of ``2·need − 1`` ends after that many, whatever their results
    (1-1-1 is a drawn match, MTR 2.3); in the top cut each drawn game so far adds one (up to two)."""
    best_of = 2 * need - 1
    return best_of + min(max(drawn, 0), TOP_CUT_EXTRA_DRAWS) if top_cut else best_of


def max_games(tournament: Tournament, round_: Round | None = None, *, drawn: int = 0) -> int:
    """Games a match can have after ``drawn`` drawn games: the one bound the phone, the API, the organizer's
    form and sideboarding share (``drawn=TOP_CUT_EXTRA_DRAWS`` gives the most a match can ever have)."""
    top_cut = round_ is not None and round_.kind == Round.Kind.TOP_CUT
    return game_limit(wins_needed(tournament, round_), top_cut=top_cut, drawn=drawn)


def format_uses_pool(tournament: Tournament) -> bool:
    """Limited formats: decks are built from a registered card pool (the rules engine checks ``not_in_pool``)."""
    fmt = game_rules(tournament.game).formats.get(tournament.format_slug)
    return fmt is not None and fmt.pool_scope is not None


def locked_match(match: Match) -> tuple[Match, list[MatchSeat]]:
    match = Match.objects.select_for_update().select_related("round__tournament__game").get(pk=match.pk)
    seats = list(match.seats.select_related("player").order_by("seat"))
    return match, seats


def announce(tournament_id: int, what: str) -> None:
    """Tell the live pages that something they show changed (after commit)."""
    signals.send_on_commit(signals.tournament_changed, tournament_id=tournament_id, what=what)
