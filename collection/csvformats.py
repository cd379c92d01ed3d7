"""Collection CSV files as the tools players use write them, read into plain rows (no Django).

Each tool is recognised by its header, whatever the column order (their exports have grown columns over the
years). The layouts, as their exports write them:

- Moxfield:      Count,Tradelist Count,Name,Edition,Condition,Language,Foil,Tags,Last Modified,
                 Collector Number,Alter,Proxy,Purchase Price   (Edition is the set code; Foil "foil"/"etched"/"")
- Deckbox:       Count,Tradelist Count,Name,Edition,[Edition Code,]Card Number,Condition,Language,Foil,Signed,
                 Artist Proof,Altered Art,Misprint,Promo,Textless,My Price   (Edition is the set's name)
- ManaBox:       [Binder Name,Binder Type,]Name,Set code,Set name,Collector number,Foil,Rarity,Quantity,
                 ManaBox ID,Scryfall ID,Purchase price,Misprint,Altered,Condition,Language,
                 Purchase price currency   (Foil "normal"/"foil"/"etched")
- Dragon Shield: a first line "sep=," (Excel's hint), then Folder Name,Quantity,Trade Quantity,Card Name,
                 Set Code,Set Name,Card Number,Condition,Printing,Language,Price Bought,Date Bought,LOW,MID,
                 MARKET   (Printing "Normal"/"Foil")
- Deckhall:      Count,Name,Card ID,Set Code,Collector Number,Foil,Condition,Language (our own export; Card ID
                 is the card's id in the game's database, e.g. a Yu-Gi-Oh! passcode)
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass, field

MAX_ROWS = 100_000
MAX_COPIES = 9_999


@dataclass(frozen=True)
class Layout:
    slug: str
    title: str
    # Our field → the header names (folded) that may carry it, first found wins.
    columns: Mapping[str, tuple[str, ...]]
    # Headers (folded) that must all be present to recognise the tool.
    required: tuple[str, ...]
    # At least one of these must be present too (what tells two look-alike tools apart); empty: none needed.
    any_of: tuple[str, ...] = ()


LAYOUTS: tuple[Layout, ...] = (
    Layout(
        "deckhall",
        "Deckhall",
        {"count": ("count",), "name": ("name",), "card_id": ("card id",), "set_code": ("set code",),
         "number": ("collector number",), "foil": ("foil",), "condition": ("condition",),
         "language": ("language",)},
        ("count", "name", "card id"),
    ),
    Layout(
        "dragonshield",
        "Dragon Shield",
        {"count": ("quantity",), "name": ("card name",), "set_code": ("set code",), "number": ("card number",),
         "foil": ("printing",), "condition": ("condition",), "language": ("language",)},
        ("quantity", "card name"),
        ("folder name", "printing", "trade quantity"),
    ),
    Layout(
        "manabox",
        "ManaBox",
        {"count": ("quantity",), "name": ("name",), "set_code": ("set code",), "number": ("collector number",),
         "foil": ("foil",), "condition": ("condition",), "language": ("language",)},
        ("name", "quantity"),
        ("manabox id", "set code", "scryfall id"),
    ),
    Layout(
        "deckbox",
        "Deckbox",
        {"count": ("count",), "name": ("name",), "set_code": ("edition code", "edition"),
         "number": ("card number",), "foil": ("foil",), "condition": ("condition",),
         "language": ("language",)},
        ("count", "tradelist count", "name", "edition"),
        ("card number", "signed", "artist proof", "altered art", "my price", "textless"),
    ),
    Layout(
        "moxfield",
        "Moxfield",
        {"count": ("count",), "name": ("name",), "set_code": ("edition",), "number": ("collector number",),
         "foil": ("foil",), "condition": ("condition",), "language": ("language",)},
        ("count", "tradelist count", "name", "edition"),
        ("last modified", "alter", "proxy", "tags", "purchase price", "collector number"),
    ),
)  # fmt: skip

# Printing/Foil values that mean a foil copy, as the tools write them (anything else is a plain copy).
FOIL_WORDS = frozenset({"foil", "etched", "true", "yes", "1", "y"})


@dataclass(frozen=True)
class CollectionRow:
    line: int
    count: int
    name: str
    card_id: str = ""
    set_code: str = ""
    number: str = ""
    foil: bool = False
    condition: str = ""
    language: str = ""


@dataclass(frozen=True)
class RowProblem:
    """A line not read: its number, the text it had and a code (``bad_count``) with parameters."""

    line: int
    text: str
    code: str
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass
class ParsedCollection:
    layout: Layout
    rows: list[CollectionRow]
    problems: list[RowProblem]


class CollectionFileError(ValueError):
    """The whole file is unusable (no known header, too long, not text): ``code`` says which."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def _fold(header: str) -> str:
    return " ".join(header.replace("_", " ").strip().strip('"').casefold().split())


