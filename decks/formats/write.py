"""Serializers from a neutral DeckList to every export format (pure Python)."""

from __future__ import annotations

import base64
import csv
import io
import json
from xml.etree import ElementTree as ET

from .model import DeckFormatError, DeckLine, DeckList
from .parse import JSON_FORMAT_TAG
from .sections import section_title

YDK_SECTIONS = ("main", "extra", "side")


def _ygo_sections(deck: DeckList, fmt: str) -> dict[str, list[DeckLine]]:
    extra = [slug for slug, lines in deck.sections.items() if lines and slug not in YDK_SECTIONS]
    if extra or deck.hero:
        raise DeckFormatError(
            f"{fmt} holds only main, extra and side decks; this deck also has {extra or 'a hero'}"
        )
    for lines in deck.sections.values():
        for line in lines:
            if not line.ref.isdigit() or int(line.ref) >= 2**32:
                raise DeckFormatError(f"{fmt} needs numeric passcodes; {line.name or line.ref!r} has none")
    return {slug: deck.sections.get(slug, []) for slug in YDK_SECTIONS}


def to_ydk(deck: DeckList) -> str:
    sections = _ygo_sections(deck, ".ydk")
    out = ["#created by Deckhall", "#main"]
    out += [line.ref for line in sections["main"] for _ in range(line.count)]
    out.append("#extra")
    out += [line.ref for line in sections["extra"] for _ in range(line.count)]
    out.append("!side")
    out += [line.ref for line in sections["side"] for _ in range(line.count)]
    return "\n".join(out) + "\n"


def to_ydke(deck: DeckList) -> str:
    sections = _ygo_sections(deck, "ydke")
    parts = []
    for slug in YDK_SECTIONS:
        raw = b"".join(
            int(line.ref).to_bytes(4, "little") for line in sections[slug] for _ in range(line.count)
        )
        parts.append(base64.b64encode(raw).decode("ascii"))
    return "ydke://" + "!".join(parts) + "!"


def to_text(deck: DeckList) -> str:
    out: list[str] = []
    if deck.name:
        out += [f"// {deck.name}", ""]
    if deck.hero:
        out += [section_title("hero"), f"1 {deck.hero.name}", ""]
    for slug, lines in deck.sections.items():
        if not lines:
            continue
        out.append(section_title(slug))
        out += [f"{line.count} {line.name}" for line in lines]
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
    root = ET.Element("cockatrice_deck", version="1")
    ET.SubElement(root, "deckname").text = deck.name
    ET.SubElement(root, "comments").text = deck.notes
    zones = dict(deck.sections)
    if deck.hero:
        # Cockatrice has no hero zone; a named zone keeps the hero through a round trip.
        zones = {"hero": [deck.hero], **zones}
    for slug, lines in zones.items():
        zone = ET.SubElement(root, "zone", name=slug)
        for line in lines:
            ET.SubElement(zone, "card", number=str(line.count), name=line.name)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


WRITERS = {"ydk": to_ydk, "ydke": to_ydke, "text": to_text, "csv": to_csv, "json": to_json, "cod": to_cod}
