"""Turn deck text (.ydk, ydke://, plain text, Deckhall JSON) into Card rows and engine inputs.

Parsing and resolving belong to the decks app (decks.formats, decks.resolve), which stands above rules: it
hands them in from ``DecksConfig.ready()`` (:func:`deck_text_install`), so rules never imports decks. This
module maps what they could not resolve to report entries: a card the database does not know becomes
``unknown_card``, a line that cannot be read ``unreadable_line``, a hero beyond the first ``hero_count``
(through ``DeckInput.extra_heroes``) — never a crash. A ``pool`` section (decks/README.md) is the registered pool of a
limited event, not a deck section: it becomes ``DeckInput.pool``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from cards.models import Card, Game

from .engine import UnknownCard, Violation
from .messages import error_message

POOL_SECTION = "pool"


@dataclass(frozen=True)
class DeckText:
    """The decks app's tools for reading deck text, handed in from ``DecksConfig.ready()``."""

    parse: Callable[..., Any]  # decks.formats.parse_deck(data, fmt, filename) -> ParsedDeck
    resolve: Callable[..., Any]  # decks.resolve.deck_resolve(game=, parsed=, format_slug=, ...)
    parsed_deck: Callable[..., Any]  # decks.formats.model.ParsedDeck(sections=, hero=)
    format_info: Callable[..., Any]  # decks.gamerules.format_info(game_slug, format_slug)


_deck_text: DeckText | None = None


def deck_text_install(tools: DeckText) -> None:
    global _deck_text
    _deck_text = tools


def _tools() -> DeckText:
    if _deck_text is None:
        raise RuntimeError("reading deck text needs the decks app in INSTALLED_APPS (DecksConfig.ready)")
    return _deck_text


class DeckInputError(ValueError):
    """The input cannot be read as a deck at all (the CLI exits 2, the API answers 400)."""


@dataclass
class DeckInput:
    sections: dict[str, list[tuple[Card, int]]] = field(default_factory=dict)
    hero: Card | None = None
    unknown: list[UnknownCard] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    # The file's `pool` section (None: the file has none), and the pool lines no card matched.
    pool: list[tuple[Card, int]] | None = None
    warnings: list[Violation] = field(default_factory=list)
    extra_heroes: list[Card] = field(default_factory=list)


def _parse(data: str | bytes, fmt: str | None, filename: str | None):  # type: ignore[no-untyped-def]
    head = data[:16].lstrip() if isinstance(data, str) else data[:16].lstrip().decode("latin-1")
    if fmt is None and head.lower().startswith("ydke://"):
        fmt = "ydke"  # a URL pasted into a .txt file is still a URL
    return _tools().parse(data, fmt, filename)


def _resolve_entries(*, game: Game, format_slug: str, entries: list, hero: bool = False):  # type: ignore[no-untyped-def]
    """Resolve loose card lines (a pool, extra heroes) with the decks resolver's matching rules."""
    tools = _tools()
    if hero:
        resolved = tools.resolve(
            game=game, parsed=tools.parsed_deck(hero=entries[0]), format_slug=format_slug
        )
        return resolved.hero, resolved.unknown
    first = tools.format_info(game.slug, format_slug).section_slugs[0]
    resolved = tools.resolve(
        game=game, parsed=tools.parsed_deck(sections={first: entries}), format_slug=format_slug
    )
    return resolved.sections.get(first, []), resolved.unknown


def pool_warning(ref: str, count: int) -> Violation:
    """A pool line no card matched: the deck is still judged, but the player must know the pool is short."""
    return Violation(
        "unknown_card",
        "unknown_card.pool",
        {"ref": ref, "count": count},
        section=POOL_SECTION,
        card=ref,
        count=count,
        limit=0,
    )


def pool_from_text(*, game: Game, format_slug: str, data: str | bytes, filename: str | None = None
                   ) -> tuple[list[tuple[Card, int]], list[Violation]]:  # fmt: skip
    """A pool file in any deck format: every card line of every section counts (a pool has no sections)."""
    parsed = _parse(data, None, filename)
    entries = [entry for items in parsed.sections.values() for entry in items]
    if parsed.errors and not entries:
        raise DeckInputError(
            _("the pool: %(problems)s") % {"problems": "; ".join(str(e) for e in parsed.errors)}
        )
    if not entries:
        raise DeckInputError(_("the pool file lists no cards"))
    try:
        cards, unknown = _resolve_entries(game=game, format_slug=format_slug, entries=entries)
    except KeyError as exc:
        raise DeckInputError(error_message(exc)) from None
    return cards, [pool_warning(u.ref, u.count) for u in unknown]


def deck_from_text(*, game: Game, format_slug: str, data: str | bytes, fmt: str | None = None,
                   filename: str | None = None, house_sideboard: bool = False) -> DeckInput:  # fmt: skip
    parsed = _parse(data, fmt, filename)
    pool_entries = parsed.sections.pop(POOL_SECTION, None)
    if parsed.errors and not parsed.sections and parsed.hero is None and not pool_entries:
        raise DeckInputError("; ".join(str(e) for e in parsed.errors))
    try:
        resolved = _tools().resolve(
            game=game, parsed=parsed, format_slug=format_slug, house_sideboard=house_sideboard
        )
    except KeyError as exc:
        raise DeckInputError(error_message(exc)) from None
    result = DeckInput(sections=resolved.sections, hero=resolved.hero)
    if pool_entries is not None:
        result.pool, pool_unknown = _resolve_entries(game=game, format_slug=format_slug, entries=pool_entries)
        result.warnings += [pool_warning(u.ref, u.count) for u in pool_unknown]
    for line in resolved.unknown:
        if line.reason in ("unknown", "ambiguous"):
            result.unknown.append(UnknownCard(section=line.section, ref=line.ref, count=line.count))
            continue
        code = {"not_buildable": "section_card_type", "section": "section_size", "hero": "hero_restriction"}
        result.violations.append(
            Violation(
                code.get(line.reason, "unreadable_line"),
                "resolve.line" if line.line else "resolve.detail",
                {"line": line.line, "detail": line.as_param()},
                section=line.section,
                card=line.ref,
                count=line.count,
                limit=0,
            )
        )
    # Heroes after the first (partners, or one too many) are resolved with the deck; the engine judges them.
    result.extra_heroes = list(resolved.extra_heroes)
    hero_lines = {entry.line for entry in parsed.extra_heroes}
    for error in parsed.errors:
        if error.line and error.line in hero_lines:
            continue  # reported as hero_count by the engine, with both heroes named
        result.violations.append(
            Violation(
                "unreadable_line",
                "unreadable_line.parse",
                {"detail": error.as_param()},
                count=None,
                limit=None,
            )
        )
    return result
