"""Two decks side by side: per section, the copies only the first holds, only the second, and both.

Cards are matched by their identity (what copy limits count), so an alternate artwork is the same card in
both decks. ``compare_sections`` is pure; ``lists_compare`` reads two lists the user may see: decks, and
lists other apps register (a tournament's registered list, where the event shows it)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.http import Http404
from django.urls import reverse

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


@dataclass(frozen=True, slots=True)
class ComparedList:
    """One side of a comparison: a deck, or a list another app holds (a tournament's registered list)."""

    ref: str  # "12" for deck 12, "player:34" for a source's list
    name: str
    owner: str
    game_slug: str
    format_slug: str
    url: str
    sections: dict[str, list[Line]] = field(default_factory=dict)


# Lists other apps let a user read, by the prefix of their reference: the tournaments app registers
# "player" (a registered list the event shows that user) from its AppConfig.ready(), so this layer never
# imports a higher one. A reader answers None for a list that does not exist or the user may not read.
ListReader = Callable[[int, Any], ComparedList | None]
LIST_SOURCES: dict[str, ListReader] = {}


def register_list_source(prefix: str, reader: ListReader) -> None:
    LIST_SOURCES[prefix] = reader


def parse_ref(raw: str) -> tuple[str, int] | None:
    """ "12" → ("deck", 12); "player:34" → ("player", 34); anything else → None."""
    prefix, sep, number = raw.strip().rpartition(":")
    if not sep:
        prefix = "deck"
    if (
        not number.isdecimal()
        or not 0 < int(number) < 2**63
        or (prefix != "deck" and prefix not in LIST_SOURCES)
    ):
        return None
    return prefix, int(number)


def _deck_side(deck: Deck) -> ComparedList:
    sections = deck_sections(deck)
    if deck.hero is not None:
        sections = {"hero": [(deck.hero, 1), *((c, 1) for c in deck.co_heroes.all())], **sections}
    return ComparedList(
        ref=str(deck.pk),
        name=deck.name,
        owner=deck.owner.username,
        game_slug=deck.game.slug,
        format_slug=deck.format_slug,
        url=reverse("decks:detail", args=[deck.pk]),
        sections=_lines(sections),
    )


def list_for_compare(ref: tuple[str, int], user: Any) -> ComparedList:
    """The list behind a reference if the user may read it; Http404 otherwise (a private deck of someone
    else and a tournament list not shown to them look the same as none)."""
    kind, number = ref
    if kind == "deck":
        return _deck_side(deck_readable(pk=number, user=user))
    found = LIST_SOURCES[kind](number, user)
    if found is None:
        raise Http404("no such list")
    return found


def lists_compare(
    *, a: tuple[str, int], b: tuple[str, int], user: Any
) -> tuple[ComparedList, ComparedList, dict[str, Any]]:
    """Both lists and their comparison, sections in the first list's game order, the hero first."""
    first, second = list_for_compare(a, user), list_for_compare(b, user)
    result = compare_sections(first.sections, second.sections)
    ordered = sections_in_game_order(
        game_slug=first.game_slug, format_slug=first.format_slug, sections=result
    )
    if "hero" in ordered:
        ordered = {"hero": ordered.pop("hero"), **ordered}
    return first, second, ordered
