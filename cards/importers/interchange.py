"""Deckhall's own interchange formats (JSON and CSV), documented in cards/README.md.

Both carry every stored field, so export → import is lossless and a spreadsheet round trip works.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from typing import Any

from .base import (
    COST_RANGE,
    LEVEL_RANGE,
    CardRecord,
    FileRejected,
    ParseResult,
    PrintingRecord,
    Progress,
    SetRecord,
    decode_text,
    load_json_file,
    loads_json,
    parse_bool,
    parse_int,
    validate_records,
)
from .messages import Message, kind, msg, reason_of

FORMAT_TAG = "deckhall-cards"
FORMAT_VERSION = 1
CSV_COLUMNS = [
    "external_id",
    "identity",
    "name",
    "card_type",
    "subtypes",
    "level",
    "cost",
    "text",
    "is_token",
    "deck_buildable",
    "printings",
]
REQUIRED_CSV_COLUMNS = {"external_id", "name"}
ATTR_PREFIX = "attr."


# --- encoding helpers -------------------------------------------------------------------------
def encode_cell(value: Any) -> str:
    """A spreadsheet-friendly cell: plain text stays plain; numbers, lists, null and text that would
    read back as something else are written as JSON, so decode_cell(encode_cell(v)) == v."""
    if isinstance(value, str):
        if value == "":
            return '""'
        try:
            loads_json(value)
        except ValueError:
            return value
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False)


def decode_cell(cell: str) -> Any:
    try:
        return loads_json(cell)
    except ValueError:
        return cell


# --- JSON -------------------------------------------------------------------------------------
def looks_like_json(data: bytes) -> bool:
    return data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in {b"{", b"["}


def parse_json(data: bytes, *, game_slug: str = "", progress: Progress | None = None) -> ParseResult:
    document = load_json_file(data)
    if not isinstance(document, dict) or not isinstance(document.get("cards"), list):
        raise FileRejected(msg("not_deckhall"), line=1)
    if not isinstance(document.get("sets") or [], list):
        raise FileRejected(msg("sets_not_list"), line=1, field_name="sets")
    if document.get("format", FORMAT_TAG) != FORMAT_TAG:
        raise FileRejected(msg("wrong_format_tag", tag=repr(FORMAT_TAG)), line=1, field_name="format")
    if document.get("game") and game_slug and document["game"] != game_slug:
        raise FileRejected(
            msg("file_for_other_game", file_game=repr(document["game"]), game=repr(game_slug)),
            line=1,
            field_name="game",
        )
    result = ParseResult(fmt="json")
    # JSON has no per-item line numbers after parsing; "line" here is the card's position (1-based)
    # in the "cards" list, which the message states.
    for index, raw in enumerate(document.get("sets") or [], start=1):
        if not isinstance(raw, dict) or not raw.get("code"):
            result.error(index, "sets", msg("set_needs_code", index=index))
            continue
        wrong = [key for key in ("code", "name", "set_type", "release_date") if not _is_text(raw.get(key))]
        if wrong:
            for key in wrong:
                result.error(
                    index, f"sets.{key}", msg("set_field_not_text", index=index, kind=kind(raw[key]))
                )
            continue
        result.sets[str(raw["code"])] = _set_from(raw, result, index)
    cards = document["cards"]
    for index, raw in enumerate(cards, start=1):
        if not isinstance(raw, dict):
            result.error(index, "", msg("card_not_object", index=index))
            continue
        record = _record_from(raw, result, index, printings_raw=raw.get("printings") or [])
        if record is not None:
            result.records.append(record)
        if progress and index % 1000 == 0:
            progress(index, len(cards))
    validate_records(result)
    return result


def _is_text(value: Any, *, numbers: bool = False) -> bool:
    """A text field may be absent/null or a string (an id may also be a whole number, e.g. a passcode)."""
    if value is None or isinstance(value, str):
        return True
    return numbers and isinstance(value, int) and not isinstance(value, bool)


def _set_from(raw: dict[str, Any], result: ParseResult, line: int) -> SetRecord:
    release = str(raw.get("release_date") or "")
    if release and not _is_date(release):
        result.error(line, "release_date", msg("not_a_date", value=repr(release)))
    return SetRecord(
        code=str(raw.get("code") or ""),
        name=str(raw.get("name") or ""),
        set_type=str(raw.get("set_type") or ""),
        release_date=release,
    )


def _is_date(text: str) -> bool:
    import datetime

    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10


def _record_from(
    raw: dict[str, Any], result: ParseResult, line: int, *, printings_raw: Any
) -> CardRecord | None:
    label = str(raw.get("name") or raw.get("external_id") or "")
    ok = True

    def err(field_name: str, reason: Message) -> None:
        nonlocal ok
        ok = False
        result.error(line, field_name, reason, label)

    missing = [key for key in ("external_id", "name") if raw.get(key) in (None, "")]
    for key in missing:
        err(key, msg("required"))
    for key in ("external_id", "identity", "name", "card_type", "text"):
        if not _is_text(raw.get(key), numbers=key in {"external_id", "identity"}):
            err(key, msg("not_text", kind=kind(raw[key])))
    numbers: dict[str, int | None] = {}
    for key, bounds in (("level", LEVEL_RANGE), ("cost", COST_RANGE)):
        try:
            numbers[key] = parse_int(raw.get(key), bounds=bounds)
        except ValueError as exc:
            err(key, reason_of(exc))
    flags: dict[str, bool] = {}
    for key, default in (("is_token", False), ("deck_buildable", True)):
        try:
            flags[key] = parse_bool(raw[key]) if key in raw and raw[key] not in (None, "") else default
        except ValueError as exc:
            err(key, reason_of(exc))
    subtypes = raw.get("subtypes") or []
    if not isinstance(subtypes, list) or not all(isinstance(item, str) for item in subtypes):
        err("subtypes", msg("not_list_of_text"))
    attributes = raw.get("attributes") or {}
    if not isinstance(attributes, dict):
        err("attributes", msg("not_object"))
    printings: list[PrintingRecord] = []
    if not isinstance(printings_raw, list):
        err("printings", msg("not_list"))
    else:
        for item in printings_raw:
            if not isinstance(item, dict) or not item.get("set"):
                err("printings", msg("printing_needs_set"))
                continue
            keys = ("set", "code", "rarity", "image_url", "set_name", "set_type", "release_date")
            wrong = [key for key in keys if not _is_text(item.get(key), numbers=key in {"set", "code"})]
            if wrong:
                for key in wrong:
                    err(f"printings.{key}", msg("not_text", kind=kind(item[key])))
                continue
            printings.append(
                PrintingRecord(
                    set_code=str(item["set"]),
                    code=str(item.get("code") or ""),
                    rarity=str(item.get("rarity") or ""),
                    image_url=str(item.get("image_url") or ""),
                )
            )
            if item.get("set_name") or item.get("release_date") or item.get("set_type"):
                # CSV rows carry the set's details inside the printing (no separate sets table).
                result.sets.setdefault(
                    str(item["set"]),
                    _set_from({**item, "code": item["set"], "name": item.get("set_name")}, result, line),
                )
    if not ok or missing:
        return None
    return CardRecord(
        external_id=str(raw["external_id"]),
        identity=str(raw.get("identity") or ""),
        name=str(raw["name"]),
        card_type=str(raw.get("card_type") or ""),
        subtypes=list(subtypes),
        level=numbers.get("level"),
        cost=numbers.get("cost"),
        attributes=dict(attributes),
        text=str(raw.get("text") or ""),
        is_token=flags.get("is_token", False),
        deck_buildable=flags.get("deck_buildable", True),
        printings=printings,
        line=line,
    )


# --- CSV --------------------------------------------------------------------------------------
def parse_csv(data: bytes, *, game_slug: str = "", progress: Progress | None = None) -> ParseResult:
    text = decode_text(data)
    result = ParseResult(fmt="csv")
    # Spreadsheets in many locales (Russian Excel among them) separate cells with ";", and Excel's
    # "Unicode text" uses tabs: take the separator that makes the header name the required columns.
    first_line = text.split("\n", 1)[0]
    delimiter = next(
        (
            d
            for d in (",", ";", "\t")
            if {c.strip().strip('"') for c in first_line.split(d)} >= REQUIRED_CSV_COLUMNS
        ),
        ",",
    )
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration as exc:
        raise FileRejected(msg("csv_empty")) from exc
    except csv.Error as exc:
        raise FileRejected(msg("malformed_csv", detail=str(exc)), line=1) from exc
    header = [column.strip() for column in header]
    missing = REQUIRED_CSV_COLUMNS - set(header)
    if missing:
        raise FileRejected(msg("missing_columns", columns=", ".join(sorted(missing))), line=1)
    repeated = sorted({c for c in header if c and header.count(c) > 1})
    if repeated:
        raise FileRejected(msg("repeated_columns", columns=", ".join(repeated)), line=1)
    known = set(CSV_COLUMNS)
    unknown = [c for c in header if c and c not in known and not c.startswith(ATTR_PREFIX)]
    if unknown:
        raise FileRejected(msg("unknown_columns", columns=", ".join(unknown), prefix=ATTR_PREFIX), line=1)
    rows = list(_rows(reader, result))
    for row_number, row in rows:
        if len(row) != len(header):
            result.error(row_number, "", msg("cell_count", cells=len(row), columns=len(header)))
            continue
        cells = dict(zip(header, row, strict=True))
        raw: dict[str, Any] = {key: value for key, value in cells.items() if not key.startswith(ATTR_PREFIX)}
        raw["attributes"] = {
            key[len(ATTR_PREFIX) :]: decode_cell(value)
            for key, value in cells.items()
            if key.startswith(ATTR_PREFIX) and value != ""
        }
        printings: Any = []
        for key in ("subtypes", "printings"):
            value = raw.get(key, "")
            if value == "":
                raw[key] = []
            elif key == "subtypes" and not value.lstrip().startswith("["):
                raw[key] = [part.strip() for part in value.split("|") if part.strip()]
            else:
                try:
                    raw[key] = loads_json(value)
                except ValueError:
                    result.error(row_number, key, msg("not_json_list"), cells.get("name", ""))
                    raw[key] = None
        printings = raw.pop("printings")
        if raw["subtypes"] is None or printings is None:
            continue
        record = _record_from(raw, result, row_number, printings_raw=printings)
        if record is not None:
            result.records.append(record)
        if progress and row_number % 1000 == 0:
            progress(row_number, len(rows))
    validate_records(result)
    return result


def _rows(reader: Any, result: ParseResult) -> Iterable[tuple[int, list[str]]]:
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise FileRejected(msg("malformed_csv", detail=str(exc)), line=reader.line_num) from exc
        if any(cell.strip() for cell in row):
            yield reader.line_num, row


# --- export -----------------------------------------------------------------------------------
def record_to_dict(record: CardRecord) -> dict[str, Any]:
    return {
        "external_id": record.external_id,
        "identity": record.identity,
        "name": record.name,
        "card_type": record.card_type,
        "subtypes": record.subtypes,
        "level": record.level,
        "cost": record.cost,
        "attributes": record.attributes,
        "text": record.text,
        "is_token": record.is_token,
        "deck_buildable": record.deck_buildable,
        "printings": [
            {"set": p.set_code, "code": p.code, "rarity": p.rarity, "image_url": p.image_url}
            for p in record.printings
        ],
    }


def dump_json(*, game_slug: str, records: list[CardRecord], sets: list[SetRecord]) -> bytes:
    document = {
        "format": FORMAT_TAG,
        "version": FORMAT_VERSION,
        "game": game_slug,
        "sets": [
            {"code": s.code, "name": s.name, "set_type": s.set_type, "release_date": s.release_date or None}
            for s in sets
        ],
        "cards": [record_to_dict(record) for record in records],
    }
    return json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")


def dump_csv(*, records: list[CardRecord], sets: list[SetRecord]) -> bytes:
    by_code = {s.code: s for s in sets}
    attr_keys = sorted({key for record in records for key in record.attributes})
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS + [ATTR_PREFIX + key for key in attr_keys])
    for record in records:
        printings = []
        for p in record.printings:
            item: dict[str, Any] = {
                "set": p.set_code,
                "code": p.code,
                "rarity": p.rarity,
                "image_url": p.image_url,
            }
            card_set = by_code.get(p.set_code)
            if card_set is not None:
                item |= {
                    "set_name": card_set.name,
                    "set_type": card_set.set_type,
                    "release_date": card_set.release_date or None,
                }
            printings.append(item)
        row = [
            record.external_id,
            record.identity,
            record.name,
            record.card_type,
            json.dumps(record.subtypes, ensure_ascii=False) if record.subtypes else "",
            "" if record.level is None else str(record.level),
            "" if record.cost is None else str(record.cost),
            record.text,
            "true" if record.is_token else "false",
            "true" if record.deck_buildable else "false",
            json.dumps(printings, ensure_ascii=False) if printings else "",
        ]
        row += [
            "" if key not in record.attributes else encode_cell(record.attributes[key]) for key in attr_keys
        ]
        writer.writerow(row)
    return out.getvalue().encode("utf-8")
