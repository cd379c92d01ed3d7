"""YGOPro / EDOPro card databases (`.cdb`, SQLite with `datas` and `texts` tables).

Bit values are those of YGOPro's constant.lua (TYPE_*, ATTRIBUTE_*, RACE_*, LINK_MARKER_*).
"""

from __future__ import annotations

import os
import re
import sqlite3
import tempfile
import time
from itertools import groupby
from typing import Any

from .base import CardRecord, FileRejected, ParseResult, Progress, validate_records
from .messages import msg

SQLITE_MAGIC = b"SQLite format 3\x00"

TYPE_MONSTER, TYPE_SPELL, TYPE_TRAP = 0x1, 0x2, 0x4
TYPE_TOKEN = 0x4000
# Types outside the three card kinds (EDOPro's constant.lua): Speed Duel skills and Rush Duel actions.
# They are real cards of the database but never go in a deck.
OTHER_TYPES = {0x8000000: "skill", 0x10000000: "action"}
# A .cdb is untrusted SQL: a query that runs this long is a hostile file, not a card database.
QUERY_SECONDS = 20
# Order matters only for readability of the stored list.
TYPE_BITS: list[tuple[int, str]] = [
    (0x10, "normal"),
    (0x20, "effect"),
    (0x40, "fusion"),
    (0x80, "ritual"),
    (0x100, "trap-monster"),
    (0x200, "spirit"),
    (0x400, "union"),
    (0x800, "gemini"),
    (0x1000, "tuner"),
    (0x2000, "synchro"),
    (0x4000, "token"),
    (0x10000, "quick-play"),
    (0x20000, "continuous"),
    (0x40000, "equip"),
    (0x80000, "field"),
    (0x100000, "counter"),
    (0x200000, "flip"),
    (0x400000, "toon"),
    (0x800000, "xyz"),
    (0x1000000, "pendulum"),
    (0x2000000, "special-summon"),
    (0x4000000, "link"),
]
# The frame a player sees; the first match wins (a pendulum fusion is framed as a fusion).
FRAME_ORDER = ["token", "link", "xyz", "synchro", "fusion", "ritual", "effect", "normal"]

ATTRIBUTES = {
    0x01: "EARTH",
    0x02: "WATER",
    0x04: "FIRE",
    0x08: "WIND",
    0x10: "LIGHT",
    0x20: "DARK",
    0x40: "DIVINE",
}
RACES = {
    0x1: "Warrior",
    0x2: "Spellcaster",
    0x4: "Fairy",
    0x8: "Fiend",
    0x10: "Zombie",
    0x20: "Machine",
    0x40: "Aqua",
    0x80: "Pyro",
    0x100: "Rock",
    0x200: "Winged Beast",
    0x400: "Plant",
    0x800: "Insect",
    0x1000: "Thunder",
    0x2000: "Dragon",
    0x4000: "Beast",
    0x8000: "Beast-Warrior",
    0x10000: "Dinosaur",
    0x20000: "Fish",
    0x40000: "Sea Serpent",
    0x80000: "Reptile",
    0x100000: "Psychic",
    0x200000: "Divine-Beast",
    0x400000: "Creator God",
    0x800000: "Wyrm",
    0x1000000: "Cyberse",
    0x2000000: "Illusion",
    # EDOPro's unofficial (anime / manga) races; the column is 64 bits wide since RACE_YOKAI.
    0x4000000: "Cyborg",
    0x8000000: "Magical Knight",
    0x10000000: "High Dragon",
    0x20000000: "Omega Psychic",
    0x40000000: "Celestial Warrior",
    0x80000000: "Galaxy",
    0x100000000: "Charisma",
    0x4000000000000000: "Yokai",
}
LINK_MARKERS = [
    (0x40, "top-left"),
    (0x80, "top"),
    (0x100, "top-right"),
    (0x8, "left"),
    (0x20, "right"),
    (0x1, "bottom-left"),
    (0x2, "bottom"),
    (0x4, "bottom-right"),
]
# atk/def of -2 is how YGOPro stores "?".
UNKNOWN_STAT = -2
MAX_STAT = 1_000_000
MAX_LEVEL = 13  # levels and ranks stop at 12 (13 for a few anime cards), link ratings at 8
# Upper bounds of the integer columns: passcodes have at most 10 digits, bit fields fit 32 bits except
# `race`, which EDOPro reads as a 64-bit mask (sqlite3_column_int64, RACE_YOKAI is bit 62).
MAX_FIELD = {
    "ot": 0xFFFF,
    "alias": 9_999_999_999,
    "type": 0xFFFFFFFF,
    "level": 0xFFFFFFFF,
    "race": 2**63 - 1,
    "attribute": 0xFFFF,
}
KNOWN_RACE_BITS = sum(RACES)


def looks_like(data: bytes) -> bool:
    return data.startswith(SQLITE_MAGIC)


def _bits_to_names(value: int, table: dict[int, str]) -> list[str]:
    return [name for bit, name in table.items() if value & bit]


def _ot(ot: int) -> str:
    both = ot & 0x3
    return {0x1: "ocg", 0x2: "tcg", 0x3: "both"}.get(both, "other")


