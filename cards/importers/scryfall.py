"""Scryfall bulk data (https://scryfall.com/docs/api/bulk-data): default-cards, oracle-cards, all-cards and
unique-artwork are one JSON array of card objects, read as a stream with ijson (150+ MB files).

A card object is one printing: ``name`` ("Fire // Ice"), ``layout``, ``mana_cost``, ``cmc``, ``type_line``,
``oracle_text``, ``power``/``toughness``/``loyalty``/``defense``, ``colors``, ``color_identity``,
``keywords``, ``legalities`` (format → legal/not_legal/banned/restricted), ``set`` (lower case: "m20"; kept
upper case, as MTGJSON and Cockatrice write codes), ``set_name``, ``set_type``, ``released_at``,
``collector_number``, ``rarity``, ``lang``, ``image_uris`` and, for multi-faced cards, ``card_faces`` (each
with its own name, cost, type line, text and, on double-faced cards, its own ``image_uris``).
"""

from __future__ import annotations

import io
from typing import IO, Any

import ijson

from .base import FileRejected, ParseResult, Progress, validate_records
from .magic import (
    NOT_DECK_CARDS,
    Collector,
    CountingReader,
    Face,
    Printing,
    file_size,
    legal_words,
    number_of,
    strings,
    text_of,
)
from .messages import msg


def looks_like(data: bytes) -> bool:
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"[") and b'"object"' in head and (b'"card"' in head or b'"scryfall_uri"' in head)


def parse(data: bytes, *, game_slug: str = "", progress: Progress | None = None) -> ParseResult:
    return parse_stream(io.BytesIO(data), size=len(data), progress=progress)


def parse_stream(
    handle: IO[bytes], *, size: int | None = None, progress: Progress | None = None
) -> ParseResult:
    if size is None:
        size = file_size(handle)
    result = ParseResult(fmt="scryfall")
    collector = Collector(result)
    reader = CountingReader(handle, size, progress)
    try:
        for position, card in enumerate(ijson.items(reader, "item", use_float=True), start=1):
            if not isinstance(card, dict) or card.get("object", "card") != "card":
                result.error(position, "object", msg("card_not_object", index=position))
                continue
            _add(card, collector, position)
    except ijson.JSONError as exc:
        raise FileRejected(msg("malformed_json", detail=str(exc)[:200], column="?")) from exc
    if not collector.printings and not result.errors:
        raise FileRejected(msg("no_cards"))
    collector.finish()
    validate_records(result)
    return result


def _picture(uris: Any) -> str:
    if not isinstance(uris, dict):
        return ""
    return text_of(uris.get("normal") or uris.get("large") or uris.get("png") or "")


def _add(card: dict[str, Any], collector: Collector, position: int) -> None:
    raw_faces = [face for face in card.get("card_faces") or [] if isinstance(face, dict)]
    source = raw_faces or [card]
    faces = [
        Face(
            name=text_of(face.get("name")),
            mana_cost=text_of(face.get("mana_cost")),
            type_line=text_of(face.get("type_line")),
            text=text_of(face.get("oracle_text")),
            power=text_of(face.get("power")),
            toughness=text_of(face.get("toughness")),
            loyalty=text_of(face.get("loyalty")),
            defense=text_of(face.get("defense")),
        )
        for face in source
    ]
    set_code = text_of(card.get("set")).upper()
    layout = text_of(card.get("layout")) or "normal"
    if layout not in NOT_DECK_CARDS:  # a token's set ("TELD") is no set of deck cards
        collector.add_set(
            set_code,
            text_of(card.get("set_name")),
            text_of(card.get("set_type")),
            text_of(card.get("released_at")),
        )
    # Double-faced cards keep a picture per face and none on the card.
    image = _picture(card.get("image_uris")) or next(
        (url for url in (_picture(face.get("image_uris")) for face in raw_faces) if url), ""
    )
    colors = card.get("colors")
    if colors is None and raw_faces:
        colors = raw_faces[0].get("colors")
    collector.add(
        Printing(
            name=text_of(card.get("name")),
            layout=layout,
            faces=faces,
            mana_value=number_of(card.get("cmc")),
            colors=strings(colors),
            color_identity=strings(card.get("color_identity")),
            keywords=strings(card.get("keywords")),
            legalities=legal_words(card.get("legalities")),
            languages=[text_of(card.get("lang"))] if card.get("lang") else [],
            set_code=set_code,
            number=text_of(card.get("collector_number")),
            rarity=text_of(card.get("rarity")),
            image_url=image,
            position=position,
            extra={"online_only": True} if card.get("digital") else {},
        )
    )
