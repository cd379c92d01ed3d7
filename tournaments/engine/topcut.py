"""Single-elimination top cut seeded from the Swiss standings (pure Python, no Django).

The bracket has the size of the next power of two. Standard order keeps the top seeds apart until the last
rounds: for 8 it is 1-8, 4-5, 2-7, 3-6, built recursively by replacing every seed ``s`` of the bracket of
half the size by the pair ``s, size + 1 - s``. Seeds above the number of entrants do not exist, so their
opponents (always the top seeds) get a bye in the first round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .standings import StandingRow

__all__ = [
    "BracketMatch",
    "Entrant",
    "advance",
    "bracket_order",
    "entrants_from_standings",
    "first_round",
    "higher_seed",
]


@dataclass(frozen=True, slots=True)
class Entrant:
    seed: int
    """1 is the best seed."""
    player_id: int


@dataclass(frozen=True, slots=True)
class BracketMatch:
    position: int
    """0-based slot in the round; matches ``2k`` and ``2k + 1`` feed match ``k`` of the next round."""
    a: Entrant
    b: Entrant | None
    """None for a bye: ``a`` advances without playing."""

    @property
    def is_bye(self) -> bool:
        return self.b is None

    @property
    def chooser(self) -> Entrant:
        """Who chooses to play or draw in game 1 (the higher seed)."""
        return self.a if self.b is None else higher_seed(self.a, self.b)


def higher_seed(a: Entrant, b: Entrant) -> Entrant:
    """The better-seeded entrant (lower seed number); it chooses play/draw in game 1."""
    return a if a.seed < b.seed else b


def bracket_order(size: int) -> list[int]:
    """Seeds in bracket order for a power-of-two ``size``: 8 -> [1, 8, 4, 5, 2, 7, 3, 6]."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"bracket size must be a power of two, got {size}")
    order = [1]
    while len(order) < size:
        doubled = len(order) * 2
        order = [seed for top in order for seed in (top, doubled + 1 - top)]
    return order


def entrants_from_standings(rows: Sequence[StandingRow], cut_size: int) -> list[Entrant]:
    """The best ``cut_size`` players who have not dropped, seeded by their standings rank."""
    if cut_size < 2:
        raise ValueError("a top cut needs at least 2 players")
    qualified = [row for row in sorted(rows, key=lambda row: row.rank) if not row.dropped][:cut_size]
    return [Entrant(seed, row.player_id) for seed, row in enumerate(qualified, start=1)]


def first_round(entrants: Sequence[Entrant]) -> list[BracketMatch]:
    """First round of the bracket; entrants must carry seeds 1..n (any order)."""
    seeds = sorted(entrant.seed for entrant in entrants)
    if len(entrants) < 2 or seeds != list(range(1, len(entrants) + 1)):
        raise ValueError("entrants must be at least 2 players with seeds 1..n")
    by_seed = {entrant.seed: entrant for entrant in entrants}
    size = 1 << (len(entrants) - 1).bit_length()
    order = bracket_order(size)
    matches = []
    for position in range(size // 2):
        top, bottom = order[2 * position], order[2 * position + 1]
        a, b = by_seed.get(top), by_seed.get(bottom)
        if a is None or (b is not None and b.seed < a.seed):
            a, b = b, a
        if a is None:  # pragma: no cover - two missing seeds would need more than half the bracket empty
            raise AssertionError("a first-round match cannot have two byes")
        matches.append(BracketMatch(position, a, b))
    return matches


def advance(round_matches: Sequence[BracketMatch], winners: Mapping[int, int]) -> list[BracketMatch]:
    """Next round from this round's matches and ``winners`` (match position -> winning player id).

    Byes need no entry. The bracket structure is kept: winners of matches 2k and 2k+1 meet in match k.
    """
    if len(round_matches) < 2:
        raise ValueError("the final has no next round")
    ordered = sorted(round_matches, key=lambda match: match.position)
    if [match.position for match in ordered] != list(range(len(ordered))) or len(ordered) % 2:
        raise ValueError("a round must have an even number of matches at positions 0..n-1")
    advancing = [_winner(match, winners) for match in ordered]
    next_round = []
    for position in range(len(advancing) // 2):
        first, second = advancing[2 * position], advancing[2 * position + 1]
        high = higher_seed(first, second)
        low = second if high is first else first
        next_round.append(BracketMatch(position, high, low))
    return next_round


def _winner(match: BracketMatch, winners: Mapping[int, int]) -> Entrant:
    if match.b is None:
        return match.a
    if match.position not in winners:
        raise ValueError(f"no winner reported for match {match.position}")
    winner_id = winners[match.position]
    for entrant in (match.a, match.b):
        if entrant.player_id == winner_id:
            return entrant
    raise ValueError(f"player {winner_id} did not play match {match.position}")
