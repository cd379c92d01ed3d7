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
        "<cmc>0</cmc>", "<cmc>nothing</cmc>"
    )
    result = cards_import(game=games["caster"], data=bad.encode(), filename="c.xml")
    assert not result.ok
    assert [issue.field for issue in result.errors] == ["cmc", "cmc"]
    assert all(issue.line for issue in result.errors)
    assert not Card.objects.exists()


# A version 4 file as Cockatrice's oracle and custom-set guides write it: card properties inside <prop>,
# <set> with uuid/num/rarity/picurl attributes, related cards, tokens, a game-defined property.
COCKATRICE_V4_FULL = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets>
    <set>
      <name>SD01</name>
      <longname>Starter Deck [Wings of Anger]</longname>
      <settype>Starter</settype>
      <releasedate>2017-10-20</releasedate>
    </set>
    <set>
      <name>BP01</name>
      <longname>Booster Pack Vol. 1</longname>
      <settype>Expansion</settype>
      <releasedate>2017-12-01</releasedate>
    </set>
  </sets>
  <cards>
    <card>
      <name>Carella Lv2</name>
      <text>[Rest]: Produce [1].</text>
      <prop>
        <layout>normal</layout>
        <side>front</side>
        <type>Caster</type>
        <maintype>Caster</maintype>
        <cmc>0</cmc>
        <colors>Ignus</colors>
        <faction>Wings</faction>
        <format-standard>legal</format-standard>
      </prop>
      <set rarity="rare" uuid="7d3c-01" num="001" picurl="https://example.com/carella2.jpg">SD01</set>
      <set rarity="secret" uuid="7d3c-02" num="S01">BP01</set>
      <related attach="attach">The Coin</related>
      <tablerow>1</tablerow>
      <cipt>1</cipt>
    </card>
    <card>
      <name>Ember Sprite</name>
      <text>Servant &amp; friend &lt;fast&gt;.</text>
      <prop>
        <type>Servant - Youkai/Heishi</type>
        <maintype>Servant</maintype>
        <manacost>2</manacost>
        <cmc>2</cmc>
        <colors>Ignus</colors>
        <pt>20/10</pt>
      </prop>
      <set rarity="common" num="014">BP01</set>
      <reverse-related count="2">The Coin</reverse-related>
      <tablerow>2</tablerow>
    </card>
    <card>
      <name>The Coin</name>
      <text>Banish this card: Produce [1].</text>
      <prop><type>Token</type><maintype>Token</maintype><cmc>0</cmc></prop>
      <set>SD01</set>
      <token>1</token>
      <tablerow>0</tablerow>
      <upsidedown>1</upsidedown>
    </card>
  </cards>
</cockatrice_carddatabase>
"""


def test_it_reads_a_realistic_version_4_database(games):
    result = cards_import(game=games["caster"], data=COCKATRICE_V4_FULL.encode(), filename="caster-v4.xml")
    assert result.ok, [str(issue) for issue in result.errors]
    assert (result.fmt, result.created) == ("cockatrice", 3)
    carella = Card.objects.get(external_id="Carella Lv2")
    assert (carella.name, carella.level, carella.identity, carella.card_type, carella.cost) == (
        "Carella",
        2,
        "Carella|Lv2",
        "caster",
        0,
    )
    # Properties from <prop> become attributes; a game's own property is kept (and searchable).
    assert carella.attributes["color"] == "Ignus" and carella.attributes["faction"] == "Wings"
    assert carella.attributes["format_standard"] == "legal" and carella.attributes["side"] == "front"
    assert carella.attributes["related"] == ["The Coin"]
    printings = {
        (p.card_set.code, p.code, p.rarity, p.image_url) for p in Printing.objects.filter(card=carella)
    }
    assert printings == {
        ("SD01", "001", "rare", "https://example.com/carella2.jpg"),
        ("BP01", "S01", "secret", ""),
    }
    sprite = Card.objects.get(external_id="Ember Sprite")
    assert sprite.card_type == "servant" and sprite.subtypes == ["youkai", "heishi"] and sprite.cost == 2
    assert sprite.text == "Servant & friend <fast>." and sprite.attributes["power"] == 20
    coin = Card.objects.get(external_id="The Coin")
    assert coin.is_token and not coin.deck_buildable
    assert CardSet.objects.get(game=games["caster"], code="BP01").name == "Booster Pack Vol. 1"


def test_a_version_4_file_with_a_bad_prop_reports_its_line(games):
    bad = COCKATRICE_V4_FULL.replace("<cmc>2</cmc>", "<cmc>two</cmc>")
    result = cards_import(game=games["caster"], data=bad.encode(), filename="caster-v4.xml")
    assert [(issue.field, issue.card) for issue in result.errors] == [("cmc", "Ember Sprite")]
    assert result.errors[0].line == 37
    assert not Card.objects.exists()
