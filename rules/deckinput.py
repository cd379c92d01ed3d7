"""Turn deck text (.ydk, ydke://, plain text, Deckhall JSON) into Card rows and engine inputs.

Parsing and resolving belong to the decks app (decks.formats, decks.resolve); this module maps what they
could not resolve to report entries, so an unknown card becomes ``unknown_card``, never a crash.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cards.models import Card, Game

from .engine import UnknownCard, Violation


class DeckInputError(ValueError):
    """The input cannot be read as a deck at all (the CLI exits 2, the API answers 400)."""


@dataclass
class DeckInput:
    sections: dict[str, list[tuple[Card, int]]] = field(default_factory=dict)
    hero: Card | None = None
    unknown: list[UnknownCard] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)


def deck_from_text(*, game: Game, format_slug: str, data: str | bytes, fmt: str | None = None,
                   filename: str | None = None) -> DeckInput:  # fmt: skip
    from decks.formats import parse_deck
    from decks.resolve import deck_resolve

    head = data[:16].lstrip() if isinstance(data, str) else data[:16].lstrip().decode("latin-1")
    if fmt is None and head.lower().startswith("ydke://"):
        fmt = "ydke"  # a URL pasted into a .txt file is still a URL
    parsed = parse_deck(data, fmt, filename)
    if parsed.errors and not parsed.sections and parsed.hero is None:
        raise DeckInputError("; ".join(str(e) for e in parsed.errors))
    try:
        resolved = deck_resolve(game=game, parsed=parsed, format_slug=format_slug)
    except KeyError as exc:
        raise DeckInputError(str(exc.args[0])) from None
    result = DeckInput(sections=resolved.sections, hero=resolved.hero)
    for line in resolved.unknown:
        if line.reason in ("unknown", "ambiguous"):
            result.unknown.append(UnknownCard(section=line.section, ref=line.ref, count=line.count))
            continue
        code = {"not_buildable": "section_card_type", "section": "section_size", "hero": "hero_restriction"}
        result.violations.append(
            Violation(
                code.get(line.reason, "unknown_card"),
                f"line {line.line}: {line.message}" if line.line else line.message,
                f"строка {line.line}: {line.message}" if line.line else line.message,
                section=line.section,
                card=line.ref,
                count=line.count,
                limit=0,
            )
        )
    for error in parsed.errors:
        result.violations.append(
            Violation("unknown_card", str(error), f"ошибка чтения: {error}", count=None, limit=None)
        )
    return result
