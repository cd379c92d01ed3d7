from __future__ import annotations

import pytest

from cards.models import Card, CardSet, Printing
from cards.services import cards_import
from tests.cards.conftest import COCKATRICE_V3, COCKATRICE_V4

pytestmark = pytest.mark.django_db


def test_it_splits_casters_into_name_and_level(games):
    result = cards_import(game=games["caster"], data=COCKATRICE_V3.encode(), filename="c.xml")
    assert result.ok, result.errors
    carella = Card.objects.get(external_id="Carella Lv1")
    assert (carella.name, carella.level, carella.identity, carella.card_type) == (
        "Carella",
        1,
        "Carella|Lv1",
        "caster",
    )
    assert Card.objects.get(external_id="Carella Lv2").identity == "Carella|Lv2"
    assert carella.attributes == {"color": "Ignus"}
    assert str(carella) == "Carella Lv1"


def test_it_reads_types_costs_sets_and_printings(games):
    cards_import(game=games["caster"], data=COCKATRICE_V3.encode(), filename="c.xml")
    imp = Card.objects.get(external_id="Lantern Imp")
    assert imp.card_type == "servant" and imp.subtypes == ["youkai", "heishi"] and imp.cost == 1
    assert imp.attributes["power"] == 10 and imp.attributes["toughness"] == 20
    bond = Card.objects.get(external_id="Twin Spirit")
    assert bond.card_type == "servant" and bond.subtypes[0] == "soul bond"
    sd01 = CardSet.objects.get(game=games["caster"], code="SD01")
    assert sd01.name == "Starter π" and str(sd01.release_date) == "2017-10-20"
    assert Printing.objects.get(card__external_id="Carella Lv1").image_url == "http://example.com/c1.jpg"


def test_it_keeps_tokens_out_of_deck_building(games):
    cards_import(game=games["caster"], data=COCKATRICE_V3.encode(), filename="c.xml")
    coin = Card.objects.get(external_id="The Coin")
    assert coin.is_token and not coin.deck_buildable


def test_it_reads_version_4_files(games):
    result = cards_import(game=games["caster"], data=COCKATRICE_V4.encode(), filename="v4.xml")
    assert result.ok, result.errors
    dragon = Card.objects.get(external_id="Огненный Дракон")
    assert dragon.card_type == "creature" and dragon.subtypes == ["dragon"] and dragon.cost == 5
    assert dragon.attributes["manacost"] == "4R" and dragon.attributes["color"] == "R"
    printing = Printing.objects.get(card=dragon)
    assert (printing.code, printing.rarity) == ("12", "rare")


def test_it_reports_malformed_xml_with_its_line(games):
    broken = COCKATRICE_V3.replace("</card>", "</crad>", 1)
    result = cards_import(game=games["caster"], data=broken.encode(), filename="c.xml")
    assert not result.ok
    assert result.errors[0].line == 6 and "malformed XML" in result.errors[0].reason


def test_it_refuses_entity_expansion(games):
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>'
        '<cockatrice_carddatabase version="3"><cards><card><name>&lol2;</name></card></cards>'
        "</cockatrice_carddatabase>"
    )
    result = cards_import(game=games["caster"], data=bomb.encode(), filename="bomb.xml")
    assert not result.ok and "entities" in result.errors[0].reason
    assert not Card.objects.exists()


def test_it_names_the_line_of_a_wrong_encoding(games):
    data = COCKATRICE_V3.replace("Caster two.", "Caster twö.").encode("latin-1", errors="replace")
    result = cards_import(game=games["caster"], data=data, filename="c.xml")
    assert not result.ok
    assert result.errors[0].line == 9 and "not valid UTF8" in result.errors[0].reason


def test_it_rejects_other_xml(games):
    result = cards_import(game=games["caster"], data=b"<html><body/></html>", filename="x.xml")
    assert not result.ok and "Cockatrice" in result.errors[0].reason


def test_it_reports_every_bad_card_and_imports_nothing(games):
    bad = COCKATRICE_V3.replace("<cmc>1</cmc>", "<cmc>1000000000</cmc>").replace(
        "<name>Carella Lv2</name>", "<name>Carella Lv1</name>"
    )
    result = cards_import(game=games["caster"], data=bad.encode(), filename="c.xml")
    assert not result.ok
    assert {issue.field for issue in result.errors} == {"cmc", "external_id"}
    assert all(issue.line for issue in result.errors)
    assert not Card.objects.exists()
