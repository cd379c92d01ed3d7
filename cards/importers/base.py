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

from .messages import Message, ReasonError, msg

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
    """One problem in an input file. `line` is the file's line (XML, JSON) or row (CSV, .cdb: card id).

    `reason` is the English text; `message` keeps its code and parameters so pages can show it in the
    reader's language (see messages.import_issue_text)."""

    line: int | None
    field: str
    reason: str
    card: str = ""
    message: Message | None = field(default=None, compare=False)
    # "error" refuses the file; "warning" reports what the import skipped or flagged, as EDOPro skips
    # what it cannot read, while the rest of the file is imported.
    severity: str = "error"

    @classmethod
    def of(
        cls, line: int | None, field_name: str, message: Message, card: str = "", *, severity: str = "error"
    ) -> ImportIssue:
        return cls(line, field_name, str(message), card, message, severity)

    def as_dict(self) -> dict[str, Any]:
        coded = self.message.as_dict() if self.message is not None else {"code": "", "params": {}}
        return {
            "line": self.line,
            "field": self.field,
            **coded,
            "reason": self.reason,
            "card": self.card,
            "severity": self.severity,
        }

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line is not None else "file"
        who = f" ({self.card})" if self.card else ""
        what = f", field '{self.field}'" if self.field else ""
        warning = "warning: " if self.severity == "warning" else ""
        return f"{warning}{where}{who}{what}: {self.reason}"


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
    warnings: list[ImportIssue] = field(default_factory=list)

    def error(self, line: int | None, field_name: str, reason: Message, card: str = "") -> None:
        self.errors.append(ImportIssue.of(line, field_name, reason, card))

    def warn(self, line: int | None, field_name: str, reason: Message, card: str = "") -> None:
        self.warnings.append(ImportIssue.of(line, field_name, reason, card, severity="warning"))


class FileRejected(Exception):
    """The file as a whole is unusable (corrupt, wrong encoding, wrong format): nothing to import."""

    def __init__(self, reason: Message, line: int | None = None, field_name: str = "") -> None:
        super().__init__(str(reason))
        self.issue = ImportIssue.of(line, field_name, reason)


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
            msg("not_encoding", encoding=default.upper(), byte=f"{data[exc.start]:#x}", line=line), line=line
        ) from exc


def _no_constants(name: str) -> Any:
    raise ReasonError(msg("json_constant", name=name))


def loads_json(text: str) -> Any:
    """json.loads without Python's NaN/Infinity extensions: they are not JSON, and the database's JSON
    columns refuse them (an import would crash at the write instead of naming the card)."""
    return json.loads(text, parse_constant=_no_constants)


def load_json_file(data: bytes) -> Any:
    """The parsed JSON document of an uploaded file, or FileRejected naming what is wrong with it
    (empty, malformed with line and column, or using NaN/Infinity)."""
    text = decode_text(data)
    if not text.strip():
        raise FileRejected(msg("file_empty"))
    try:
        return loads_json(text)
    except json.JSONDecodeError as exc:
        raise FileRejected(msg("malformed_json", detail=exc.msg, column=exc.colno), line=exc.lineno) from exc
    except ReasonError as exc:  # NaN / Infinity
        raise FileRejected(msg("malformed_json_constant", **exc.message.params)) from exc


def json_problem(value: Any, depth: int = 0) -> Message | None:
    """Why a value cannot be stored in a JSON column (None if it can): non-finite numbers, NUL characters
    (PostgreSQL refuses them), and absurd nesting."""
    if depth > 20:
        return msg("nested_too_deeply")
    if isinstance(value, float) and not math.isfinite(value):
        return msg("not_finite", value=str(value))
    if isinstance(value, str):
        return msg("nul") if "\x00" in value else None
    if isinstance(value, list):
        return next((p for p in (json_problem(v, depth + 1) for v in value) if p), None)
    if isinstance(value, dict):
        for key, item in value.items():
            problem = json_problem(str(key), depth + 1) or json_problem(item, depth + 1)
            if problem:
                return problem
    return None


