"""Plain records every importer produces, and the shared validation of them.

Parsers never touch the database: they turn bytes into `CardRecord`s and collect *every* problem
as an `ImportIssue` (line/row, field, reason) so a user can fix a whole file in one go.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# Generous bounds: real games stay far below them, so anything outside is a broken file, not data.
LEVEL_RANGE = (0, 1000)
COST_RANGE = (0, 100_000)
MAX_NAME = 200
MAX_EXTERNAL_ID = 120
MAX_IDENTITY = 200
MAX_CARD_TYPE = 40
MAX_TEXT = 20_000
ATTRIBUTE_KEY_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")
MAX_SET_CODE = 40
MAX_SET_NAME = 200
MAX_SET_TYPE = 40
MAX_RARITY = 40
MAX_PRINTING_CODE = 60
MAX_IMAGE_URL = 500

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class ImportIssue:
    """One problem in an input file. `line` is the file's line (XML, JSON) or row (CSV, .cdb: card id)."""

    line: int | None
    field: str
    reason: str
    card: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "field": self.field, "reason": self.reason, "card": self.card}

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line is not None else "file"
        who = f" ({self.card})" if self.card else ""
        what = f", field '{self.field}'" if self.field else ""
        return f"{where}{who}{what}: {self.reason}"


@dataclass
class PrintingRecord:
    set_code: str
    code: str = ""
    rarity: str = ""
    image_url: str = ""


@dataclass
class SetRecord:
    code: str
    name: str = ""
    set_type: str = ""
    release_date: str = ""  # ISO date or ""


@dataclass
class CardRecord:
    external_id: str
    name: str
    identity: str = ""
    card_type: str = ""
    subtypes: list[str] = field(default_factory=list)
    level: int | None = None
    cost: int | None = None
    attributes: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    is_token: bool = False
    deck_buildable: bool = True
    printings: list[PrintingRecord] = field(default_factory=list)
    line: int | None = None  # where the record starts in the source, for error messages

    @property
    def search_name(self) -> str:
        return self.name.casefold()


@dataclass
class ParseResult:
    fmt: str
    records: list[CardRecord] = field(default_factory=list)
    sets: dict[str, SetRecord] = field(default_factory=dict)
    errors: list[ImportIssue] = field(default_factory=list)

    def error(self, line: int | None, field_name: str, reason: str, card: str = "") -> None:
        self.errors.append(ImportIssue(line, field_name, reason, card))


class FileRejected(Exception):
    """The file as a whole is unusable (corrupt, wrong encoding, wrong format): nothing to import."""

    def __init__(self, reason: str, line: int | None = None, field_name: str = "") -> None:
        super().__init__(reason)
        self.issue = ImportIssue(line, field_name, reason)


def decode_text(data: bytes, *, default: str = "utf-8") -> str:
    """Text from bytes: a UTF-8 or UTF-16 byte-order mark wins (Excel's "Unicode text" is UTF-16),
    otherwise `default`. A wrong encoding is refused with the line of the first bad byte."""
    for bom, encoding in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            data, default = data[len(bom) :], encoding
            break
    try:
        return data.decode(default)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise FileRejected(
            f"the file is not {default.upper()} text (byte {data[exc.start]:#x} on line {line}); "
            "save it as UTF-8 (in Excel: “CSV UTF-8”)",
            line=line,
        ) from exc


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def loads_json(text: str) -> Any:
    """json.loads without Python's NaN/Infinity extensions: they are not JSON, and the database's JSON
    columns refuse them (an import would crash at the write instead of naming the card)."""
    return json.loads(text, parse_constant=_no_constants)


def json_problem(value: Any, depth: int = 0) -> str:
    """Why a value cannot be stored in a JSON column ("" if it can): non-finite numbers, NUL characters
    (PostgreSQL refuses them), and absurd nesting."""
    if depth > 20:
        return "is nested too deeply"
    if isinstance(value, float) and not math.isfinite(value):
        return f"{value} is not a finite number"
    if isinstance(value, str):
        return "contains a NUL character" if "\x00" in value else ""
    if isinstance(value, list):
        return next((p for p in (json_problem(v, depth + 1) for v in value) if p), "")
    if isinstance(value, dict):
        for key, item in value.items():
            problem = json_problem(str(key), depth + 1) or json_problem(item, depth + 1)
            if problem:
                return problem
    return ""


