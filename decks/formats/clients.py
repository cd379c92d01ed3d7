"""Readers of the deck files other Magic clients write: Forge's .dck, MTGJSON's deck JSON and OCTGN's .o8d
(XMage's .dck is plain deck text, read by parse.parse_text). Pure Python, no Django; like every reader they
never raise on bad input, each problem is a ParseError naming the line."""

from __future__ import annotations

import json
from typing import Any

from .lines import add_entry, check_count, check_line, count_first, entry_of, set_hero
from .model import ParsedDeck, ParsedEntry, ParseError
from .sections import section_slug

# Forge's deck sections (case-insensitive in Forge) and the slug each lands in. Vanguard avatars,
# planes, schemes, conspiracies and the like keep their own slug: the resolver reports them as a section
# the format lacks, naming them, instead of mixing them into the deck.
FORGE_SECTIONS = {
    "main": "main",
    "sideboard": "side",
    "commander": "hero",
    "avatar": "avatar",
    "planes": "planes",
    "schemes": "schemes",
    "conspiracy": "conspiracy",
    "dungeon": "dungeon",
    "attractions": "attractions",
    "contraptions": "contraptions",
}
_FORGE_META = ("metadata", "general")


def forge_section(line: str) -> str | None:
    """The section a Forge "[Main]" / "[metadata]" line opens (metadata as "metadata"), else None."""
    text = line.strip()
    if len(text) < 3 or text[0] != "[" or text[-1] != "]":
        return None
    key = text[1:-1].strip().casefold()
    if key in _FORGE_META:
        return "metadata"
    return FORGE_SECTIONS.get(key)


def parse_forge(text: str) -> ParsedDeck:
    """Forge's .dck: "[metadata]" with Name=/Description=, then "[Main]", "[Sideboard]", "[Commander]"…
    with "N Name|SET|art" lines (the set and artwork index pick a printing; a trailing "+" is Forge's foil
    mark)."""
    deck = ParsedDeck(source_format="forge")
    section: str | None = None
    notes: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = check_line(raw, number, deck)
        if not line:
            continue
        opened = forge_section(line)
        if opened is not None:
            section = opened
            continue
        if line.startswith(("#", "//", ";")):
            deck.skip(number, line, "comment")
            continue
        if section in (None, "metadata"):
            key, sep, value = line.partition("=")
            if sep and key.strip().casefold() == "name" and value.strip():
                deck.name = value.strip()[:200]
            elif sep and key.strip().casefold() in ("description", "comment") and value.strip():
                notes.append(value.strip())
            if section is None and not sep:
                deck.errors.append(ParseError(number, "forge_outside_section", {"text": line[:60]}))
                continue
            deck.skip(number, line, "metadata")
            continue
        counted = count_first(line)
        raw_count, card = counted if counted else ("1", line)
        name = _forge_card_name(card)
        if not name:
            deck.errors.append(ParseError(number, "card_no_name", {"position": number}))
            continue
        count = check_count(raw_count, number, deck, name[:60])
        if count is not None:
            add_entry(deck, section, ParsedEntry(name, count, number, "name"))
    deck.notes = "\n".join(notes)[:5000]
    return deck


def _forge_card_name(card: str) -> str:
    name = card.split("|", 1)[0].strip()
    return name[:-1].rstrip() if name.endswith("+") else name


# --- MTGJSON deck JSON ----------------------------------------------------------------------------

# MTGJSON's card lists and the slug each lands in. "displayCommander" repeats the face shown on the box
# (already in "commander"), and tokens are no deck cards: both are left out.
MTGJSON_BOARDS = {
    "commander": "hero",
    "mainBoard": "main",
    "sideBoard": "side",
    "planes": "planes",
    "schemes": "schemes",
}


def parse_mtgjson(text: str) -> ParsedDeck:
    deck = ParsedDeck(source_format="mtgjson")
    try:
        document = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        deck.errors.append(ParseError(getattr(error, "lineno", 0), "json_invalid", {"detail": str(error)}))
        return deck
    return mtgjson_deck(document, deck)


def mtgjson_deck(document: Any, deck: ParsedDeck) -> ParsedDeck:
    """A deck file as MTGJSON publishes it ({"meta": …, "data": deck}) or the bare deck object."""
    if isinstance(document, dict) and isinstance(document.get("data"), dict):
        document = document["data"]
    if not isinstance(document, dict) or not isinstance(document.get("mainBoard"), list):
        deck.errors.append(ParseError(1, "mtgjson_shape"))
        return deck
    name = document.get("name")
    deck.name = name.strip()[:200] if isinstance(name, str) else ""
    position = 0
    for board, slug in MTGJSON_BOARDS.items():
        cards = document.get(board) or []
        if not isinstance(cards, list):
            deck.errors.append(ParseError(0, "json_section_shape", {"where": board}))
            continue
        for index, item in enumerate(cards):
            position += 1
            where = f"{board}[{index}]"
            if not isinstance(item, dict):
                deck.errors.append(ParseError(position, "json_entry_shape", {"where": where}))
                continue
            card_name = item.get("name") if isinstance(item.get("name"), str) else ""
            uuid = item.get("uuid") if isinstance(item.get("uuid"), str) else ""
            if not card_name.strip() and not uuid.strip():
                deck.errors.append(ParseError(position, "json_card_id", {"where": where}))
                continue
            count = check_count(item.get("count", 1), position, deck, where)
            if count is None:
                continue
            entry = entry_of((uuid.strip()[:120], card_name.strip()[:200]), count, position)
            if slug == "hero":
                set_hero(deck, entry)
            else:
                deck.add(slug, entry)
    return deck


# --- OCTGN .o8d -----------------------------------------------------------------------------------

# OCTGN's Magic sections; other games' definitions name theirs the same way or close to it.
O8D_SECTIONS = {"command zone": "hero", "planes/schemes": "planes"}


def parse_o8d(root: Any, deck: ParsedDeck) -> ParsedDeck:
    """OCTGN's deck: <deck game="…"><section name="Main"><card qty="4" id="guid">Name</card>…"""
    deck.source_format = "o8d"
    deck.notes = (root.findtext("notes") or "").strip()[:5000]
    position = 0
    for section in root.iter("section"):
        title = (section.get("name") or "").strip()
        slug = O8D_SECTIONS.get(title.casefold()) or section_slug(title) or title.lower()[:40] or "main"
        for card in section.iter("card"):
            position += 1
            name = (card.text or "").strip()
            guid = (card.get("id") or "").strip()
            if not name and not guid:
                deck.errors.append(ParseError(position, "card_no_name", {"position": position}))
                continue
            count = check_count(card.get("qty", "1"), position, deck, (name or guid)[:60])
            if count is None:
                continue
            # OCTGN's ids are its own GUIDs: tried as ids first, the name is what usually finds the card.
            entry = entry_of((guid[:120], name[:200]), count, position)
            if slug == "hero":
                set_hero(deck, entry)
            else:
                deck.add(slug, entry)
    return deck
