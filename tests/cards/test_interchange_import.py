from __future__ import annotations

import json

import pytest

from cards.models import Card, Printing
from cards.selectors import cards_export
from cards.services import cards_import
from tests.cards.conftest import COCKATRICE_V3, deckhall_json, es_card

pytestmark = pytest.mark.django_db


def _snapshot(game):
    return [
        (
            c.external_id,
            c.identity,
            c.name,
            c.search_name,
            c.card_type,
            c.subtypes,
            c.level,
            c.cost,
            c.attributes,
            c.text,
            c.is_token,
            c.deck_buildable,
            sorted(
                (p.card_set.code, p.card_set.name, p.code, p.rarity, p.image_url) for p in c.printings.all()
            ),
        )
        for c in Card.objects.filter(game=game)
        .order_by("external_id")
        .prefetch_related("printings__card_set")
    ]


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_it_round_trips_a_database_without_loss(games, fmt):
    everseal = games["everseal"]
    tricky = es_card(
        "x1", "Странный «5»", text='line one\nline, two "quoted"', level=3, cost=0, subtypes=["image", "a|b"]
    )
    tricky["attributes"] |= {
        "note": "5",
        "empty": "",
        "nothing": None,
        "nested": {"k": [1, "два"]},
        "flag": True,
    }
    cards_import(game=everseal, data=deckhall_json([tricky, es_card("x2", "Обычный")]), filename="a.json")
    cards_import(game=games["caster"], data=COCKATRICE_V3.encode(), filename="c.xml")
    for game in (everseal, games["caster"]):
        before = _snapshot(game)
        exported = cards_export(game=game, fmt=fmt)
        Card.objects.filter(game=game).delete()
        result = cards_import(game=game, data=exported, filename=f"export.{fmt}")
        assert result.ok, result.errors
        assert _snapshot(game) == before
        assert cards_export(game=game, fmt=fmt) == exported


def test_it_reads_a_hand_written_csv_with_attribute_columns(games):
    csv_text = (
        "external_id,name,card_type,subtypes,level,attr.size,attr.keywords,attr.atk\n"
        'm1,Волк,monster,image|beast,,S,"[""Стая""]",3\n'
    )
    result = cards_import(game=games["everseal"], data=csv_text.encode(), filename="cards.csv")
    assert result.ok, result.errors
    wolf = Card.objects.get(external_id="m1")
    assert wolf.subtypes == ["image", "beast"] and wolf.attributes == {
        "size": "S",
        "keywords": ["Стая"],
        "atk": 3,
    }
    assert wolf.identity == "Волк" and wolf.search_name == "волк"


def test_it_names_missing_csv_columns(games):
    result = cards_import(game=games["everseal"], data=b"id,title\n1,x\n", filename="cards.csv")
    assert not result.ok
    assert "missing column(s): external_id, name" in result.errors[0].reason and result.errors[0].line == 1


def test_it_lists_every_absurd_value_with_its_row(games):
    csv_text = (
        "external_id,name,level,cost,is_token\n"
        "a,Ok,1,1,false\n"
        "b,Huge,1000000000,1,false\n"
        "c,Negative,1,-5,false\n"
        "d,,1,1,maybe\n"
    )
    result = cards_import(game=games["everseal"], data=csv_text.encode(), filename="cards.csv")
    assert not result.ok
    got = {(issue.line, issue.field) for issue in result.errors}
    assert {(3, "level"), (4, "cost"), (5, "name"), (5, "is_token")} <= got
    assert not Card.objects.exists()


def test_it_rejects_a_csv_in_the_wrong_encoding(games):
    data = "external_id,name\n1,Волк\n".encode("cp1251")
    result = cards_import(game=games["everseal"], data=data, filename="cards.csv")
    assert not result.ok and "not UTF-8" in result.errors[0].reason and result.errors[0].line == 2


def test_it_rejects_malformed_json_and_files_for_another_game(games):
    bad = cards_import(game=games["everseal"], data=b'{"cards": [ {"name": }', filename="x.json")
    assert "malformed JSON" in bad.errors[0].reason and bad.errors[0].line == 1
    other = cards_import(
        game=games["everseal"], data=deckhall_json([es_card("1", "A")], game="yugioh"), filename="x.json"
    )
    assert "for the game 'yugioh'" in other.errors[0].reason


def test_it_rejects_script_urls_for_images(games):
    card = es_card("1", "A", printings=[{"set": "S", "image_url": "javascript:alert(1)"}])
    result = cards_import(game=games["everseal"], data=deckhall_json([card]), filename="x.json")
    assert not result.ok and result.errors[0].field == "printings.image_url"
    assert not Printing.objects.exists()


def test_it_reports_duplicate_external_ids(games):
    result = cards_import(
        game=games["everseal"], data=deckhall_json([es_card("1", "A"), es_card("1", "B")]), filename="x.json"
    )
    assert [(i.line, i.field) for i in result.errors] == [(2, "external_id")]
    assert json.dumps(result.error_dicts())
