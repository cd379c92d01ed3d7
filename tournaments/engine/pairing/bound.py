"""The pair-down lower bound of a round, and the crossings a given pairing makes (pure, no Django).

The pairing engine minimises score-group boundary crossings (see ``tournaments.engine.pairing``): a
boundary with an odd number of players above it must be crossed at least once, so the sum of those
parities bounds every pairing of the round from below. Reports compare what a round did against it;
rematches avoided may force crossings on top of it, and the report then shows the difference.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["pair_down_lower_bound", "pair_downs_of"]


def _levels(points: Mapping[int, int]) -> dict[int, int]:
    return {value: level for level, value in enumerate(sorted(set(points.values()), reverse=True))}


def pair_down_lower_bound(points: Mapping[int, int], bye: int | None = None) -> int:
    """Fewest boundary crossings any pairing of ``points`` (player -> match points) can make.

    The bye's receiver is not paired, so they are left out of the counts above each boundary, but their
    score group still exists (the engine groups all players, the bye's receiver included).
    """
    levels = _levels(points)
    per_level = [0] * len(levels)
    for pid, value in points.items():
        if pid != bye:
            per_level[levels[value]] += 1
    bound = above = 0
    for count in per_level[:-1]:
        above += count
        bound += above % 2
    return bound


def pair_downs_of(points: Mapping[int, int], pairs: Iterable[tuple[int, int]]) -> int:
    """Boundary crossings a pairing makes, counted as the engine does (``PairingStats.pair_downs``)."""
    levels = _levels(points)
    return sum(abs(levels[points[a]] - levels[points[b]]) for a, b in pairs)
