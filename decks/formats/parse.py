"""Parsers for the deck-list formats players bring: .ydk, ydke://, Cockatrice .cod (and MTGO .dek, OCTGN
.o8d), Deckhall JSON, CSV, plain text in its dialects (Arena, MTGO, MWS, XMage, mtg.wtf, list sites) and
.dck. Pure Python: bytes or text in, a ParsedDeck (with per-line errors) out. Forge, MTGJSON and OCTGN have
their readers in clients.py; the counting and checking every reader shares is in lines.py.

Parsers never raise on bad input: every problem becomes a ParseError naming the line, so the user can
fix the file in one go. Only the size guard stops parsing early.
"""

from __future__ import annotations

import base64
import binascii
import csv
import io
import itertools
import json
import re
from collections.abc import Callable
from typing import Any

from defusedxml import ElementTree as SafeET
from defusedxml.common import DefusedXmlException

from .clients import forge_section, mtgjson_deck, parse_forge, parse_mtgjson, parse_o8d
from .lines import (
    CONTROL_CHARACTERS,
    COUNT_SEPARATORS,
    MAX_LINE_LENGTH,
    add_entry,
    check_count,
    check_line,
    count_first,
    count_last,
    entry_of,
    set_hero,
)
from .model import FileLayout, LayoutLine, ParsedDeck, ParsedEntry, ParseError
from .sections import group_heading, section_slug

MAX_BYTES = 2 * 1024 * 1024
MAX_LINES = 20_000
MAX_LAYOUT_LINES = 2_000
MAX_LAYOUT_CHARS = 64_000
FORMATS = ("ydk", "ydke", "cod", "json", "csv", "text", "dck", "mtgjson")
JSON_FORMAT_TAG = "deckhall-deck"

_EXTENSIONS = {
    ".ydk": "ydk",
    ".cod": "cod",
    ".xml": "cod",
    ".json": "json",
    ".csv": "csv",
    ".txt": "text",
    ".dek": "cod",  # MTGO's .dek is XML, read by the same safe XML reader as Cockatrice's .cod
    ".dec": "text",
    ".dck": "dck",  # XMage's and Forge's decks share the extension; parse_dck tells them apart
    ".o8d": "cod",  # OCTGN's deck XML, read by the same safe XML reader
    ".mwdeck": "text",
}
_PASSCODE = re.compile(r"^\d{1,10}$")


def _inline_header(line: str) -> tuple[str, str] | None:
    """("Hero", "Card") of "Hero: Card": a label of 2 to 40 characters before the first colon."""
    colon = line.find(":", 0, 41)
    if colon < 2:
        return None
    value = line[colon + 1 :].strip()
    return (line[:colon], value) if value else None


def parse_deck(data: str | bytes, fmt: str | None = None, filename: str | None = None) -> ParsedDeck:
    """Parse a deck list; ``fmt`` forces a format, else the file name's extension or the content decides."""
    size = len(data.encode("utf-8") if isinstance(data, str) else data)
    if size > MAX_BYTES:
        return _failed(fmt or "", "file_too_large", size=size, limit=MAX_BYTES)
    text = data if isinstance(data, str) else _decode(data)
    if text is None:
        return _failed(fmt or "", "not_text")
    bom = text.startswith("\ufeff")
    text = text.lstrip("\ufeff")
    chosen = fmt or detect_format(text, filename)
    parser = _PARSERS.get(chosen)
    if parser is None:
        return _failed(chosen, "unknown_format", format=chosen, formats=", ".join(FORMATS))
    if text.count("\n") > MAX_LINES:
        return _failed(chosen, "too_many_lines", limit=MAX_LINES)
    deck = parser(text)
    # The text and XML parsers name the dialect they read (arena, mtgo, mws; an MTGO .dek).
    deck.source_format = deck.source_format if chosen in {"text", "cod", "dck", "json"} else chosen
    if deck.layout is not None and bom:
        deck.layout = FileLayout(deck.layout.format, deck.layout.lines, bom=True)
    return deck


