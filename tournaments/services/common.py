"""What every service module needs: the game's rules, match length, locking, and announcing changes.

Every service is keyword-only, typed and atomic; it checks permissions itself (views and the API only parse
input and call it), raises ``ValidationError`` naming what is wrong (``PermissionDenied`` for who may not,
``StaleVersion`` for a confirm of a result that changed since), and writes nothing on error.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from cards.models import Game
from games.registry import default_registry

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


# A drawn game does not count toward the wins a match needs: the players go on until one of them has them or
# time is called (MTR 2.1; g001 4.1 "the first to win two games"; Konami's policy plays a fourth duel after
# 1-1-1). This many drawn games at most extend a match (no round's time holds more); past them the players end
# it with "time is up", which MTR 2.1 decides by the games won.
EXTRA_DRAWS = 3


def game_limit(need: int, *, drawn: int = 0) -> int:
    """The games a match may have: a best of ``2·need − 1`` plus one game for each drawn game so far (up to
    ``EXTRA_DRAWS``), in Swiss and in the cut alike."""
    return 2 * need - 1 + min(max(drawn, 0), EXTRA_DRAWS)


def max_games(tournament: Tournament, round_: Round | None = None, *, drawn: int = 0) -> int:
    """Games a match can have after ``drawn`` drawn games: the one bound the phone, the API, the organizer's
    form and sideboarding share (``drawn=EXTRA_DRAWS`` gives the most a match can ever have)."""
    return game_limit(wins_needed(tournament, round_), drawn=drawn)


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
