"""Cockatrice card-database XML, versions 3 and 4.

Parsed with defusedxml's SAX reader: entity declarations (billion laughs) and external
entities are refused, and the SAX locator gives the line of every card for error messages.
"""

from __future__ import annotations

import contextlib
import math
import re
import xml.sax
import xml.sax.handler
from dataclasses import dataclass
from datetime import date
from typing import Any

import defusedxml
import defusedxml.sax

from .base import (
    COST_RANGE,
    CardRecord,
    FileRejected,
    ParseResult,
    PrintingRecord,
    Progress,
    SetRecord,
    decode_text,
    parse_int,
    validate_records,
)
from .messages import ReasonError, msg, reason_of

# ``(?<!\s)``: the name ends where the blanks begin, so the blanks are scanned once (linear in the line).
CASTER_LEVEL_RE = re.compile(r"^(?P<name>.+?)(?<!\s)\s+Lv\s?(?P<level>\d+)$")
XML_DECL_RE = re.compile(rb"^(\xef\xbb\xbf)?<\?xml[^>]*?encoding=['\"](?P<enc>[A-Za-z0-9._-]+)['\"][^>]*\?>")
# Child elements whose text we keep (v3 at card level, v4 inside <prop>).
TEXT_FIELDS = {
    "name",
    "text",
    "type",
    "maintype",
    "manacost",
    "cmc",
    "pt",
    "loyalty",
    "token",
    "tablerow",
    "layout",
    "side",
    "color",
    "colors",
    "coloridentity",
    "cipt",
    "upsidedown",
}
SET_FIELDS = {"name", "longname", "settype", "releasedate"}
TYPE_SEPARATOR_RE = re.compile(r"(?<!\s)\s+[—–-]\s+")
# Words of a type line that qualify the type rather than name one (MTG's supertypes, and the
# Un-sets' "Host"); Cockatrice type lines are MTG's, and other games' lines do not use these words.
SUPERTYPES = frozenset({"basic", "legendary", "snow", "world", "ongoing", "elite", "host"})
# Which type names a multi-type card ("Artifact Creature" is a creature), as Magic-Spoiler's v4
# <maintype> does; a type not listed here is taken in the order written.
MAIN_TYPE_ORDER = [
    "creature",
    "planeswalker",
    "battle",
    "land",
    "instant",
    "sorcery",
    "artifact",
    "enchantment",
]


@dataclass
class TypeLine:
    card_type: str
    supertypes: list[str]
    types: list[str]
    subtypes: list[str]


def looks_like(data: bytes) -> bool:
    head = data[:2048].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"<") and b"cockatrice_carddatabase" in data[:4096]


