"""Which physical copies sit in which built deck (pure: no Django).

A player owns N copies of a card (counted by the key the game's copy limits use, or by printing when the
player tracks printings). Each deck marked built holds copies of what it needs, the earliest built first; a
deck that is not built may use only what no built deck holds. Nothing is stored: the allocation follows
from the collection and the built decks as they are now, so an edit to either never leaves it stale.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass

Key = Hashable


@dataclass(frozen=True)
class BuiltNeed:
    deck_id: int
    name: str
    needs: Mapping[Key, int]


@dataclass(frozen=True)
class Holding:
    deck_id: int
    name: str
    count: int


def allocate(owned: Mapping[Key, int], built: Iterable[BuiltNeed]) -> dict[Key, list[Holding]]:
    """Key → the built decks holding its copies, in the order given (earliest built first)."""
    left = dict(owned)
    held: dict[Key, list[Holding]] = {}
    for deck in built:
        for key, need in deck.needs.items():
            take = min(need, left.get(key, 0))
            if take > 0:
                left[key] -= take
                held.setdefault(key, []).append(Holding(deck.deck_id, deck.name, take))
    return held


@dataclass(frozen=True)
class LineShare:
    owned: int
    missing: int
    held_by: tuple[Holding, ...]


def deck_lines(
    *,
    deck_id: int,
    lines: Iterable[tuple[Key, int]],
    owned: Mapping[Key, int],
    held: Mapping[Key, list[Holding]],
) -> list[LineShare]:
    """What the player has for each of a deck's lines (key, copies), in order: copies no other built deck
    holds go to the first lines that need them; the rest is missing, with who holds it."""
    free = {}
    result = []
    for key, count in lines:
        if key not in free:
            others = sum(h.count for h in held.get(key, ()) if h.deck_id != deck_id)
            free[key] = max(0, owned.get(key, 0) - others)
        take = min(count, free[key])
        free[key] -= take
        holders = tuple(h for h in held.get(key, ()) if h.deck_id != deck_id)
        result.append(LineShare(owned=take, missing=count - take, held_by=holders if take < count else ()))
    return result


def missing_count(
    *,
    deck_id: int,
    lines: Iterable[tuple[Key, int]],
    owned: Mapping[Key, int],
    held: Mapping[Key, list[Holding]],
) -> int:
    """The copies a deck lacks: ``deck_lines`` summed, without building a share per line (the deck list
    asks this for every deck at once)."""
    free: dict[Key, int] = {}
    missing = 0
    for key, count in lines:
        left = free.get(key)
        if left is None:
            holders = held.get(key)
            others = sum(h.count for h in holders if h.deck_id != deck_id) if holders else 0
            left = max(0, owned.get(key, 0) - others)
        take = count if count < left else left
        free[key] = left - take
        missing += count - take
    return missing
