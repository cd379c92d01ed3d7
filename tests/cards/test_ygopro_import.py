from __future__ import annotations

import pytest

from cards.models import Card
from cards.services import cards_import
from tests.cards.conftest import GOOD_ROWS

pytestmark = pytest.mark.django_db


def test_it_imports_every_card_with_readable_types(games, cdb_bytes):
    result = cards_import(game=games["yugioh"], data=cdb_bytes(), filename="x.cdb")
    assert result.ok, result.errors
    assert result.created == 8
    dm = Card.objects.get(game=games["yugioh"], external_id="46986414")
    assert dm.card_type == "monster" and dm.subtypes == ["normal"] and dm.level == 7
    assert dm.attributes["attribute"] == "DARK" and dm.attributes["race"] == "Spellcaster"
    assert dm.attributes["atk"] == 2500 and dm.attributes["def"] == 2100 and dm.attributes["ot"] == "both"
    assert dm.attributes["frame"] == "normal" and dm.search_name == "dark magician"
    assert Card.objects.get(external_id="55144522").card_type == "spell"
    assert Card.objects.get(external_id="44095762").card_type == "trap"
    assert Card.objects.get(external_id="84013237").attributes["ot"] == "tcg"
    assert "xyz" in Card.objects.get(external_id="84013237").subtypes


def test_it_links_alternate_artworks_to_their_original(games, cdb_bytes):
    cards_import(game=games["yugioh"], data=cdb_bytes(), filename="x.cdb")
    alt = Card.objects.get(external_id="46986415")
    assert alt.identity == "46986414" and alt.attributes["alias"] == "46986414"
    assert Card.objects.get(external_id="46986414").identity == "46986414"


def test_it_unpacks_pendulum_scales_and_link_markers(games, cdb_bytes):
    cards_import(game=games["yugioh"], data=cdb_bytes(), filename="x.cdb")
    odd = Card.objects.get(external_id="16178681")
    assert odd.level == 7 and odd.attributes["lscale"] == 4 and odd.attributes["rscale"] == 4
    assert "pendulum" in odd.subtypes
    link = Card.objects.get(external_id="1861629")
    assert link.level == 3 and "def" not in link.attributes and link.attributes["frame"] == "link"
    assert link.attributes["link_markers"] == ["left", "right", "bottom"]


def test_it_imports_tokens_but_never_as_deck_buildable(games, cdb_bytes):
    cards_import(game=games["yugioh"], data=cdb_bytes(), filename="x.cdb")
    token = Card.objects.get(external_id="73915052")
    assert token.is_token and not token.deck_buildable and "token" in token.subtypes
    assert token.card_type == "monster"


def test_it_rejects_a_file_that_is_not_sqlite(games):
    result = cards_import(game=games["yugioh"], data=b"hello world", filename="x.cdb")
    assert not result.ok and "SQLite" in result.errors[0].reason
    assert not Card.objects.exists()


def test_it_rejects_an_sqlite_file_without_the_cdb_tables(games, tmp_path):
    import sqlite3

    path = tmp_path / "other.cdb"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE something (x)")
    conn.commit()
    conn.close()
    result = cards_import(game=games["yugioh"], data=path.read_bytes(), filename="other.cdb")
    assert "missing table(s) datas, texts" in result.errors[0].reason


def test_it_rejects_a_truncated_database_with_a_message(games, cdb_bytes):
    data = cdb_bytes()
    result = cards_import(game=games["yugioh"], data=data[: len(data) // 3], filename="x.cdb")
    assert not result.ok
    assert "corrupt" in result.errors[0].reason or "SQLite" in result.errors[0].reason


def test_it_reports_every_bad_row_and_imports_nothing(games, cdb_bytes):
    rows = [
        *GOOD_ROWS,
        (1000, 3, 0, 0, 0x11, 0, 0, 99, 0, 0, "Too High", ""),
        (1001, 3, 0, 0, 0x11, "lots", 0, 4, 1, 1, "Bad Atk", ""),
        (1002, 3, 0, 0, 0x11, 0, 0, 4, 1, 1, "", ""),
    ]
    result = cards_import(game=games["yugioh"], data=cdb_bytes(rows), filename="x.cdb")
    assert not result.ok
    fields = {(issue.line, issue.field) for issue in result.errors}
    assert (1000, "level") in fields and (1001, "atk") in fields and (1002, "name") in fields
    assert not Card.objects.exists()