def detect(headers: list[str]) -> Layout | None:
    folded = {_fold(h) for h in headers}
    for layout in LAYOUTS:
        if all(r in folded for r in layout.required) and (
            not layout.any_of or any(a in folded for a in layout.any_of)
        ):
            return layout
    return None


def decode(data: bytes | str) -> str:
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise CollectionFileError("not_text")


def parse_collection_csv(data: bytes | str) -> ParsedCollection:
    """Rows of a collection file; lines that cannot be read are problems, the rest is read."""
    text = decode(data)
    lines = text.splitlines()
    offset = 0
    delimiter = ","
    # Dragon Shield (and Excel files saved for it) start with "sep=X": the delimiter, then the header.
    if lines and lines[0].strip().strip('"').lower().startswith("sep="):
        hint = lines[0].strip().strip('"')[4:5]
        delimiter = hint or ","
        offset = 1
    body = "\n".join(lines[offset:])
    if not body.strip():
        raise CollectionFileError("empty")
    if delimiter == "," and body.split("\n", 1)[0].count(";") > body.split("\n", 1)[0].count(","):
        delimiter = ";"  # a spreadsheet saved in a locale that writes ";" between columns
    reader = csv.reader(io.StringIO(body), delimiter=delimiter)
    try:
        headers = next(reader)
    except (StopIteration, csv.Error):
        raise CollectionFileError("empty") from None
    layout = detect(headers)
    if layout is None:
        raise CollectionFileError("unknown_header", header=",".join(headers)[:200])
    index = {_fold(h): i for i, h in reversed(list(enumerate(headers)))}
    where = {
        ours: next((index[name] for name in names if name in index), None)
        for ours, names in layout.columns.items()
    }
    rows: list[CollectionRow] = []
    problems: list[RowProblem] = []
    line_no = offset + 1
    try:
        for record in reader:
            line_no = offset + reader.line_num
            if not any(cell.strip() for cell in record):
                continue
            if len(rows) + len(problems) >= MAX_ROWS:
                raise CollectionFileError("too_many_rows", limit=MAX_ROWS)

            def cell(ours: str, record: list[str] = record) -> str:
                position = where.get(ours)
                return record[position].strip() if position is not None and position < len(record) else ""

            raw_count, name = cell("count"), cell("name")
            text = delimiter.join(record)[:200]
            if not name and not cell("card_id"):
                problems.append(RowProblem(line_no, text, "no_name"))
                continue
            try:
                count = int(raw_count)
            except ValueError:
                problems.append(RowProblem(line_no, text, "bad_count", {"count": raw_count[:20]}))
                continue
            if count == 0:
                continue  # a tool's "seen, none owned" row
            if not 0 < count <= MAX_COPIES:
                problems.append(RowProblem(line_no, text, "bad_count", {"count": raw_count[:20]}))
                continue
            rows.append(
                CollectionRow(
                    line=line_no,
                    count=count,
                    name=name[:200],
                    card_id=cell("card_id")[:120],
                    set_code=cell("set_code")[:40],
                    number=cell("number")[:40],
                    foil=cell("foil").casefold() in FOIL_WORDS,
                    condition=cell("condition")[:30],
                    language=cell("language")[:30],
                )
            )
    except csv.Error as error:
        raise CollectionFileError("bad_csv", line=line_no, error=str(error)) from None
    return ParsedCollection(layout=layout, rows=rows, problems=problems)


EXPORT_HEADER = ("Count", "Name", "Card ID", "Set Code", "Collector Number", "Foil", "Condition", "Language")


def write_collection_csv(rows: list[CollectionRow]) -> str:
    """Deckhall's own layout: what ``parse_collection_csv`` reads back exactly."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(EXPORT_HEADER)
    for row in rows:
        writer.writerow(
            [row.count, row.name, row.card_id, row.set_code, row.number, "foil" if row.foil else "",
             row.condition, row.language]
        )  # fmt: skip
    return out.getvalue()
