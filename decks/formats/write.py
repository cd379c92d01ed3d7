"""Serializers from a neutral DeckList to every export format (pure Python)."""

from __future__ import annotations

import base64
import csv
import io
import json
import re
from collections import Counter
from xml.etree import ElementTree as ET

from .lines import COUNT_SEPARATOR
from .model import DeckFormatError, DeckLine, DeckList, FileLayout, LayoutLine
from .parse import COD_COMMANDER_PREFIX, JSON_FORMAT_TAG, ydk_marker
from .sections import section_title

YDK_SECTIONS = ("main", "extra", "side")
YDK_MARKERS = {"main": "#main", "extra": "#extra", "side": "!side"}


def _ygo_sections(deck: DeckList, fmt: str) -> dict[str, list[DeckLine]]:
    extra = [slug for slug, lines in deck.sections.items() if lines and slug not in YDK_SECTIONS]
    if extra:
        raise DeckFormatError("export_other_sections", format=fmt, sections=", ".join(extra))
    if deck.hero:
        raise DeckFormatError("export_hero", format=fmt)
    for lines in deck.sections.values():
        for line in lines:
            if not line.ref.isdecimal() or int(line.ref) >= 2**32:
                raise DeckFormatError("export_not_passcode", format=fmt, card=line.name or line.ref)
    return {slug: deck.sections.get(slug, []) for slug in YDK_SECTIONS}


def to_ydk(deck: DeckList) -> str:
    sections = _ygo_sections(deck, ".ydk")
    if deck.layout is not None and deck.layout.format == "ydk":
        return _ydk_in_layout(sections, deck.layout)
    out = ["#created by Deckhall", "#main"]
    out += [line.ref for line in sections["main"] for _ in range(line.count)]
    out.append("#extra")
    out += [line.ref for line in sections["extra"] for _ in range(line.count)]
    out.append("!side")
    out += [line.ref for line in sections["side"] for _ in range(line.count)]
    return "\n".join(out) + "\n"


def _ydk_in_layout(sections: dict[str, list[DeckLine]], layout: FileLayout) -> str:
    """The deck written into the file it was imported from: the author's header, comments, card order
    (a passcode repeated in two places stays in both) and line endings. An unedited deck gives the file
    back byte for byte; a removed copy drops its line, and an added card goes after the last card of its
    section (or after the line opening the section, or in a new section at the end)."""
    left = {slug: Counter[str]() for slug in YDK_SECTIONS}
    for slug, lines in sections.items():
        for line in lines:
            left[slug][str(int(line.ref))] += line.count
    kept = []
    for line in layout.lines:
        if line.ref and left.get(line.section, Counter())[line.ref] > 0:
            left[line.section][line.ref] -= 1
        elif line.ref:
            continue  # a copy no longer in the deck
        kept.append(line)
    newline = next((line.ending for line in layout.lines if line.ending), "\n")
    added: dict[int, list[str]] = {}  # position in `kept` → lines to write before it
    for slug in YDK_SECTIONS:
        new = [ref for line in sections[slug] for ref in _left_copies(left[slug], str(int(line.ref)))]
        if new:
            at, opener = _ydk_insertion_point(kept, slug)
            added.setdefault(at, []).extend([*opener, *new])
    out: list[tuple[str, str]] = []
    for index in range(len(kept) + 1):
        out += [(text, newline) for text in added.get(index, [])]
        if index < len(kept):
            out.append((kept[index].text, kept[index].ending))
    last_ending = layout.lines[-1].ending if layout.lines else newline
    body = "".join(text + (ending or newline) for text, ending in out[:-1])
    body += out[-1][0] + last_ending if out else ""
    return ("\ufeff" if layout.bom else "") + body


def _left_copies(left: Counter[str], ref: str) -> list[str]:
    copies, left[ref] = max(left[ref], 0), 0
    return [ref] * copies


