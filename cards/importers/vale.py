"""The Vale of Eternity card list (shared/data/vale/cards.json): name, family, cost, effects."""

from __future__ import annotations

from typing import Any

from .base import (
    COST_RANGE,
    CardRecord,
    FileRejected,
    ParseResult,
    Progress,
    load_json_file,
    parse_int,
    validate_records,
)
from .messages import kind, msg, reason_of

EFFECT_TYPES = {"instant", "permanent", "active"}
FAMILIES = {"fire", "water", "earth", "wind", "dragon"}


def looks_like(data: bytes) -> bool:
    head = data[:4096]
    # A Deckhall export of the vale game also mentions "family" and "effects" (as attributes); it
    # names its format at the top, and must be read as Deckhall JSON.
    if b'"deckhall-cards"' in head:
        return False
    return (
        head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{") and b'"family"' in data and b'"effects"' in data
    )


def parse(data: bytes, *, game_slug: str = "", progress: Progress | None = None) -> ParseResult:
    document = load_json_file(data)
    cards = document.get("cards") if isinstance(document, dict) else document
    if not isinstance(cards, list):
        raise FileRejected(msg("not_vale"), line=1)
    result = ParseResult(fmt="vale")
    for index, raw in enumerate(cards, start=1):
        record = _card(raw, index, result)
        if record is not None:
            result.records.append(record)
    if progress:
        progress(len(cards), len(cards))
    validate_records(result)
    return result


def _card(raw: Any, index: int, result: ParseResult) -> CardRecord | None:
    if not isinstance(raw, dict):
        result.error(index, "", msg("card_not_object", index=index))
        return None
    errors_before = len(result.errors)
    name = raw.get("name") or ""
    if not isinstance(name, str):
        result.error(index, "name", msg("not_text", kind=kind(name)))
        name = ""
    elif not name:
        result.error(index, "name", msg("required"))
    family = raw.get("family")
    if not isinstance(family, str) or family not in FAMILIES:
        result.error(
            index, "family", msg("not_one_of", value=repr(family), choices=", ".join(sorted(FAMILIES))), name
        )
    cost = None
    try:
        cost = parse_int(raw.get("cost"), bounds=COST_RANGE)
    except ValueError as exc:
        result.error(index, "cost", reason_of(exc), name)
    effects = raw.get("effects") or []
    if not isinstance(effects, list):
        result.error(index, "effects", msg("not_list"), name)
        effects = []
    clean_effects = []
    for effect in effects:
        if (
            not isinstance(effect, dict)
            or not isinstance(effect.get("type"), str)
            or effect["type"] not in EFFECT_TYPES
        ):
            result.error(
                index, "effects.type", msg("effect_needs_type", types=", ".join(sorted(EFFECT_TYPES))), name
            )
            continue
        if not isinstance(effect.get("text") or "", str):
            result.error(index, "effects.text", msg("must_be_text"), name)
            continue
        clean_effects.append({"type": effect["type"], "text": str(effect.get("text") or "")})
    if len(result.errors) > errors_before:
        return None
    effect_types = list(dict.fromkeys(effect["type"] for effect in clean_effects))
    return CardRecord(
        external_id=name,
        identity=name,
        name=name,
        card_type="creature",
        cost=cost,
        attributes={"family": family, "effect_types": effect_types, "effects": clean_effects},
        text="\n".join(effect["text"] for effect in clean_effects),
        line=index,
    )