def detect_format(text: str, filename: str | None = None) -> str:
    stripped = text.strip()
    # A ydke:// link is unambiguous, and the ydke export downloads as .txt: the content wins over the name.
    if stripped.lower().startswith("ydke://"):
        return "ydke"
    if filename:
        for extension, fmt in _EXTENSIONS.items():
            # ".txt" says only "plain text": let the content tell a .ydk list, CSV or JSON saved as .txt.
            if filename.lower().endswith(extension) and fmt != "text":
                return fmt
    if stripped.startswith("<"):
        return "cod"
    if stripped.startswith("{"):
        # MTGJSON's deck files (AllDeckFiles, per-deck downloads) carry "mainBoard"; ours a format tag.
        return "mtgjson" if '"mainBoard"' in stripped and JSON_FORMAT_TAG not in stripped else "json"
    lines = [line.strip() for line in stripped.splitlines() if line.strip()]
    if lines and forge_section(lines[0]) is not None:
        return "dck"
    if lines and lines[0].replace(" ", "").lower() == "section,count,card,name":
        return "csv"
    if lines and (
        lines[0].lower().startswith(("#main", "#created", "#extra", "!side"))
        or all(_PASSCODE.match(line) or line.startswith(("#", "!")) for line in lines)
    ):
        return "ydk"
    return "text"


