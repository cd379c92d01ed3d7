"""MTGJSON files (https://mtgjson.com): AllPrintings.json, a per-set file (M20.json) and AtomicCards.json,
read as a stream with ijson: never the whole file in memory.

Every MTGJSON file is ``{"meta": {"date", "version"}, "data": …}``; what ``data`` holds tells the three apart:

* AllPrintings: set code → Set (``name``, ``releaseDate``, ``type``, ``cards``: one object per face of each
  printing, ``tokens``). One set is in memory at a time.
* a per-set file: ``data`` is one Set.
* AtomicCards: card name → list of faces (no set, number or rarity; ``printings`` lists the set codes).

A card's faces share ``name`` ("Fire // Ice") and the printing's ``number``; ``faceName`` and ``side``
("a", "b") tell them apart. Pictures are Scryfall's, by ``identifiers.scryfallId``; languages are the
printing's ``language`` and its ``foreignData`` languages; legalities are MTGJSON's words, lowercased.
"""

from __future__ import annotations

import io
from typing import IO, Any

import ijson

from .base import FileRejected, ParseResult, Progress, validate_records
from .magic import (
    FRONT_FACES,
    Collector,
    CountingReader,
    Face,
    Printing,
    file_size,
    legal_words,
    number_of,
    picture_url,
    strings,
    text_of,
)
from .messages import msg


def looks_like(data: bytes) -> bool:
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"{") and b'"meta"' in head and b'"data"' in head and b'"version"' in head


def parse(data: bytes, *, game_slug: str = "", progress: Progress | None = None) -> ParseResult:
    return parse_stream(io.BytesIO(data), size=len(data), progress=progress)


def parse_stream(
    handle: IO[bytes], *, size: int | None = None, progress: Progress | None = None
) -> ParseResult:
    if size is None:
        size = file_size(handle)
    result = ParseResult(fmt="mtgjson")
    shape = _shape(handle)
    handle.seek(0)
    reader = CountingReader(handle, size, progress)
    collector = Collector(result)
    try:
        if shape == "sets":
            for _code, card_set in ijson.kvitems(reader, "data", use_float=True):
                if isinstance(card_set, dict):
                    _read_set(card_set, collector)
        elif shape == "set":
            for key, value in ijson.kvitems(reader, "data", use_float=True):
                # Keys come sorted ("cards" before "code" and "name"): the set's details are kept as they pass.
                _set_detail(collector, key, value)
        elif shape == "atomic":
            for name, faces in ijson.kvitems(reader, "data", use_float=True):
                if isinstance(faces, list):
                    _read_atomic(name, faces, collector)
        else:
            raise FileRejected(msg("mtgjson_unknown_shape"))
    except ijson.JSONError as exc:
        raise FileRejected(msg("malformed_json", detail=str(exc)[:200], column="?")) from exc
    collector.finish()
    validate_records(result)
    return result


def _shape(handle: IO[bytes]) -> str:
    """ "sets" (AllPrintings), "set" (one set's file) or "atomic" (AtomicCards), from the first key under
    "data": a set code's value is a Set object, a card name's a list of faces, a Set's own first key a
    scalar ("baseSetSize")."""
    handle.seek(0)
    seen_key = False
    try:
        for prefix, event, _value in ijson.parse(handle):
            if not seen_key:
                if prefix == "data" and event == "map_key":
                    seen_key = True
                continue
            if event == "start_map":
                return "sets"
            if event == "start_array":
                return "atomic"
            return "set"
    except ijson.JSONError as exc:
        raise FileRejected(msg("malformed_json", detail=str(exc)[:200], column="?")) from exc
    raise FileRejected(msg("mtgjson_unknown_shape"))


def _set_detail(collector: Collector, key: str, value: Any) -> None:
    details = getattr(collector, "_set_details", {})
    collector._set_details = details  # type: ignore[attr-defined]
    if key == "cards" and isinstance(value, list):
        _read_cards(value, collector, details)
    elif key in {"code", "name", "releaseDate", "type"} and isinstance(value, str):
        details[key] = value
        if "code" in details:
            collector.add_set(
                details["code"],
                details.get("name", ""),
                details.get("type", ""),
                details.get("releaseDate", ""),
            )