def _ydk_insertion_point(lines: list[LayoutLine], slug: str) -> tuple[int, list[str]]:
    """Where cards added to a section go in the author's file, and the marker line to write first when
    the file has no such section. YGOPro never switches back to the main deck after "#extra", so new
    main-deck cards go before the first marker of another section."""
    cards = [i for i, line in enumerate(lines) if line.ref and line.section == slug]
    if cards:
        return cards[-1] + 1, []
    openers = [i for i, line in enumerate(lines) if ydk_marker(line.text) == slug]
    if openers:
        return openers[-1] + 1, []
    later = YDK_SECTIONS[YDK_SECTIONS.index(slug) + 1 :]
    following = [i for i, line in enumerate(lines) if ydk_marker(line.text) in later]
    at = following[0] if following else len(lines)
    return at, ([] if slug == "main" else [YDK_MARKERS[slug]])


def to_ydke(deck: DeckList) -> str:
    sections = _ygo_sections(deck, "ydke")
    parts = []
    for slug in YDK_SECTIONS:
        raw = b"".join(
            int(line.ref).to_bytes(4, "little") for line in sections[slug] for _ in range(line.count)
        )
        parts.append(base64.b64encode(raw).decode("ascii"))
    return "ydke://" + "!".join(parts) + "!"


# A name that itself starts with a count separator ("X 0", "× Ring") would lose that word to the count
# when read back ("1 X 0" reads as 1 × "0"): such lines spell the separator out ("1x X 0").
_STARTS_LIKE_A_SEPARATOR = re.compile(rf"^{COUNT_SEPARATOR}\s")


def _text_line(count: int, name: str) -> str:
    return f"{count}x {name}" if _STARTS_LIKE_A_SEPARATOR.match(name) else f"{count} {name}"


# Magic lists are written as MTG Arena writes them (Arena, Moxfield, Archidekt and MTGO's text import read
# them): "About / Name …", then "Commander", "Deck", "Sideboard". Other games keep Deckhall's titles.
ARENA_TITLES = {"hero": "Commander", "main": "Deck", "side": "Sideboard"}
ARENA_GAMES = {"mtg"}


def to_text(deck: DeckList) -> str:
    arena = deck.game in ARENA_GAMES
    title = (lambda slug: ARENA_TITLES.get(slug) or section_title(slug)) if arena else section_title
    out: list[str] = []
    if deck.name:
        out += ["About", f"Name {deck.name}", ""] if arena else [f"// {deck.name}", ""]
    heroes = [deck.hero, *deck.extra_heroes] if deck.hero else []
    if heroes:
        out += [title("hero"), *(_text_line(1, hero.name) for hero in heroes), ""]
    for slug, lines in deck.sections.items():
        if not lines:
            continue
        out.append(title(slug))
        out += [_text_line(line.count, line.name) for line in lines]
        out.append("")
    return "\n".join(out)


def to_csv(deck: DeckList) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["section", "count", "card", "name"])
    if deck.hero:
        writer.writerow(["hero", 1, deck.hero.ref, deck.hero.name])
    for slug, lines in deck.sections.items():
        for line in lines:
            writer.writerow([slug, line.count, line.ref, line.name])
    return buffer.getvalue()


