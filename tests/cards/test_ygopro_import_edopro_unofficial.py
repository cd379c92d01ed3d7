"""EDOPro's `cards-unofficial.cdb` as it ships: 64-bit race masks (RACE_YOKAI is 0x4000000000000000, the
manga "Charisma" race 0x100000000) and texts tables without a primary key holding two rows for one
passcode. EDOPro reads `race` with sqlite3_column_int64 and overwrites its map entry for every joined
row, so it refuses nothing: the last row wins."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cards.models import Card
from cards.services import cards_import
from tests.cards.conftest import GOOD_ROWS, make_cdb

pytestmark = pytest.mark.django_db

YOKAI = 0x4000000000000000
CHARISMA = 0x100000000
# Rows shaped like cards-unofficial.cdb: passcodes of the 5xxxxxxx/1000xxxxx unofficial ranges.
UNOFFICIAL = [
    (100001006, 4, 0, 0, 0x21, 1500, 1200, 4, YOKAI, 0x20, "Nine-Tailed Fox (Manga)", "A Yokai."),
    (511001970, 4, 0, 0, 0x21, 1000, 1000, 3, CHARISMA, 0x10, "Charisma Monster", "Charismatic."),
    (511002000, 4, 0, 0, 0x21, 800, 800, 2, YOKAI | 0x2000, 0x10, "Dragon Yokai", ""),
    (511002001, 4, 0, 0, 0x21, 800, 800, 2, 1 << 40, 0x10, "Unnamed Race Bit", ""),
]


def test_64_bit_races_import_and_keep_their_value(games, cdb_bytes):
    result = cards_import(game=games["yugioh"], data=cdb_bytes([*GOOD_ROWS, *UNOFFICIAL]), filename="u.cdb")
    assert result.ok, result.errors
    assert result.created == len(GOOD_ROWS) + len(UNOFFICIAL)
    fox = Card.objects.get(external_id="100001006")
    assert fox.attributes["race"] == "Yokai" and "race_bits" not in fox.attributes
    assert Card.objects.get(external_id="511001970").attributes["race"] == "Charisma"
    assert Card.objects.get(external_id="511002000").attributes["race"] == "Dragon/Yokai"
    odd = Card.objects.get(external_id="511002001")
    assert odd.attributes["race"] is None and odd.attributes["race_bits"] == str(1 << 40)


def test_a_negative_race_is_still_refused(games, cdb_bytes):
    bad = (1000, 3, 0, 0, 0x11, 0, 0, 4, -1, 1, "Negative Race", "")
    result = cards_import(game=games["yugioh"], data=cdb_bytes([*GOOD_ROWS, bad]), filename="x.cdb")
    assert [(issue.line, issue.field) for issue in result.errors] == [(1000, "race")]


def _cdb_without_text_key(path: Path, extra_texts: list[tuple[int, str, str]]) -> bytes:
    """A texts table with no primary key (as several community tools create it) and extra rows."""
    make_cdb(path, GOOD_ROWS)
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE texts RENAME TO old_texts")
    conn.execute("CREATE TABLE texts (id INTEGER, name TEXT, desc TEXT)")
    conn.execute("INSERT INTO texts SELECT id, name, desc FROM old_texts ORDER BY id")
    conn.execute("DROP TABLE old_texts")
    conn.executemany("INSERT INTO texts VALUES (?, ?, ?)", extra_texts)
    conn.commit()
    conn.close()
    return path.read_bytes()


def test_duplicate_texts_rows_keep_the_last_row_with_a_warning(games, tmp_path):
    data = _cdb_without_text_key(
        tmp_path / "dup.cdb",
        [
            (55144522, "Pot of Greed (updated)", "Draw 2 cards. (errata)"),
            (55144522, "Pot of Greed", "Final."),
        ],
    )
    result = cards_import(game=games["yugioh"], data=data, filename="dup.cdb")
    assert result.ok, result.errors
    assert result.created == len(GOOD_ROWS)
    pot = Card.objects.get(external_id="55144522")
    assert (pot.name, pot.text) == ("Pot of Greed", "Final.")
    [warning] = result.warnings
    assert (warning.line, warning.field) == (55144522, "texts")
    assert warning.message is not None and warning.message.code == "cdb_duplicate_rows"
    assert "3 rows" in warning.reason


def test_the_last_row_wins_even_when_it_renames_the_card(games, tmp_path):
    data = _cdb_without_text_key(tmp_path / "dup.cdb", [(46986414, "Dark Magician (Anime)", "Anime text.")])
    result = cards_import(game=games["yugioh"], data=data, filename="dup.cdb")
    assert result.ok, result.errors
    assert Card.objects.get(external_id="46986414").name == "Dark Magician (Anime)"


def test_a_card_row_given_twice_keeps_the_last_one_too(games, tmp_path):
    """A datas table without a primary key holding a passcode twice (an updated row appended): EDOPro's
    map keeps the last row read, so does the import."""
    path = tmp_path / "twice.cdb"
    make_cdb(path, GOOD_ROWS)
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE datas RENAME TO old_datas")
    conn.execute(
        "CREATE TABLE datas (id INTEGER, ot INTEGER, alias INTEGER, setcode INTEGER, type INTEGER,"
        " atk INTEGER, def INTEGER, level INTEGER, race INTEGER, attribute INTEGER, category INTEGER)"
    )
    conn.execute("INSERT INTO datas SELECT * FROM old_datas ORDER BY id")
    conn.execute("DROP TABLE old_datas")
    conn.execute("INSERT INTO datas VALUES (46986414, 3, 0, 0, 17, 2600, 2100, 7, 2, 32, 0)")
    conn.commit()
    conn.close()
    result = cards_import(game=games["yugioh"], data=path.read_bytes(), filename="twice.cdb")
    assert result.ok, result.errors
    assert Card.objects.get(external_id="46986414").attributes["atk"] == 2600
    assert [w.message.code for w in result.warnings] == ["cdb_duplicate_rows"]