def _setcodes(setcode: int) -> list[int]:
    # Up to four 16-bit archetype codes are packed into one integer.
    return [code for code in ((setcode >> shift) & 0xFFFF for shift in (0, 16, 32, 48)) if code]


def row_to_record(row: sqlite3.Row | tuple[Any, ...], result: ParseResult) -> CardRecord | None:
    card_id, ot, alias, setcode, ctype, atk, def_, level, race, attribute, name, desc, text_id = row
    line = card_id  # the passcode is the most useful "row" reference in a .cdb
    if text_id is None:
        # EDOPro joins datas with texts, so a card without a texts row never reaches its players either.
        result.warn(line, "texts", msg("cdb_no_text_row"))
        return None
    if not isinstance(card_id, int) or card_id <= 0:
        result.error(None, "id", msg("invalid_passcode", value=repr(card_id)), str(name or ""))
        return None
    ints = {"ot": ot, "alias": alias, "setcode": setcode, "type": ctype, "atk": atk, "def": def_}
    ints |= {"level": level, "race": race, "attribute": attribute}
    bad = [key for key, value in ints.items() if not isinstance(value, int)]
    for key in bad:
        result.error(line, key, msg("not_whole_number", value=repr(ints[key])), str(name or ""))
    if bad:
        return None
    # Bit fields and the alias are never negative; stats above a million are a broken file, not a card.
    for key in ("ot", "alias", "type", "level", "race", "attribute"):
        if ints[key] < 0 or ints[key] > MAX_FIELD[key]:
            bad.append(key)
            result.error(
                line, key, msg("out_of_range", value=ints[key], min=0, max=MAX_FIELD[key]), str(name or "")
            )
    if ctype & TYPE_MONSTER:
        stats = [("atk", atk)] if ctype & 0x4000000 else [("atk", atk), ("def", def_)]
        for key, value in stats:
            if not UNKNOWN_STAT <= value <= MAX_STAT:
                bad.append(key)
                result.error(
                    line,
                    key,
                    msg("out_of_range", value=value, min=UNKNOWN_STAT, max=MAX_STAT),
                    str(name or ""),
                )
    if bad:
        return None
    if not isinstance(name, str) or not name.strip():
        result.error(line, "name", msg("name_without_text_row"))
        return None

    subtypes = [label for bit, label in TYPE_BITS if ctype & bit]
    if ctype & TYPE_TOKEN or ctype & TYPE_MONSTER:
        card_type = "monster"
    elif ctype & TYPE_SPELL:
        card_type = "spell"
    elif ctype & TYPE_TRAP:
        card_type = "trap"
    else:
        card_type = next((label for bit, label in OTHER_TYPES.items() if ctype & bit), "other")
        result.warn(line, "type", msg("cdb_not_deck_type", bits=f"{ctype:#x}", card_type=card_type), name)

    attributes: dict[str, Any] = {"ot": _ot(ot)}
    if alias:
        attributes["alias"] = str(alias)
    codes = _setcodes(setcode)
    if codes:
        attributes["setcode"] = codes
    card_level: int | None = None
    if card_type == "monster":
        is_link = bool(ctype & 0x4000000)
        card_level = level & 0xFF
        if card_level > MAX_LEVEL:
            result.error(line, "level", msg("level_out_of_range", value=card_level, max=MAX_LEVEL), name)
            return None
        if ctype & 0x1000000:
            attributes["lscale"] = (level >> 24) & 0xFF
            attributes["rscale"] = (level >> 16) & 0xFF
        attributes["attribute"] = "/".join(_bits_to_names(attribute, ATTRIBUTES)) or None
        attributes["race"] = "/".join(_bits_to_names(race, RACES)) or None
        if race & ~KNOWN_RACE_BITS:
            # A race bit no constant names yet is kept whole (as text: JSON readers lose integers past 2**53).
            attributes["race_bits"] = str(race)
        attributes["atk"] = None if atk == UNKNOWN_STAT else atk
        if is_link:
            attributes["link_markers"] = [label for bit, label in LINK_MARKERS if def_ & bit]
        else:
            attributes["def"] = None if def_ == UNKNOWN_STAT else def_
        attributes["frame"] = next((f for f in FRAME_ORDER if f in subtypes), "normal")
    else:
        attributes["frame"] = card_type

    is_token = bool(ctype & TYPE_TOKEN)
    return CardRecord(
        external_id=str(card_id),
        identity=str(alias) if alias else str(card_id),
        name=name,
        card_type=card_type,
        subtypes=subtypes,
        level=card_level,
        attributes=attributes,
        text=desc or "",
        is_token=is_token,
        deck_buildable=not is_token and card_type in {"monster", "spell", "trap"},
        line=line,
    )


