"""Deck statistics, pure Python: hypergeometric opening-hand odds, cost/level curves, type breakdowns.
Inputs are plain (label, value, count) tuples so this needs neither Django nor cards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import comb


def prob_at_least(k: int, copies: int, hand: int, deck: int) -> float:
    """P(at least ``k`` of ``copies`` chosen cards in a ``hand`` drawn from ``deck`` cards)."""
    if k <= 0:
        return 1.0
    if deck <= 0 or copies <= 0 or hand <= 0:
        return 0.0
    copies, hand = min(copies, deck), min(hand, deck)
    total = comb(deck, hand)
    hits = sum(comb(copies, i) * comb(deck - copies, hand - i) for i in range(k, min(copies, hand) + 1))
    return hits / total


def curve(points: Iterable[tuple[int | None, int]], cap: int = 10) -> list[tuple[str, int]]:
    """Counts per cost/level from 0 to ``cap`` ("cap+" gathers the rest); cards without a value are "—"."""
    counter: Counter[int] = Counter()
    missing = 0
    for value, count in points:
        if value is None:
            missing += count
        else:
            counter[min(max(value, 0), cap)] += count
    if not counter:
        return [("—", missing)] if missing else []
    top = max(counter)
    bars = [
        (f"{value}+" if value == cap else str(value), counter.get(value, 0)) for value in range(0, top + 1)
    ]
    if missing:
        bars.append(("—", missing))
    return bars


def breakdown(points: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
    """Counts per label, largest first (ties alphabetical)."""
    counter: Counter[str] = Counter()
    for label, count in points:
        counter[label or "—"] += count
    return sorted(counter.items(), key=lambda item: (-item[1], item[0]))


def value_breakdown(points: Iterable[tuple[object, int]]) -> list[tuple[str, int]]:
    """Counts per attribute value; a list value (keywords) counts once for each of its elements and a
    card without the attribute counts as "—"."""
    labelled: list[tuple[str, int]] = []
    for value, count in points:
        values = value if isinstance(value, list | tuple) else [value]
        values = [v for v in values if v is not None and v != ""]
        if not values:
            labelled.append(("—", count))
        labelled.extend((str(v), count) for v in values)
    return breakdown(labelled)


@dataclass(frozen=True)
class CardOdds:
    label: str
    copies: int
    at_least_one: float


def opening_odds(cards: Sequence[tuple[str, int]], hand: int) -> list[CardOdds]:
    """For each card of a section: the chance to open with at least one copy."""
    size = sum(count for _label, count in cards)
    return [CardOdds(label, count, prob_at_least(1, count, hand, size)) for label, count in cards]