def to_json(deck: DeckList) -> str:
    document = {
        "format": JSON_FORMAT_TAG,
        "version": 1,
        "game": deck.game,
        "format_slug": deck.format_slug,
        "name": deck.name,
        "notes": deck.notes,
        "hero": {"card": deck.hero.ref, "name": deck.hero.name} if deck.hero else None,
        "sections": {
            slug: [{"card": line.ref, "name": line.name, "count": line.count} for line in lines]
            for slug, lines in deck.sections.items()
        },
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def to_cod(deck: DeckList) -> str:
    """Cockatrice's deck file: zones "main" and "side" (and any other section under its own name).
    Cockatrice has no command zone: a Magic deck keeps its commander in "main", as Cockatrice's own saves
    do, named by ``<bannerCard>``, a second commander (partners) by a "Commander:" line of the comments;
    the resolver takes them back out of "main" for a format with a commander. Other games' heroes (never
    counted in their main deck) keep a zone of their own, which Cockatrice shows as one more zone."""
    root = ET.Element("cockatrice_deck", version="1")
    ET.SubElement(root, "deckname").text = deck.name
    heroes = [deck.hero, *deck.extra_heroes] if deck.hero else []
    in_main = bool(heroes) and deck.game in ARENA_GAMES
    if in_main:
        ET.SubElement(root, "bannerCard").text = heroes[0].name
    extra = "".join(f"{COD_COMMANDER_PREFIX}{hero.name}\n" for hero in heroes[1:]) if in_main else ""
    ET.SubElement(root, "comments").text = extra + deck.notes
    zones = {slug: list(lines) for slug, lines in deck.sections.items()}
    if in_main:
        zones["main"] = [*(DeckLine(hero.ref, hero.name, 1) for hero in heroes), *zones.get("main", [])]
    elif heroes:
        zones = {"hero": heroes, **zones}
    for slug, lines in zones.items():
        zone = ET.SubElement(root, "zone", name=slug)
        for line in lines:
            ET.SubElement(zone, "card", number=str(line.count), name=line.name)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# Forge's own section names for the slugs (parse.FORGE_SECTIONS read back).
FORGE_TITLES = {"main": "Main", "side": "Sideboard", "hero": "Commander"}


def _plain_name(name: str) -> str:
    # Exports add "(#id)" to a name several cards share; Forge and XMage find cards by name or printing.
    cut = name.rfind(" (#")
    return name[:cut] if cut > 0 and name.endswith(")") else name


def to_forge(deck: DeckList) -> str:
    """Forge's .dck: "[metadata]" with the name, then "[Commander]", "[Main]", "[Sideboard]" with "N Name"
    lines (Forge picks its preferred printing when none is given)."""
    out = ["[metadata]", f"Name={deck.name.replace(chr(10), ' ')}"]
    heroes = [deck.hero, *deck.extra_heroes] if deck.hero else []
    if heroes:
        out += ["[Commander]", *(f"1 {_plain_name(hero.name)}" for hero in heroes)]
    for slug, lines in deck.sections.items():
        if lines:
            out.append(f"[{FORGE_TITLES.get(slug) or section_title(slug)}]")
            out += [f"{line.count} {_plain_name(line.name)}" for line in lines]
    return "\n".join(out) + "\n"


def to_xmage(deck: DeckList) -> str:
    """XMage's .dck: "NAME:", "N [SET:NUMBER] Name" (XMage finds the card by its printing, so every card
    needs one), "SB: …" for the sideboard, where XMage also keeps a Commander deck's commander(s)."""
    out = [f"NAME:{deck.name.replace(chr(10), ' ')}"]
    heroes = [deck.hero, *deck.extra_heroes] if deck.hero else []
    extra = [slug for slug, lines in deck.sections.items() if lines and slug not in ("main", "side")]
    if extra:
        raise DeckFormatError("export_xmage_sections", format="XMage .dck", sections=", ".join(extra))
    side = [*deck.sections.get("side", []), *heroes]
    if heroes and deck.sections.get("side"):
        raise DeckFormatError("export_xmage_side", format="XMage .dck")
    for prefix, lines in (("", deck.sections.get("main", [])), ("SB: ", side)):
        for line in lines:
            if not line.printing:
                raise DeckFormatError("export_no_printing", format="XMage .dck", card=line.name)
            out.append(f"{prefix}{line.count} [{line.printing}] {_plain_name(line.name)}")
    return "\n".join(out) + "\n"


WRITERS = {
    "ydk": to_ydk,
    "ydke": to_ydke,
    "text": to_text,
    "csv": to_csv,
    "json": to_json,
    "cod": to_cod,
    "forge": to_forge,
    "xmage": to_xmage,
}