def parse(data: bytes, *, game_slug: str = "", progress: Progress | None = None) -> ParseResult:
    if not looks_like(data):
        raise FileRejected(msg("not_sqlite"))
    result = ParseResult(fmt="cdb")
    # sqlite3 can only open files; the temp file is private to this process and removed at once.
    fd, path = tempfile.mkstemp(suffix=".cdb")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        try:
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        except sqlite3.Error as exc:
            raise FileRejected(msg("sqlite_open", detail=str(exc))) from exc
        try:
            _read(conn, result, progress)
        except sqlite3.OperationalError as exc:
            if "interrupted" not in str(exc):
                raise FileRejected(msg("sqlite_corrupt", detail=str(exc))) from exc
            raise FileRejected(msg("cdb_too_slow", seconds=QUERY_SECONDS)) from exc
        except sqlite3.DatabaseError as exc:
            raise FileRejected(msg("sqlite_corrupt", detail=str(exc))) from exc
        finally:
            conn.close()
    finally:
        os.unlink(path)
    validate_records(result)
    return result


def _refuse_views_and_triggers(conn: sqlite3.Connection) -> None:
    """Only plain tables are read: a view runs the file author's SQL (a recursive one never ends) and a
    trigger is code, and neither belongs in a card database."""
    objects = conn.execute(
        "SELECT type, name FROM sqlite_master WHERE type IN ('view', 'trigger') ORDER BY type, name"
    ).fetchall()
    if objects:
        named = ", ".join(f"{kind} {name!r}" for kind, name in objects[:10])
        raise FileRejected(msg("cdb_views_triggers", objects=named))


# Words of Duel Masters rules text (its YGOPro-engine simulators, ygopro-dm, keep the same datas/texts tables
# and reuse the type bits: a creature is TYPE_EFFECT, a mana cost is the level). Yu-Gi-Oh! cards never
# speak of these zones, shields or civilizations, so a database whose texts do is another game's.
OTHER_GAME_WORDS = {
    "Duel Masters": re.compile(
        r"mana zone|battle zone|shield zone|shield trigger|\bshields?\b.*\bbreak|double breaker|"
        r"civilization|\bblocker\b|evolution creature|tap this creature",
        re.IGNORECASE,
    ),
}
OTHER_GAME_SAMPLE = 2000


def _refuse_another_game(conn: sqlite3.Connection, total: int) -> None:
    """A .cdb of another game on the YGOPro engine (a Duel Masters database) is refused with the reason:
    its cards would import as Yu-Gi-Oh! monsters with nonsense stats. Judged on the rules texts of a
    sample: a fifth of them (at least three) in the other game's words."""
    texts = [
        row[0] or ""
        for row in conn.execute("SELECT desc FROM texts ORDER BY id LIMIT ?", (OTHER_GAME_SAMPLE,)).fetchall()
    ]
    if not texts:
        return
    for game, words in OTHER_GAME_WORDS.items():
        hits = sum(1 for text in texts if words.search(text))
        if hits >= 3 and hits * 5 >= len(texts):
            raise FileRejected(msg("cdb_other_game", game=game, hits=hits, sample=len(texts), total=total))


def _time_limit(conn: sqlite3.Connection) -> None:
    # A backstop for anything slow the checks above cannot see: SQLite stops the query with "interrupted".
    deadline = time.monotonic() + QUERY_SECONDS
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)


def _read(conn: sqlite3.Connection, result: ParseResult, progress: Progress | None) -> None:
    _refuse_views_and_triggers(conn)
    _time_limit(conn)
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    missing = {"datas", "texts"} - tables
    if missing:
        raise FileRejected(msg("missing_tables", tables=", ".join(sorted(missing))))
    columns = {
        table: {row[1] for row in conn.execute(f"PRAGMA table_info({table})")} for table in ("datas", "texts")
    }
    need = {
        "datas": {"id", "ot", "alias", "setcode", "type", "atk", "def", "level", "race", "attribute"},
        "texts": {"id", "name", "desc"},
    }
    for table, wanted in need.items():
        absent = wanted - columns[table]
        if absent:
            raise FileRejected(msg("missing_table_columns", table=table, columns=", ".join(sorted(absent))))
    total = conn.execute("SELECT COUNT(*) FROM datas").fetchone()[0]
    _refuse_another_game(conn, total)
    # YGOPro and EDOPro read the datas/texts join row by row into a map keyed by passcode, so when a
    # file holds several rows for one passcode (a texts table without a primary key), each row
    # overwrites the one before: the last row in table order wins. Reading in that order and keeping
    # the last row of each passcode gives the card the game shows.
    rows = conn.execute(
        "SELECT d.id, d.ot, d.alias, d.setcode, d.type, d.atk, d.def, d.level, d.race, d.attribute,"
        " t.name, t.desc, t.id FROM datas d LEFT JOIN texts t ON t.id = d.id ORDER BY d.id, d.rowid, t.rowid"
    )
    index = 0
    for _card_id, group in groupby(rows, key=lambda row: row[0]):
        same = list(group)
        index += len(same)
        record = row_to_record(same[-1], result)
        if record is not None:
            if len(same) > 1:
                result.warn(record.line, "texts", msg("cdb_duplicate_rows", count=len(same)), record.name)
            result.records.append(record)
        if progress and index // 1000 != (index - len(same)) // 1000:
            progress(min(index, total), total)
