"""Deck-list formats: parse_deck() for imports and to_*() writers for exports. Pure Python (no Django),
so the rules engineer's CLI and tests can use them without a database."""

from __future__ import annotations

from .lines import MAX_COUNT
from .model import (
    DeckFormatError,
    DeckLine,
    DeckList,
    FileLayout,
    LayoutLine,
    ParsedDeck,
    ParsedEntry,
    ParseError,
    SkippedLine,
)
from .parse import FORMATS, MAX_BYTES, detect_format, parse_deck
from .sections import SECTION_ALIASES, section_slug, section_title
from .write import WRITERS, to_cod, to_csv, to_forge, to_json, to_text, to_xmage, to_ydk, to_ydke

__all__ = [
    "FORMATS",
    "MAX_BYTES",
    "MAX_COUNT",
    "SECTION_ALIASES",
    "WRITERS",
    "DeckFormatError",
    "DeckLine",
    "DeckList",
    "FileLayout",
    "LayoutLine",
    "ParseError",
    "ParsedDeck",
    "ParsedEntry",
    "SkippedLine",
    "detect_format",
    "parse_deck",
    "section_slug",
    "section_title",
    "to_cod",
    "to_csv",
    "to_forge",
    "to_json",
    "to_text",
    "to_xmage",
    "to_ydk",
    "to_ydke",
]