def _decode(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    if b"\x00" in data:
        return None
    # Russian deck lists saved by older Windows tools are often in cp1251.
    try:
        return data.decode("cp1251")
    except UnicodeDecodeError:
        return None


def _failed(fmt: str, code: str, **params: Any) -> ParsedDeck:
    return ParsedDeck(errors=[ParseError(0, code, params)], source_format=fmt)


# --- .ydk ----------------------------------------------------------------------------------------


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def split_lines(text: str) -> list[tuple[str, str]]:
    """(text, line ending) per line, keeping CRLF, LF or a lone CR as written."""
    pairs = []
    for raw in _LINE.findall(text):
        body = raw.rstrip("\r\n")
        pairs.append((body, raw[len(body) :]))
    return pairs


def ydk_marker(line: str) -> str | None:
    """The section a .ydk line opens ("#main", "#extra", "!side"), or None for other lines.

    YGOPro reads "#main" as a comment and any "!" line as the side deck; "#main" is honoured here too
    because a file that goes back to the main deck after "#extra" means it."""
    lowered = line.strip().lower()
    if lowered.startswith("#extra"):
        return "extra"
    if lowered.startswith("#main"):
        return "main"
    if lowered.startswith("!"):
        return "side"
    return None


def parse_ydk(text: str) -> ParsedDeck:
    deck = ParsedDeck(source_format="ydk")
    section = "main"
    layout: list[LayoutLine] = []
    for number, (raw, ending) in enumerate(split_lines(text), start=1):
        line = check_line(raw, number, deck)
        opened = ydk_marker(raw) if line else None
        if opened:
            section = opened
        if not line or line.startswith(("#", "!")):
            # "#created by …", "#source: …" and any other comment are kept for the export.
            layout.append(LayoutLine(raw, ending, section))
            continue
        if not _PASSCODE.match(line):
            deck.errors.append(ParseError(number, "not_passcode", {"text": line[:60]}))
            continue
        # Leading zeros are not significant in passcodes ("0089631139" and "89631139" are one card).
        ref = str(int(line))
        deck.add(section, ParsedEntry(ref, 1, number, "id"))
        layout.append(LayoutLine(raw, ending, section, ref))
    # Real files have a few hundred lines; a file of thousands of comments is not kept with the deck
    # (its export is then the plain .ydk).
    if len(layout) <= MAX_LAYOUT_LINES and sum(len(line.text) for line in layout) <= MAX_LAYOUT_CHARS:
        deck.layout = FileLayout("ydk", tuple(layout))
    return deck


# --- ydke:// --------------------------------------------------------------------------------------


def parse_ydke(text: str) -> ParsedDeck:
    deck = ParsedDeck(source_format="ydke")
    url = text.strip()
    if not url.lower().startswith("ydke://"):
        deck.errors.append(ParseError(1, "ydke_prefix"))
        return deck
    parts = url[len("ydke://") :].split("!")
    if len(parts) < 3 or any(part for part in parts[3:]):
        deck.errors.append(ParseError(1, "ydke_parts"))
        return deck
    for section, part in zip(("main", "extra", "side"), parts[:3], strict=True):
        # ydke.js accepts the URL-safe alphabet ("-", "_") and links without "=" padding as well.
        part = part.replace("-", "+").replace("_", "/")
        part += "=" * (-len(part) % 4)
        try:
            raw = base64.b64decode(part, validate=True)
        except (binascii.Error, ValueError):
            deck.errors.append(ParseError(1, "ydke_base64", {"section": section}))
            continue
        if len(raw) % 4:
            deck.errors.append(ParseError(1, "ydke_truncated", {"section": section}))
            continue
        for offset in range(0, len(raw), 4):
            passcode = int.from_bytes(raw[offset : offset + 4], "little")
            deck.add(section, ParsedEntry(str(passcode), 1, 1, "id"))
    return deck


# --- Cockatrice .cod -----------------------------------------------------------------------------


def parse_cod(text: str) -> ParsedDeck:
    deck = ParsedDeck(source_format="cod")
    try:
        root = SafeET.fromstring(text)
    except DefusedXmlException:
        deck.errors.append(ParseError(0, "xml_entities"))
        return deck
    except SafeET.ParseError as error:
        line = getattr(error, "position", (0, 0))[0]
        deck.errors.append(ParseError(line, "xml_invalid", {"detail": str(error)}))
        return deck
    if root.tag == "Deck":
        return _parse_mtgo_dek(root, deck)
    if root.tag == "deck":
        return parse_o8d(root, deck)
    if root.tag != "cockatrice_deck":
        deck.errors.append(ParseError(1, "xml_root", {"tag": root.tag[:40]}))
        return deck
    deck.name = (root.findtext("deckname") or "").strip()[:200]
    banner = (root.findtext("bannerCard") or "").strip()[:200]
    notes = []
    for comment in (root.findtext("comments") or "").splitlines():
        named = _COD_COMMANDER.match(comment.strip())
        if named:
            deck.commanders.append(named.group(1).strip()[:200])
        else:
            notes.append(comment)
    if banner and banner.casefold() not in {name.casefold() for name in deck.commanders}:
        deck.commanders.insert(0, banner)
    deck.notes = "\n".join(notes).strip()[:5000]
    position = 0
    for zone in root.iter("zone"):
        zone_name = zone.get("name", "")
        slug = section_slug(zone_name) or zone_name.strip().lower()[:40]
        for card in zone.iter("card"):
            position += 1
            name = (card.get("name") or "").strip()
            if not name:
                deck.errors.append(ParseError(position, "card_no_name", {"position": position}))
                continue
            count = check_count(card.get("number", "1"), position, deck, name[:60])
            if count is None:
                continue
            entry = ParsedEntry(name, count, position, "name")
            if slug == "hero":
                set_hero(deck, entry)
            else:
                deck.add(slug, entry)
    return deck


# How a Cockatrice deck's comments name its commander: "CDR: Name" (converters), "Commander: Name" (ours).
COD_COMMANDER_PREFIX = "Commander: "
_COD_COMMANDER = re.compile(r"^(?:CDR|Commander)\s*:\s*(\S.{0,199})$", re.IGNORECASE)


def _parse_mtgo_dek(root: Any, deck: ParsedDeck) -> ParsedDeck:
    """MTGO's own .dek export: <Deck><Cards Quantity="4" Sideboard="false" Name="…"/></Deck>."""
    deck.source_format = "mtgo"
    for position, card in enumerate(root.iter("Cards"), start=1):
        name = (card.get("Name") or "").strip()
        if not name:
            deck.errors.append(ParseError(position, "card_no_name", {"position": position}))
            continue
        count = check_count(card.get("Quantity", "1"), position, deck, name[:60])
        if count is not None:
            side = (card.get("Sideboard") or "").strip().lower() == "true"
            deck.add("side" if side else "main", ParsedEntry(name, count, position, "name"))
    return deck


# --- Deckhall JSON --------------------------------------------------------------------------------


def _json_ref(raw: Any, where: str, index: int, deck: ParsedDeck) -> tuple[str, str] | None:
    if isinstance(raw, dict):
        ref, name = raw.get("card"), raw.get("name", "")
    else:
        ref, name = raw, ""
    if isinstance(ref, int) and not isinstance(ref, bool):
        ref = str(ref)
    if not isinstance(name, str):
        name = ""
    if not isinstance(ref, str) or not ref.strip():
        if name.strip():
            return "", name.strip()[:200]
        deck.errors.append(ParseError(index, "json_card_id", {"where": where}))
        return None
    return ref.strip()[:120], name.strip()[:200]


def parse_json(text: str) -> ParsedDeck:
    deck = ParsedDeck(source_format="json")
    try:
        document = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        deck.errors.append(ParseError(getattr(error, "lineno", 0), "json_invalid", {"detail": str(error)}))
        return deck
    if not isinstance(document, dict):
        deck.errors.append(ParseError(1, "json_not_object"))
        return deck
    if document.get("format") != JSON_FORMAT_TAG and (
        isinstance(document.get("mainBoard"), list) or isinstance(document.get("data"), dict)
    ):
        # An MTGJSON deck file given as ".json": read as what it is.
        deck.source_format = "mtgjson"
        return mtgjson_deck(document, deck)
    if document.get("format") != JSON_FORMAT_TAG:
        deck.errors.append(ParseError(1, "json_format_tag", {"tag": JSON_FORMAT_TAG}))
        return deck
    if document.get("version", 1) != 1:
        deck.errors.append(ParseError(1, "json_version", {"version": repr(document.get("version"))[:40]}))
        return deck
    for key in ("name", "game", "format_slug", "notes"):
        value = document.get(key, "")
        if value is not None and not isinstance(value, str):
            deck.errors.append(ParseError(1, "json_not_string", {"key": key}))
            continue
        setattr(deck, key, (value or "").strip()[: 5000 if key == "notes" else 200])
    if document.get("hero"):
        ref = _json_ref(document["hero"], "hero", 0, deck)
        if ref:
            deck.hero = entry_of(ref, 1, 0)
    sections = document.get("sections", {})
    if not isinstance(sections, dict):
        deck.errors.append(ParseError(1, "json_sections_shape"))
        return deck
    for section, entries in sections.items():
        slug = section_slug(str(section)) or str(section).strip().lower()[:40]
        if not isinstance(entries, list):
            deck.errors.append(ParseError(0, "json_section_shape", {"where": f"sections.{section}"}))
            continue
        for index, item in enumerate(entries, start=1):
            where = f"sections.{section}[{index - 1}]"
            if not isinstance(item, dict):
                deck.errors.append(ParseError(index, "json_entry_shape", {"where": where}))
                continue
            ref = _json_ref(item, where, index, deck)
            count = check_count(item.get("count", 1), index, deck, where)
            if ref is None or count is None:
                continue
            if slug == "hero":
                set_hero(deck, entry_of(ref, count, index))
            else:
                deck.add(slug, entry_of(ref, count, index))
    return deck


# --- CSV ------------------------------------------------------------------------------------------


def parse_csv(text: str) -> ParsedDeck:
    deck = ParsedDeck(source_format="csv")
    reader = csv.reader(io.StringIO(text))
    header: list[str] | None = None
    try:
        for row in reader:
            number = reader.line_num
            if not row or all(not cell.strip() for cell in row):
                continue
            if header is None:
                header = [cell.strip().lower() for cell in row]
                missing = [col for col in ("section", "count") if col not in header]
                if missing or ("card" not in header and "name" not in header):
                    deck.errors.append(ParseError(number, "csv_header"))
                    return deck
                continue
            cells = dict(zip(header, (cell.strip() for cell in row), strict=False))
            if any(len(cell) > MAX_LINE_LENGTH for cell in row) or any(
                CONTROL_CHARACTERS.search(cell) for cell in row
            ):
                deck.errors.append(ParseError(number, "csv_row_unreadable"))
                continue
            section = cells.get("section", "") or "main"
            slug = section_slug(section) or section.lower()[:40]
            ref = (cells.get("card", ""), cells.get("name", ""))
            if not ref[0] and not ref[1]:
                deck.errors.append(ParseError(number, "csv_row_no_card"))
                continue
            count = check_count(cells.get("count", ""), number, deck, ref[1] or ref[0])
            if count is None:
                continue
            if slug == "hero":
                set_hero(deck, entry_of(ref, count, number))
            else:
                deck.add(slug, entry_of(ref, count, number))
    except csv.Error as error:
        deck.errors.append(ParseError(reader.line_num, "csv_malformed", {"detail": str(error)}))
    return deck


# --- plain text -----------------------------------------------------------------------------------


def parse_text(text: str) -> ParsedDeck:
    """Plain deck text in the dialects players paste; which one it was becomes ``source_format``:

    - plain lists ("3 Dark Magician", "Dark Magician x3", "(3) Name", "Name [x3]", one name per copy) with
      section headers in English or Russian ("Side Deck:", "Сайдборд (15)") and list sites' group
      headings inside them ("Monster Cards (20)", "Spell", "Traps:"), which are skipped, not cards;
    - MTGO / Cockatrice text: "SB: 2 Card" lines, or one blank line between main deck and sideboard
      when there are no headers (Cockatrice's rule), "Sideboard" or "// Sideboard" headers;
    - MTG Arena: "2 Plains (LTR) 263", "Deck" / "Sideboard" / "Commander" / "Companion" headers and an
      "About" block naming the deck;
    - Magic Workstation .dec/.mwDeck: "4 [M20] Card", "SB: 1 [M20] Card", "// NAME : deck name";
    - XMage .dck: "1 [WAR:2*] Card", "SB: 1 [C21:335] Card", "NAME:deck name", "LAYOUT …" lines (any
      length: they only place cards on XMage's screen);
    - mtg.wtf downloads: "COMMANDER: 1 Card [foil]", "PARTNER: 1 Card", "// NAME: …", "// URL: …".
    """
    deck = ParsedDeck(source_format="text")
    dialects: set[str] = set()
    lines = text.splitlines()
    side_from = _blank_line_sideboard(lines)
    if side_from is not None:
        dialects.add("mtgo")
    section = "main"
    in_about = False
    for number, raw in enumerate(lines, start=1):
        if _is_xmage_layout(raw):
            # XMage's screen layout of the cards: one line per zone, thousands of characters long.
            deck.skip(number, raw, "layout")
            dialects.add("xmage")
            continue
        line = check_line(raw, number, deck)
        if side_from is not None and number - 1 == side_from:
            section = "side"
        if not line:
            continue
        if line.startswith("//"):
            before = (section, deck.name)
            section = _text_comment(deck, line[2:].strip(), section, dialects)
            if (section, deck.name) == before:
                deck.skip(number, line, "comment")
            continue
        if line.startswith(("#", ";")):
            deck.skip(number, line, "comment")
            continue
        if _xmage_metadata(deck, line):
            deck.skip(number, line, "metadata")
            dialects.add("xmage")
            continue
        if in_about:
            about_name = re.match(r"^name\s+(\S.*)$", line, re.IGNORECASE)
            if about_name:
                deck.name = about_name.group(1).strip()[:200]
                continue
            in_about = False
        if line.casefold() == "about":
            in_about = True
            dialects.add("arena")
            continue
        line_section = section
        sideboard_line = _SB_PREFIX.match(line)
        if sideboard_line:
            line, line_section = line[sideboard_line.end() :].strip(), "side"
            dialects.add("mtgo")
        counted = count_first(line) or count_last(line)
        if counted:
            _add_counted(deck, line_section, counted, number, dialects)
            continue
        slug = section_slug(line)
        if slug and not sideboard_line:
            section = slug
            if line.casefold() in _ARENA_ONLY_HEADERS:
                dialects.add("arena")
            continue
        if group_heading(line):
            deck.skip(number, line, "group")
            continue
        counted = count_bracketed(line)
        if counted:
            _add_counted(deck, line_section, counted, number, dialects)
            continue
        inline = _inline_header(line)
        target = _inline_target(inline[0]) if inline else None
        if inline and target:
            # "Hero: Card", and mtg.wtf's "COMMANDER: 1 Card [foil]", "PARTNER: 1 Card", "COMPANION: 1 Card".
            value = inline[1]
            counted = count_first(value)
            if counted and target != "hero":
                _add_counted(deck, target, counted, number, dialects)
            else:
                # "COMMANDER: 1 Card"; a name that itself starts with a number stays whole.
                counted = counted if counted and counted[0] in ("1", "2") else None
                name = counted[1] if counted else value
                for _copy in range(int(counted[0]) if counted else 1):
                    set_hero(deck, ParsedEntry(_card_name(name.strip(), dialects), 1, number, "name"))
            if inline[0].strip().upper() in _MTGWTF_LABELS:
                dialects.add("mtgwtf")
            continue
        if line.endswith(":"):
            deck.errors.append(ParseError(number, "unknown_section_header", {"header": line[:60]}))
            continue
        # A bare name is one copy (many YGO lists write one line per copy).
        add_entry(deck, line_section, ParsedEntry(_card_name(line, dialects), 1, number, "name"))
    deck.source_format = next((d for d in _DIALECT_ORDER if d in dialects), "text")
    if deck.source_format == "xmage":
        _xmage_commanders(deck)
    return deck


# Which dialect names a list that shows signs of several (an XMage file also has MWS-like "[SET:NUM]").
_DIALECT_ORDER = ("xmage", "mtgwtf", "mws", "arena", "mtgo")
_MTGWTF_LABELS = {"COMMANDER", "PARTNER", "COMPANION"}


def _add_counted(
    deck: ParsedDeck, section: str, counted: tuple[str, str], number: int, dialects: set[str]
) -> None:
    raw_count, name = counted
    name = _card_name(name.strip(), dialects)
    count = check_count(raw_count, number, deck, name[:60])
    if count is not None:
        add_entry(deck, section, ParsedEntry(name, count, number, "name"))


def _inline_target(label: str) -> str | None:
    """The section an inline "Label: card" line puts its card in: a hero ("Hero:", "Commander:", mtg.wtf's
    "PARTNER:") or the sideboard (mtg.wtf's "COMPANION:"); None for other labels."""
    if label.strip().casefold() == "partner":
        return "hero"
    slug = section_slug(label)
    return slug if slug in ("hero", "side") else None


def _is_xmage_layout(raw: str) -> bool:
    # A prefix test, so a LAYOUT line of any length costs nothing more than its split.
    return raw[:20].lstrip()[:7].upper() == "LAYOUT "


def _xmage_metadata(deck: ParsedDeck, line: str) -> bool:
    """XMage's "NAME:deck" and "AUTHOR:someone" lines; the name names the deck."""
    head = line[:7].upper()
    if head.startswith("NAME:"):
        if line[5:].strip():
            # XMage's own name line wins over a first "// …" comment ("//Created with Mage").
            deck.name = line[5:].strip()[:200]
        return True
    return head.startswith("AUTHOR:")


def _xmage_commanders(deck: ParsedDeck) -> None:
    """XMage keeps a Commander deck's commander(s) in the sideboard: one or two single cards there are
    named as commanders, and the resolver makes them the hero when the format has one (otherwise they
    stay in the sideboard, as in any 60-card XMage deck)."""
    side = deck.sections.get("side", [])
    if deck.hero is None and 1 <= len(side) <= 2 and all(entry.count == 1 for entry in side):
        deck.commanders.extend(entry.ref for entry in side)


def count_bracketed(line: str) -> tuple[str, str] | None:
    """(count, name) of "(3) Name", "[3] Name", "3) Name", "Name (x3)", "Name [3x]", "Name (3)": counts
    in brackets as list sites write them. Scans a bounded window at either end (linear in the line)."""
    if not line:
        return None
    if line[0] in "([" or (line[:1].isdecimal() and ")" in line[:4]):
        close = next((i for i in range(min(len(line), 8)) if line[i] in ")]"), -1)
        if close > 0:
            count = _bracket_count(line[1 if line[0] in "([" else 0 : close])
            name = line[close + 1 :].strip()
            if count and name:
                return count, name
    if line[-1] in ")]":
        opener = "(" if line[-1] == ")" else "["
        open_at = line.rfind(opener, max(0, len(line) - 8), len(line) - 1)
        if open_at > 0:
            count = _bracket_count(line[open_at + 1 : -1])
            name = line[:open_at].strip()
            if count and name:
                return count, name
    return None


def _bracket_count(inside: str) -> str | None:
    """The count in "3", "x3", "3x", "× 3" (one separator at most, on either side), else None."""
    text = inside.strip()
    if text[:1] in COUNT_SEPARATORS:
        text = text[1:].strip()
    elif text[-1:] in COUNT_SEPARATORS:
        text = text[:-1].strip()
    return text if text.isdecimal() and len(text) <= 3 and text.isascii() else None


_SB_PREFIX = re.compile(r"^SB:\s*", re.IGNORECASE)
# "Plains (LTR) 263", "Fire // Ice (MH2) 290 *F*": Arena's set code and collector number.
# ``(?<!\s)``: a match starts only where a run of blanks begins, so a search scans each run once (linear).
_ARENA_PRINTING = re.compile(r"(?<!\s)\s+\([A-Z0-9]{2,6}\)\s+[A-Za-z0-9★-]{1,10}(?:\s+\*[A-Z]\*)?$")
# "[M20] Card", "[THS:123] Card", "[] Card": Magic Workstation's set tag; "Plains (1)" its artwork number.
# XMage writes the same tag with its collector number, "[WAR:2*]" and "[ODY:72+]" marking variants.
_MWS_SET = re.compile(r"^\[[A-Za-z0-9_:*+★.-]{0,20}\]\s*")
# mtg.wtf marks foil copies after the name: "1 Sol Ring [foil]".
_FOIL_MARK = " [foil]"
_MWS_ARTWORK = re.compile(r"(?<!\s)\s+\(\d{1,2}\)$")
_MWS_BANNER = re.compile(r"deck file for magic workstation", re.IGNORECASE)
_MWS_FIELD = re.compile(r"^(?P<key>NAME|CREATOR|FORMAT)\s*:\s*(?P<value>.*)$", re.IGNORECASE)
# Headers only Arena writes (its "Deck" and "Sideboard" are everybody's).
_ARENA_ONLY_HEADERS = {"commander", "companion"}
# Sections a "// Header" comment may switch to: MTGO and Moxfield write "// Sideboard"; MWS writes
# "// Lands" and "// Creatures" as groups of the main deck, which must not become sections.
_COMMENT_SECTIONS = {"main", "side", "hero"}


def _card_name(name: str, dialects: set[str]) -> str:
    """The card's name without the printing details Arena, Magic Workstation, XMage and mtg.wtf add to it."""
    if name[-len(_FOIL_MARK) :].casefold() == _FOIL_MARK:
        name = name[: -len(_FOIL_MARK)].rstrip()
    mws = _MWS_SET.match(name)
    if mws:
        dialects.add("mws")
        return _MWS_ARTWORK.sub("", name[mws.end() :]).strip()
    arena = _ARENA_PRINTING.search(name)
    if arena:
        dialects.add("arena")
        return name[: arena.start()].strip()
    return name


def _text_comment(deck: ParsedDeck, comment: str, section: str, dialects: set[str]) -> str:
    """Read a "// …" line: a deck name, an MWS banner or field, or a main/side/commander header."""
    field = _MWS_FIELD.match(comment)
    if _MWS_BANNER.search(comment) or field:
        dialects.add("mws")
        if field and field.group("key").upper() == "NAME" and field.group("value").strip():
            deck.name = field.group("value").strip()[:200]
        return section
    slug = section_slug(comment)
    if slug in _COMMENT_SECTIONS:
        return slug
    if comment and not deck.name and not deck.sections:
        # A "// Deck name" first line is how our own export names the deck.
        deck.name = comment[:200]
    return section


def _blank_line_sideboard(lines: list[str]) -> int | None:
    """Where the sideboard starts by MTGO's and Cockatrice's convention: a list without section headers
    whose cards are split by exactly one blank line has its sideboard after that line."""
    cards: list[int] = []
    for index, raw in enumerate(lines):
        line = raw.strip()
        if not line or line.startswith(("//", "#", ";")):
            continue
        if _is_xmage_layout(line) or line[:7].upper().startswith(("NAME:", "AUTHOR:")):
            continue
        if _SB_PREFIX.match(line) or line.endswith(":") or line.casefold() == "about":
            return None
        if not (count_first(line) or count_last(line)) and (section_slug(line) or group_heading(line)):
            return None
        inline = _inline_header(line)
        if inline and _inline_target(inline[0]):
            return None
        cards.append(index)
    if not cards:
        return None
    gaps = [
        next_card
        for card, next_card in itertools.pairwise(cards)
        if any(not lines[i].strip() for i in range(card + 1, next_card))
    ]
    return gaps[0] if len(gaps) == 1 else None


# --- .dck: XMage or Forge --------------------------------------------------------------------------


def parse_dck(text: str) -> ParsedDeck:
    """A .dck file: Forge's when it has Forge's bracketed sections, else XMage's."""
    for raw in text.splitlines():
        if raw.strip():
            if forge_section(raw) is not None:
                return parse_forge(text)
            if not raw.lstrip().startswith(("#", "//")):
                break
    deck = parse_text(text)
    if deck.source_format in ("text", "mws", "mtgo"):
        # Read as XMage reads its own files: a .dck without NAME/LAYOUT lines is still one.
        deck.source_format = "xmage"
        _xmage_commanders(deck)
    return deck


_PARSERS: dict[str, Callable[[str], ParsedDeck]] = {
    "ydk": parse_ydk,
    "ydke": parse_ydke,
    "cod": parse_cod,
    "json": parse_json,
    "csv": parse_csv,
    "text": parse_text,
    "dck": parse_dck,
    "mtgjson": parse_mtgjson,
}
