"""Player ratings with Glicko-2, one rating period per event (no Django; the maths is the ``glicko2`` library).

Glicko-2 rates a *period* at once: every player's new rating comes from the opponents' ratings as they were
before the period. One event is one period here, so the order of an event's matches does not matter and a
player's RD (the uncertainty shown as ±) shrinks with every event played.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import glicko2

__all__ = ["DEFAULT", "Game", "Rating", "rate_period"]


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float
    rd: float
    volatility: float


# Glicko-2's recommended start for an unrated player.
DEFAULT = Rating(1500.0, 350.0, 0.06)


@dataclass(frozen=True, slots=True)
class Game:
    """One match outcome between two rated players: ``score`` is a's result (1 win, 0.5 draw, 0 loss)."""

    a: int
    b: int
    score: float


def rate_period(ratings: Mapping[int, Rating], games: Iterable[Game]) -> dict[int, Rating]:
    """New ratings of every player who played in the period (others are unchanged and not returned)."""
    results: dict[int, list[tuple[int, float]]] = {}
    for game in games:
        results.setdefault(game.a, []).append((game.b, game.score))
        results.setdefault(game.b, []).append((game.a, 1.0 - game.score))
    before = {pid: ratings.get(pid, DEFAULT) for pid in results}
    updated = {}
    for pid, played in results.items():
        mine = before[pid]
        player = glicko2.Player(rating=mine.rating, rd=mine.rd, vol=mine.volatility)
        player.update_player(
            [before[opp].rating for opp, _ in played],
            [before[opp].rd for opp, _ in played],
            [score for _, score in played],
        )
        updated[pid] = Rating(player.rating, player.rd, player.vol)
    return updated