def parse_int(value: Any, *, bounds: tuple[int, int] | None = None) -> int | None:
    """An int from a cell/element; None for empty. Raises ValueError with a readable reason."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"expected a whole number, got {value!r}")
    if isinstance(value, int):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    else:
        text = str(value).strip()
        if text == "":
            return None
        if not re.fullmatch(r"[+-]?\d{1,12}", text):
            raise ValueError(f"expected a whole number, got {text[:40]!r}")
        number = int(text)
    if bounds is not None and not bounds[0] <= number <= bounds[1]:
        raise ValueError(f"{number} is out of range ({bounds[0]}–{bounds[1]})")
    return number


def parse_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().casefold()
    if text in {"1", "true", "yes", "y", "да"}:
        return True
    if text in {"0", "false", "no", "n", "нет", ""}:
        return False
    raise ValueError(f"expected true/false, got {str(value)[:40]!r}")


def validate_records(result: ParseResult) -> None:
    """Checks every importer shares: required fields, lengths, ranges, duplicate ids."""
    seen: dict[str, int | None] = {}
    for rec in result.records:
        label = rec.name or rec.external_id

        def err(field_name: str, reason: str, rec: CardRecord = rec, label: str = label) -> None:
            result.error(rec.line, field_name, reason, label)

        if not rec.external_id.strip():
            err("external_id", "is empty")
        elif len(rec.external_id) > MAX_EXTERNAL_ID:
            err("external_id", f"is longer than {MAX_EXTERNAL_ID} characters")
        elif rec.external_id in seen:
            err("external_id", f"duplicate of the card on line {seen[rec.external_id]}")
        else:
            seen[rec.external_id] = rec.line
        for name, value in (
            ("external_id", rec.external_id),
            ("name", rec.name),
            ("identity", rec.identity),
            ("card_type", rec.card_type),
            ("text", rec.text),
        ):
            if "\x00" in value:
                err(name, "contains a NUL character")
        if not rec.name.strip():
            err("name", "is empty")
        elif len(rec.name) > MAX_NAME:
            err("name", f"is longer than {MAX_NAME} characters")
        if not rec.identity:
            rec.identity = rec.name
        if len(rec.identity) > MAX_IDENTITY:
            err("identity", f"is longer than {MAX_IDENTITY} characters")
        if len(rec.card_type) > MAX_CARD_TYPE:
            err("card_type", f"is longer than {MAX_CARD_TYPE} characters")
        if len(rec.text) > MAX_TEXT:
            err("text", f"is longer than {MAX_TEXT} characters")
        for name, value, bounds in (("level", rec.level, LEVEL_RANGE), ("cost", rec.cost, COST_RANGE)):
            if value is not None and not bounds[0] <= value <= bounds[1]:
                err(name, f"{value} is out of range ({bounds[0]}–{bounds[1]})")
        if not isinstance(rec.subtypes, list) or not all(isinstance(s, str) for s in rec.subtypes):
            err("subtypes", "must be a list of strings")
        elif problem := json_problem(rec.subtypes):
            err("subtypes", problem)
        if not isinstance(rec.attributes, dict):
            err("attributes", "must be an object of key → value")
        else:
            for key, value in rec.attributes.items():
                if not ATTRIBUTE_KEY_RE.match(str(key)):
                    err(f"attributes.{key}", "attribute names must be letters, digits or _ (max 40)")
                elif problem := json_problem(value):
                    err(f"attributes.{key}", problem)
        for printing in rec.printings:
            if not printing.set_code:
                err("printings", "a printing has no set code")
            elif printing.image_url and not re.match(r"^https?://", printing.image_url):
                err("printings.image_url", "must be an http(s) address")
            elif (
                len(printing.image_url) > MAX_IMAGE_URL
                or len(printing.set_code) > MAX_SET_CODE
                or len(printing.code) > MAX_PRINTING_CODE
                or len(printing.rarity) > MAX_RARITY
            ):
                err(
                    "printings",
                    f"a set code (max {MAX_SET_CODE}), printing code (max {MAX_PRINTING_CODE}), "
                    f"rarity (max {MAX_RARITY}) or image address (max {MAX_IMAGE_URL}) is too long",
                )
            elif "\x00" in printing.set_code + printing.code + printing.rarity + printing.image_url:
                err("printings", "contains a NUL character")
            elif printing.set_code not in result.sets:
                result.sets[printing.set_code] = SetRecord(code=printing.set_code)
    for card_set in result.sets.values():
        for name, value, limit in (
            ("code", card_set.code, MAX_SET_CODE),
            ("name", card_set.name, MAX_SET_NAME),
            ("set_type", card_set.set_type, MAX_SET_TYPE),
        ):
            if len(value) > limit:
                result.error(None, f"set.{name}", f"is longer than {limit} characters", card_set.code[:40])
            elif "\x00" in value:
                result.error(None, f"set.{name}", "contains a NUL character", card_set.code[:40])
