"""Hostile and malformed files: each gets a message naming what is wrong, never an exception, and
nothing is written. (Before this, NaN, a non-list "sets" or a list-valued Vale family crashed the import.)"""

from __future__ import annotations

import json

import pytest

from cards.models import Card, CardSet
from cards.services import cards_import
from tests.cards.conftest import GOOD_ROWS, deckhall_json, es_card

pytestmark = pytest.mark.django_db


def _fails(result, field: str, words: str) -> None:
    assert not result.ok, "the file should have been refused"
    assert any(issue.field == field and words in issue.reason for issue in result.errors), [
        str(issue) for issue in result.errors
    ]
    assert not Card.objects.exists() and not CardSet.objects.exists()


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_it_refuses_non_numbers_in_json_instead_of_crashing(games, constant):
    data = (
        b'{"cards": [{"external_id": "1", "name": "A", "attributes": {"atk": ' + constant.encode() + b"}}]}"
    )
    result = cards_import(game=games["everseal"], data=data, filename="x.json")
    _fails(result, "", f"{constant} is not a number JSON allows")


def test_a_nan_cell_in_a_csv_is_text_not_a_number(games):
    result = cards_import(
        game=games["everseal"], data=b"external_id,name,attr.note\n1,A,NaN\n", filename="x.csv"
    )
    assert result.ok, result.errors
    assert Card.objects.get().attributes == {"note": "NaN"}


def test_it_names_json_fields_of_the_wrong_type(games):
    cards = [
        {"external_id": {"id": 1}, "name": ["Волк"], "text": ["a"], "card_type": 5},
        {**es_card("2", "Ёж"), "printings": [{"set": ["S"]}]},
        {**es_card("3", "Ok"), "identity": 46986414},  # a passcode as a number is fine
    ]
    result = cards_import(game=games["everseal"], data=deckhall_json(cards), filename="x.json")
    got = {(issue.line, issue.field, issue.reason) for issue in result.errors}
    assert {
        (1, "external_id", "must be text, got an object"),
        (1, "name", "must be text, got a list"),
        (1, "text", "must be text, got a list"),
        (1, "card_type", "must be text, got int"),
        (2, "printings.set", "must be text, got a list"),
    } <= got
    assert not any(line == 3 for line, _, _ in got)
    assert not Card.objects.exists()


def test_it_refuses_a_sets_value_that_is_not_a_list(games):
    data = json.dumps({"sets": 5, "cards": [es_card("1", "A")]}).encode()
    _fails(cards_import(game=games["everseal"], data=data, filename="x.json"), "sets", "must be a list")
    data = json.dumps({"sets": [{"code": {"x": 1}}], "cards": [es_card("1", "A")]}).encode()
    _fails(cards_import(game=games["everseal"], data=data, filename="x.json"), "sets.code", "must be text")


def test_it_refuses_nul_characters_and_overlong_set_fields(games):
    nul = cards_import(
        game=games["everseal"], data=deckhall_json([es_card("1", "Во\x00лк")]), filename="x.json"
    )
    _fails(nul, "name", "NUL")
    long_set = deckhall_json([es_card("1", "A")], sets=[{"code": "S", "name": "n" * 201}])
    _fails(
        cards_import(game=games["everseal"], data=long_set, filename="x.json"), "set.name", "longer than 200"
    )
    rarity = deckhall_json([es_card("1", "A", printings=[{"set": "S", "rarity": "r" * 41}])])
    _fails(
        cards_import(game=games["everseal"], data=rarity, filename="x.json"), "printings", "rarity (max 40)"
    )


def test_it_refuses_a_csv_header_naming_a_column_twice(games):
    result = cards_import(game=games["everseal"], data=b"external_id,name,name\n1,a,b\n", filename="x.csv")
    _fails(result, "", "named twice in the header: name")


@pytest.mark.parametrize("data", [b"", b"  \n\t", b"\xef\xbb\xbf\n"])
@pytest.mark.parametrize("filename", ["", "cards.csv", "cards.json", "cards.cdb", "cards.xml"])
def test_it_says_an_empty_file_is_empty(games, data, filename):
    result = cards_import(game=games["everseal"], data=data, filename=filename)
    assert [issue.reason for issue in result.errors] == ["the file is empty"]


def test_it_names_vale_fields_of_the_wrong_type(games):
    doc = {
        "cards": [
            {"name": "A", "family": ["fire"], "cost": 1, "effects": []},
            {"name": "B", "family": "fire", "cost": 1, "effects": [{"type": ["instant"]}]},
            {"name": ["C"], "family": "fire", "cost": 1, "effects": [{"type": "instant", "text": 5}]},
        ]
    }
    result = cards_import(game=games["vale"], data=json.dumps(doc).encode(), filename="v.json", fmt="vale")
    assert {(i.line, i.field) for i in result.errors} == {
        (1, "family"),
        (2, "effects.type"),
        (3, "name"),
        (3, "effects.text"),
    }
    assert not Card.objects.exists()


def test_it_refuses_absurd_values_in_a_cdb(games, cdb_bytes):
    rows = [
        *GOOD_ROWS,
        (1000, 3, 0, 0, 0x11, 10**11, 0, 4, 1, 1, "Huge Atk", ""),
        (1001, 3, -5, 0, 0x11, 0, 0, 4, 1, 1, "Negative Alias", ""),
        (1002, 3, 0, 0, 0x11, 0, 0, 0xFF, 1, 1, "Level 255", ""),
        (1003, 3, 0, 0, 0x11, 0, -7, 4, 1, 1, "Negative Def", ""),
    ]
    result = cards_import(game=games["yugioh"], data=cdb_bytes(rows), filename="x.cdb")
    assert {(issue.line, issue.field) for issue in result.errors} == {
        (1000, "atk"),
        (1001, "alias"),
        (1002, "level"),
        (1003, "def"),
    }
    assert "out of range" in result.errors[0].reason
    assert not Card.objects.exists()


def test_it_refuses_a_file_meant_for_another_game(games, cdb_bytes):
    cdb = cards_import(game=games["caster"], data=cdb_bytes(), filename="cards.cdb")
    _fails(cdb, "game", "holds cards of the game yugioh, not 'caster'")
    vale = {"cards": [{"name": "A", "family": "fire", "cost": 1, "effects": []}]}
    result = cards_import(game=games["yugioh"], data=json.dumps(vale).encode(), filename="v.json")
    _fails(result, "game", "holds cards of the game vale, not 'yugioh'")