def _to_utf8(data: bytes) -> bytes:
    """Decode with the declared encoding ourselves: expat only knows a few encoding names
    (real files say encoding='UTF8'), and a wrong encoding deserves a message naming the line."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        # UTF-16 with a byte-order mark: decode by the mark and drop the declared name with it.
        text = decode_text(data)
        return re.sub(r"^(<\?xml[^>]*?encoding=['\"])[A-Za-z0-9._-]+", r"\1UTF-8", text).encode("utf-8")
    match = XML_DECL_RE.match(data)
    encoding = match.group("enc").decode() if match else "utf-8"
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode(encoding)
    except LookupError as exc:
        raise FileRejected(msg("xml_unknown_encoding", encoding=repr(encoding))) from exc
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise FileRejected(
            msg("xml_not_encoding", encoding=encoding, byte=f"{data[exc.start]:#x}"), line=line
        ) from exc
    if match:
        start, end = match.span("enc")
        offset = 3 if match.group(1) else 0
        text = text[: start - offset] + "UTF-8" + text[end - offset :]
    return text.encode("utf-8")


class _Handler(xml.sax.handler.ContentHandler):
    def __init__(self) -> None:
        super().__init__()
        self.locator: Any = None
        self.version: int | None = None
        self.stack: list[str] = []
        self.buffer: list[str] = []
        self.cards: list[dict[str, Any]] = []
        self.sets: list[dict[str, str]] = []
        self.current: dict[str, Any] | None = None
        self.current_set: dict[str, str] | None = None
        self.set_attrs: dict[str, str] = {}

    def setDocumentLocator(self, locator: Any) -> None:
        self.locator = locator

    def _line(self) -> int | None:
        return self.locator.getLineNumber() if self.locator else None

    def startElement(self, name: str, attrs: Any) -> None:
        parent = self.stack[-1] if self.stack else None
        self.stack.append(name)
        self.buffer = []
        if name == "cockatrice_carddatabase":
            self.version = parse_int(attrs.get("version")) if attrs.get("version", "").isdecimal() else None
        elif name == "card" and parent == "cards":
            self.current = {"line": self._line(), "sets": [], "colors": [], "related": []}
        elif name == "set" and parent == "sets":
            self.current_set = {"line": str(self._line())}
        elif name == "set" and self.current is not None:
            self.set_attrs = {key: attrs.get(key) for key in attrs.getNames()}

    def characters(self, content: str) -> None:
        self.buffer.append(content)

    def endElement(self, name: str) -> None:
        text = "".join(self.buffer).strip()
        self.buffer = []
        self.stack.pop()
        parent = self.stack[-1] if self.stack else None
        if self.current_set is not None:
            if name == "set" and parent == "sets":
                self.sets.append(self.current_set)
                self.current_set = None
            elif name in SET_FIELDS:
                self.current_set[name] = text
            return
        if self.current is None:
            return
        if name == "card" and parent == "cards":
            self.cards.append(self.current)
            self.current = None
        elif name == "set":
            self.current["sets"].append((text, self.set_attrs))
            self.set_attrs = {}
        elif name in {"color", "colors"}:
            if text:
                self.current["colors"].extend(
                    part.strip() for part in re.split(r"[,;]", text) if part.strip()
                )
        elif name in {"related", "reverse-related"}:
            if text:
                self.current["related"].append(text)
        elif name in TEXT_FIELDS and parent in {"card", "prop"}:
            self.current[name] = text
        elif parent == "prop" and text:
            # v4 lets a game define its own properties (a faction, a rarity...): keep them as attributes.
            self.current.setdefault("props", {})[name] = text


def parse(data: bytes, *, game_slug: str = "", progress: Progress | None = None) -> ParseResult:
    result = ParseResult(fmt="cockatrice")
    utf8 = _to_utf8(data)
    handler = _Handler()
    try:
        defusedxml.sax.parseString(
            utf8, handler, forbid_dtd=False, forbid_entities=True, forbid_external=True
        )
    except defusedxml.DefusedXmlException as exc:
        raise FileRejected(msg("xml_entities", detail=str(exc))) from exc
    except xml.sax.SAXParseException as exc:
        raise FileRejected(
            msg("malformed_xml", detail=exc.getMessage(), column=exc.getColumnNumber()),
            line=exc.getLineNumber(),
        ) from exc
    if handler.version not in {3, 4}:
        raise FileRejected(msg("not_cockatrice", version=repr(handler.version)), line=1)
    for raw in handler.sets:
        code = raw.get("name", "")
        if not code:
            result.error(parse_int(raw.get("line")), "set.name", msg("set_no_name"))
            continue
        release = _release_date(raw.get("releasedate", "").strip())
        if release is None:
            result.error(
                parse_int(raw.get("line")),
                "set.releasedate",
                msg("not_a_date", value=repr(raw["releasedate"])),
            )
            release = ""
        result.sets[code] = SetRecord(
            code=code, name=raw.get("longname", ""), set_type=raw.get("settype", ""), release_date=release
        )
    total = len(handler.cards)
    # A file that separates subtypes with "/" anywhere keeps multi-word subtypes ("Heroic Spirit").
    slash_subtypes = any(
        "/" in _partition(face)[2] for raw in handler.cards for face in raw.get("type", "").split("//")
    )
    by_name: dict[str, CardRecord] = {}
    for index, raw in enumerate(handler.cards, start=1):
        record = _card(raw, result, slash_subtypes=slash_subtypes)
        if record is not None:
            first = by_name.get(record.external_id)
            if first is None:
                by_name[record.external_id] = record
                result.records.append(record)
            else:
                _merge_printings(first, record)
        if progress and index % 500 == 0:
            progress(index, total)
    validate_records(result)
    return result


def _merge_printings(first: CardRecord, again: CardRecord) -> None:
    """Magic-Spoiler files repeat a card once per printing (another artwork, the back face of a
    double-faced card): the first entry is the card, every later one adds its printings."""
    for printing in again.printings:
        if printing not in first.printings:
            first.printings.append(printing)


def _words(text: str) -> list[str]:
    return [word.casefold() for word in text.split()]


def _type_line(type_line: str, maintype: str, *, slash_subtypes: bool) -> TypeLine:
    """Split a type line (each face of "A // B") into supertypes, types and subtypes.

    The separator is an em dash, en dash or hyphen between spaces ("Creature — Human Monk"). Subtypes
    are words ("Human", "Monk") unless the file separates them with "/" ("Heroic Spirit/Genji"), as
    Caster files do. With a v4 <maintype> and no separator, the whole type text is the subtype (Duel
    Masters puts the race "Fire Bird" in <type> and "Creature" in <maintype>).
    """
    supertypes: list[str] = []
    types: list[str] = []
    subtypes: list[str] = []
    for face in (part.strip() for part in type_line.split("//")):
        if not face:
            continue
        left, separator, right = _partition(face)
        if not separator and maintype and face.casefold() != maintype.casefold():
            left, right = maintype, face
        if right and (slash_subtypes or "/" in right or not separator):
            faces_subtypes = [part.strip().casefold() for part in right.split("/") if part.strip()]
        else:
            faces_subtypes = _words(right)
        for word in _words(left):
            target = supertypes if word in SUPERTYPES else types
            if word not in target:
                target.append(word)
        subtypes += [sub for sub in faces_subtypes if sub not in subtypes]
    if maintype:
        card_type = maintype.strip().casefold()
    else:
        # A game of its own words ("Weapon Card") keeps its whole type as written.
        card_type = next((t for t in MAIN_TYPE_ORDER if t in types), " ".join(types))
    return TypeLine(card_type, supertypes, types, subtypes)


def _partition(face: str) -> tuple[str, str, str]:
    match = TYPE_SEPARATOR_RE.search(face)
    if match is None:
        return face, "", ""
    return face[: match.start()].strip(), match.group(0), face[match.end() :].strip()


def _mana_value(text: str) -> float:
    """A Cockatrice <cmc>: "3", "2.0", "0.5" (Un-sets) or "6 // 6" (split and adventure cards: the
    first face's value, what the card has in every zone but the stack). Raises ReasonError."""
    first = text.split("//")[0].strip()
    if not re.fullmatch(r"\d{1,6}(\.\d{1,6})?", first):
        raise ReasonError(msg("not_a_mana_value", value=repr(text[:40])))
    value = float(first)
    if not COST_RANGE[0] <= value <= COST_RANGE[1]:
        raise ReasonError(msg("out_of_range", value=first, min=COST_RANGE[0], max=COST_RANGE[1]))
    return value


def _card(raw: dict[str, Any], result: ParseResult, *, slash_subtypes: bool) -> CardRecord | None:
    line = raw["line"]
    full_name = raw.get("name", "")
    type_text = raw.get("type", "")
    if type_text.casefold().startswith("soul bond servant"):
        # "Soul Bond Servant - Spirit Form": a servant that the provisional extra deck accepts.
        parsed = _type_line("Servant" + type_text[len("soul bond servant") :], "", slash_subtypes=True)
        parsed.subtypes.insert(0, "soul bond")
    else:
        parsed = _type_line(type_text, raw.get("maintype", ""), slash_subtypes=slash_subtypes)
    main, subtypes = parsed.card_type, parsed.subtypes
    is_token = raw.get("token", "") in {"1", "true"}
    card_type = main or ("token" if is_token else "")

    name, level, identity = full_name, None, full_name
    match = CASTER_LEVEL_RE.match(full_name)
    if match and card_type == "caster":
        name, level = match.group("name"), int(match.group("level"))
        identity = f"{name}|Lv{level}"

    attributes: dict[str, Any] = {}
    colors = raw["colors"]
    if len(colors) == 1:
        attributes["color"] = colors[0]
    elif colors:
        attributes["color"] = colors
    cost = None
    if raw.get("cmc"):
        try:
            mana_value = _mana_value(raw["cmc"])
        except ValueError as exc:
            result.error(line, "cmc", reason_of(exc), full_name)
            return None
        cost = math.floor(mana_value)
        if mana_value != cost or "//" in raw["cmc"]:
            attributes["cmc"] = raw["cmc"] if "//" in raw["cmc"] else mana_value
    elif raw.get("manacost"):
        # Games whose cost is a plain number write it only as <manacost>; MTG symbols ("2U") are not one.
        with contextlib.suppress(ValueError):
            cost = parse_int(raw["manacost"], bounds=COST_RANGE)
    if parsed.types and (parsed.supertypes or len(parsed.types) > 1 or parsed.types != [card_type]):
        attributes["types"] = parsed.types
    if parsed.supertypes:
        attributes["supertypes"] = parsed.supertypes
    if type_text and type_text.casefold() != card_type:
        # The type line as printed, however long: card_type holds only the main type.
        attributes["type_line"] = type_text
    manacost = raw.get("manacost", "")
    if manacost and manacost != str(cost):
        attributes["manacost"] = manacost
    pt = raw.get("pt", "")
    if pt:
        power, _, toughness = pt.partition("/")
        if power.strip().lstrip("-").isdecimal() and toughness.strip().lstrip("-").isdecimal():
            attributes["power"], attributes["toughness"] = int(power), int(toughness)
        else:
            attributes["pt"] = pt
    for key in ("loyalty", "layout", "side", "coloridentity"):
        if raw.get(key) and raw[key] != "None":  # Magic-Spoiler writes <loyalty>None</loyalty>
            attributes[key] = raw[key]
    if raw["related"]:
        attributes["related"] = raw["related"]
    for key, value in raw.get("props", {}).items():
        # Attribute names are letters, digits and _ (searchable as attr.<key>): "format-standard" → format_standard.
        clean = re.sub(r"[^A-Za-z0-9_]", "_", key)[:40]
        clean = clean if re.match(r"[A-Za-z_]", clean) else f"p_{clean}"[:40]
        attributes.setdefault(clean, int(value) if re.fullmatch(r"-?\d{1,9}", value) else value)

    printings = []
    for set_code, attrs in raw["sets"]:
        if not set_code:
            result.error(line, "set", msg("empty_set_element"), full_name)
            continue
        url = attrs.get("picURL") or attrs.get("picurl") or ""
        printings.append(
            PrintingRecord(
                set_code=set_code,
                code=attrs.get("num", "") or "",
                rarity=attrs.get("rarity", "") or "",
                image_url=url,
            )
        )
    return CardRecord(
        external_id=full_name,
        identity=identity,
        name=name,
        card_type=card_type,
        subtypes=subtypes,
        level=level,
        cost=cost,
        attributes=attributes,
        text=raw.get("text", ""),
        is_token=is_token,
        deck_buildable=not is_token,
        printings=printings,
        line=line,
    )


def _release_date(text: str) -> str | None:
    """A set's date as YYYY-MM-DD, "" when none is given, None when it is no date. Cockatrice files written
    by hand or by older tools drop the leading zeros ("2022-4-11"), and Cockatrice reads them."""
    if not text:
        return ""
    match = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", text)
    if match is None:
        return None
    try:
        return date(*(int(part) for part in match.groups())).isoformat()
    except ValueError:
        return None