def parse_int(value: Any, *, bounds: tuple[int, int] | None = None) -> int | None:
    """An int from a cell/element; None for empty. Raises ValueError with a readable reason."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ReasonError(msg("not_whole_number", value=repr(value)))
    if isinstance(value, int):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    else:
        text = str(value).strip()
        if text == "":
            return None
        if not re.fullmatch(r"[+-]?\d{1,12}", text):
            raise ReasonError(msg("not_whole_number", value=repr(text[:40])))
        number = int(text)
    if bounds is not None and not bounds[0] <= number <= bounds[1]:
        raise ReasonError(msg("out_of_range", value=number, min=bounds[0], max=bounds[1]))
    return number


def parse_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().casefold()
    if text in {"1", "true", "yes", "y", "да"}:
        return True
    if text in {"0", "false", "no", "n", "нет", ""}:
        return False
    raise ReasonError(msg("not_boolean", value=repr(str(value)[:40])))


def validate_records(result: ParseResult) -> None:
    """Checks every importer shares: required fields, lengths, ranges, duplicate ids."""
    seen: dict[str, int | None] = {}
    for rec in result.records:
        label = rec.name or rec.external_id

        def err(field_name: str, reason: Message, rec: CardRecord = rec, label: str = label) -> None:
            result.error(rec.line, field_name, reason, label)

        if not rec.external_id.strip():
            err("external_id", msg("empty"))
        elif len(rec.external_id) > MAX_EXTERNAL_ID:
            err("external_id", msg("too_long", limit=MAX_EXTERNAL_ID))
        elif rec.external_id in seen:
            err("external_id", msg("duplicate_id", other_line=seen[rec.external_id]))
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
                err(name, msg("nul"))
        if not rec.name.strip():
            err("name", msg("empty"))
        elif len(rec.name) > MAX_NAME:
            err("name", msg("too_long", limit=MAX_NAME))
        if not rec.identity:
            rec.identity = rec.name
        if len(rec.identity) > MAX_IDENTITY:
            err("identity", msg("too_long", limit=MAX_IDENTITY))
        if len(rec.card_type) > MAX_CARD_TYPE:
            err("card_type", msg("too_long", limit=MAX_CARD_TYPE))
        if len(rec.text) > MAX_TEXT:
            err("text", msg("too_long", limit=MAX_TEXT))
        for name, value, bounds in (("level", rec.level, LEVEL_RANGE), ("cost", rec.cost, COST_RANGE)):
            if value is not None and not bounds[0] <= value <= bounds[1]:
                err(name, msg("out_of_range", value=value, min=bounds[0], max=bounds[1]))
        if not isinstance(rec.subtypes, list) or not all(isinstance(s, str) for s in rec.subtypes):
            err("subtypes", msg("not_list_of_strings"))
        elif problem := json_problem(rec.subtypes):
            err("subtypes", problem)
        if not isinstance(rec.attributes, dict):
            err("attributes", msg("attributes_not_object"))
        else:
            for key, value in rec.attributes.items():
                if not ATTRIBUTE_KEY_RE.match(str(key)):
                    err(f"attributes.{key}", msg("bad_attribute_name"))
                elif problem := json_problem(value):
                    err(f"attributes.{key}", problem)
        for printing in rec.printings:
            if not printing.set_code:
                err("printings", msg("printing_no_set"))
            elif printing.image_url and not re.match(r"^https?://", printing.image_url):
                err("printings.image_url", msg("not_http_url"))
            elif (
                len(printing.image_url) > MAX_IMAGE_URL
                or len(printing.set_code) > MAX_SET_CODE
                or len(printing.code) > MAX_PRINTING_CODE
                or len(printing.rarity) > MAX_RARITY
            ):
                err(
                    "printings",
                    msg(
                        "printing_too_long",
                        set_code=MAX_SET_CODE,
                        code=MAX_PRINTING_CODE,
                        rarity=MAX_RARITY,
                        image_url=MAX_IMAGE_URL,
                    ),
                )
            elif "\x00" in printing.set_code + printing.code + printing.rarity + printing.image_url:
                err("printings", msg("nul"))
            elif printing.set_code not in result.sets:
                result.sets[printing.set_code] = SetRecord(code=printing.set_code)
    for card_set in result.sets.values():
        for name, value, limit in (
            ("code", card_set.code, MAX_SET_CODE),
            ("name", card_set.name, MAX_SET_NAME),
            ("set_type", card_set.set_type, MAX_SET_TYPE),
        ):
            if len(value) > limit:
                result.error(None, f"set.{name}", msg("too_long", limit=limit), card_set.code[:40])
            elif "\x00" in value:
                result.error(None, f"set.{name}", msg("nul"), card_set.code[:40])
