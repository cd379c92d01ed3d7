"""Read the shared YGOPro .cdb and .ydk files straight into engine data (independent of the cards importer)."""

from __future__ import annotations

import sqlite3
from functools import cache
from pathlib import Path

from rules.engine import CardInfo, Deck, UnknownCard

_TYPE_BITS = {
    0x10: "normal", 0x20: "effect", 0x40: "fusion", 0x80: "ritual", 0x200: "spirit", 0x400: "union",
    0x800: "gemini", 0x1000: "tuner", 0x2000: "synchro", 0x4000: "token", 0x10000: "quick-play",
    0x20000: "continuous", 0x40000: "equip", 0x80000: "field", 0x100000: "counter", 0x200000: "flip",
    0x400000: "toon", 0x800000: "xyz", 0x1000000: "pendulum", 0x4000000: "link",
}  # fmt: skip
_OT = {1: "ocg", 2: "tcg", 3: "both"}


def _card_type(type_bits: int) -> str:
    if type_bits & 0x1:
        return "monster"
    if type_bits & 0x2:
        return "spell"
    return "trap"


@cache
def load_cdb(path: Path) -> dict[str, CardInfo]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = con.execute(
            "SELECT d.id, d.ot, d.alias, d.type, d.atk, d.def, d.level, t.name FROM datas d JOIN texts t ON t.id = d.id"
        ).fetchall()
    finally:
        con.close()
    cards: dict[str, CardInfo] = {}
    for cid, ot, alias, type_bits, atk, def_, level, name in rows:
        subtypes = tuple(label for bit, label in _TYPE_BITS.items() if type_bits & bit)
        passcode = str(cid)
        attributes: dict[str, object] = {"atk": atk, "def": def_, "ot": _OT.get(ot & 3, "other")}
        if alias:
            attributes["alias"] = str(alias)
        token = bool(type_bits & 0x4000)
        cards[passcode] = CardInfo(
            key=passcode,
            name=name,
            identity=str(alias) if alias else passcode,
            card_type=_card_type(type_bits),
            subtypes=subtypes,
            level=(level & 0xFF) if type_bits & 0x1 else None,
            attributes=attributes,
            is_token=token,
            deck_buildable=not token,
        )
    return cards


def read_ydk(path: Path) -> dict[str, list[str]]:
    """Passcodes per section as the file lists them: #main, #extra, then anything after '!' is side."""
    sections: dict[str, list[str]] = {"main": [], "extra": [], "side": []}
    current = "main"
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("!"):
            current = "side"
        elif line.startswith("#"):
            if line.lower().startswith("#extra"):
                current = "extra"
            elif line.lower().startswith("#main"):
                current = "main"
        else:
            sections[current].append(line)
    return sections


def ydk_deck(path: Path, cards: dict[str, CardInfo]) -> Deck:
    deck = Deck()
    for section, codes in read_ydk(path).items():
        counts: dict[str, int] = {}
        for code in codes:
            counts[code] = counts.get(code, 0) + 1
        entries = []
        for code, n in counts.items():
            if code in cards:
                entries.append((cards[code], n))
            else:
                deck.unknown.append(UnknownCard(section=section, ref=code, count=n))
        deck.sections[section] = entries
    return deck
