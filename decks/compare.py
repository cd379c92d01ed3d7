"""Two decks side by side: per section, the copies only the first holds, only the second, and both.

Cards are matched by their identity (what copy limits count), so an alternate artwork is the same card in
both decks. ``compare_sections`` is pure; ``deck_compare`` reads two decks the user may see."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .models import Deck
from .selectors import Sections, deck_readable, deck_sections, sections_in_game_order


@dataclass(frozen=True, slots=True)
class Line:
    key: str  # the card's identity
    card: int  # the card's id (the first deck's printing when both hold it)
    name: str
    count: int


def _merged(lines: Iterable[Line]) -> dict[str, Line]:
    out: dict[str, Line] = {}
    for line in lines:
        seen = out.get(line.key)
        out[line.key] = (
            line if seen is None else Line(seen.key, seen.card, seen.name, seen.count + line.count)
        )
    return out


def compare_sections(a: Mapping[str, Iterable[Line]], b: Mapping[str, Iterable[Line]]) -> dict[str, Any]:
    """section → {"only_a": [...], "only_b": [...], "both": [...]}.

    A card held 3× in a and 1× in b is in ``both`` with count 1 (count_a 3, count_b 1) and in ``only_a``
    with count 2: the lists are copies, so adding them up gives each deck back."""
    out: dict[str, Any] = {}
    for slug in [*a, *(s for s in b if s not in a)]:
        left, right = _merged(a.get(slug, ())), _merged(b.get(slug, ()))
        only_a, only_b, both = [], [], []
        for key in [*left, *(k for k in right if k not in left)]:
            la, lb = left.get(key), right.get(key)
            na, nb = la.count if la else 0, lb.count if lb else 0
            first = la or lb
            assert first is not None
            shared = min(na, nb)
            if shared:
                both.append(
                    {"card": first.card, "name": first.name, "count": shared, "count_a": na, "count_b": nb}
                )
            if na > shared:
                only_a.append({"card": first.card, "name": first.name, "count": na - shared})
            if nb > shared:
                only_b.append(
                    {"card": lb.card if lb else first.card, "name": first.name, "count": nb - shared}
                )
        for lines in (only_a, only_b, both):
            lines.sort(key=lambda line: (-line["count"], line["name"].casefold()))
        out[slug] = {"only_a": only_a, "only_b": only_b, "both": both}
    return out


def _lines(sections: Sections) -> dict[str, list[Line]]:
    return {
        slug: [Line(card.identity or card.name, card.pk, str(card), count) for card, count in lines]
        for slug, lines in sections.items()
    }


def deck_compare(*, a: int, b: int, user: Any) -> tuple[Deck, Deck, dict[str, Any]]:
    """Both decks (404 for one the user may not read: a private deck of someone else stays unseen) and
    their comparison, sections in the first deck's game order. The hero counts as a section of its own."""
    first, second = deck_readable(pk=a, user=user), deck_readable(pk=b, user=user)
    sides = []
    for deck in (first, second):
        sections = deck_sections(deck)
        if deck.hero is not None:
            sections = {"hero": [(deck.hero, 1), *((c, 1) for c in deck.co_heroes.all())], **sections}
        sides.append(_lines(sections))
    result = compare_sections(sides[0], sides[1])
    ordered = sections_in_game_order(
        game_slug=first.game.slug, format_slug=first.format_slug, sections=result
    )
    if "hero" in ordered:
        ordered = {"hero": ordered.pop("hero"), **ordered}
    return first, second, ordered