def _read_set(card_set: dict[str, Any], collector: Collector) -> None:
    details = {key: text_of(card_set.get(key)) for key in ("code", "name", "type", "releaseDate")}
    collector.add_set(details["code"], details["name"], details["type"], details["releaseDate"])
    cards = card_set.get("cards")
    if isinstance(cards, list):
        _read_cards(cards, collector, details)


def _read_cards(cards: list[Any], collector: Collector, details: dict[str, str]) -> None:
    """The faces of one set's printings, grouped into printings by (name, number)."""
    printings: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for card in cards:
        if isinstance(card, dict):
            key = (text_of(card.get("name")), text_of(card.get("number")))
            printings.setdefault(key, []).append(card)
    for faces in printings.values():
        faces.sort(key=lambda face: text_of(face.get("side")) or "a")
        front = faces[0]
        set_code = text_of(front.get("setCode")) or details.get("code", "")
        identifiers = front.get("identifiers") if isinstance(front.get("identifiers"), dict) else {}
        collector.add(
            _printing(
                front,
                faces,
                set_code=set_code,
                number=text_of(front.get("number")),
                rarity=text_of(front.get("rarity")),
                image_url=picture_url(text_of(identifiers.get("scryfallId"))),
                position=collector.printings + 1,
            )
        )


def _read_atomic(name: str, faces: list[Any], collector: Collector) -> None:
    faces = [face for face in faces if isinstance(face, dict)]
    if not faces:
        return
    faces.sort(key=lambda face: text_of(face.get("side")) or "a")
    printing = _printing(faces[0], faces, set_code="", position=collector.printings + 1)
    printing.name = printing.name or name
    collector.add(printing)
    record = collector.cards.get(printing.name)
    # AtomicCards has no numbers or rarities: the sets a card was printed in still say where it is from.
    # Kept as an attribute, not as printings: the file speaks for no set's printings (importing it must not
    # take the printings an AllPrintings or Cockatrice import gave these cards).
    if record is not None:
        codes = strings(faces[0].get("printings"))
        if codes:
            record.attributes["printings"] = codes


def _colors(faces: list[dict[str, Any]]) -> list[str]:
    order = "WUBRG"
    found = {color for face in faces for color in strings(face.get("colors"))}
    return sorted(found, key=lambda color: (order.find(color) % 10 if color in order else 9, color))


def _printing(front: dict[str, Any], faces: list[dict[str, Any]], *, set_code: str, **where: Any) -> Printing:
    languages = {text_of(front.get("language"))} if front.get("language") else set()
    if set_code == "" and not languages:
        languages = {"English"}  # AtomicCards: the Oracle card is English, with its foreign names
    for foreign in front.get("foreignData") or []:
        if isinstance(foreign, dict) and foreign.get("language"):
            languages.add(text_of(foreign["language"]))
    many = len(faces) > 1
    layout = text_of(front.get("layout")) or "normal"
    return Printing(
        name=text_of(front.get("name")),
        layout=layout,
        faces=[
            Face(
                name=text_of(face.get("faceName")) or text_of(face.get("name"))
                if many
                else text_of(face.get("name")),
                mana_cost=text_of(face.get("manaCost")),
                type_line=text_of(face.get("type")),
                text=text_of(face.get("text")),
                power=text_of(face.get("power")),
                toughness=text_of(face.get("toughness")),
                loyalty=text_of(face.get("loyalty")),
                defense=text_of(face.get("defense")),
            )
            for face in faces
        ],
        mana_value=number_of(front.get("manaValue", front.get("convertedManaCost"))),
        # A split or adventure card is every colour of its faces (MTGJSON gives each face its own).
        colors=_colors(faces) if layout in FRONT_FACES else strings(front.get("colors")),
        color_identity=strings(front.get("colorIdentity")),
        keywords=strings(front.get("keywords")),
        legalities=legal_words(front.get("legalities")),
        languages=sorted(languages),
        set_code=set_code,
        extra={"online_only": True} if front.get("isOnlineOnly") else {},
        **where,
    )
