"""What is not the game's is refused (a Duel Masters .cdb into Yu-Gi-Oh!), and a second source for the same
game finds the cards already there by their identity instead of importing a second copy of each."""

from __future__ import annotations

import pytest

from cards.models import Card, Printing
from cards.services import cards_import
from tests.cards import magic_files
from tests.cards.conftest import GOOD_ROWS, make_cdb

pytestmark = pytest.mark.django_db

# Rows as ygopro-dm (the Duel Masters simulator on the YGOPro engine) writes them: 24SSSNNN ids, a creature
# is TYPE_EFFECT, the mana cost sits in `level`, the civilization in `attribute`, the power in `atk`.
DUEL_MASTERS = [
    (24001002, 0, 0, 0x2, 0x21, 3000, 0, 3, 0x2, 0x10, "Dia Nork, Moonlight Guardian",
     "Blocker (Whenever an opponent's creature attacks, you may tap this creature to stop the attack.)"),
    (24001006, 0, 0, 0, 0x2, 0, 0, 6, 0, 0x10, "Holy Awe",
     "Shield trigger (When this spell is put into your hand from your shield zone, you may cast it for no cost.)\n"
     "Tap all your opponent's creatures in the battle zone."),
    (24001055, 0, 0, 0xd, 0x21, 6000, 0, 8, 0xd, 0x20, "Gigaberos",
     "Double breaker (This creature breaks 2 shields.)\nWhen you put this creature into the battle zone, "
     "destroy 2 of your other creatures or destroy this creature."),
    (24001069, 0, 0, 0x1012, 0x21, 6000, 0, 7, 0x12, 0x8, "Bolshack Dragon",
     "While attacking, this creature gets +1000 power for each fire card in your graveyard.\nDouble breaker"),
    (24001095, 0, 0, 0x17, 0x21, 1000, 0, 2, 0x17, 0x2, "Bronze-Arm Tribe",
     "When you put this creature into the battle zone, put the top card of your deck into your mana zone."),
]  # fmt: skip

YGO_COCKATRICE = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>LOB</name><longname>Legend of Blue Eyes White Dragon</longname><settype>Booster</settype>
    <releasedate>2002-03-08</releasedate></set></sets>
  <cards>
    <card><name>Dark Magician</name><text>The ultimate wizard in terms of attack and defense.</text>
      <prop><type>Normal Monster - Spellcaster</type><maintype>Monster</maintype><pt>2500/2100</pt></prop>
      <set rarity="Ultra Rare" num="LOB-005" picURL="https://images.ygoprodeck.com/images/cards/46986414.jpg">LOB</set></card>
    <card><name>Pot of Greed</name><text>Draw 2 cards.</text>
      <prop><type>Normal Spell</type><maintype>Spell</maintype></prop>
      <set rarity="Rare" num="LOB-119">LOB</set></card>
    <card><name>Raigeki</name><text>Destroy all monsters your opponent controls.</text>
      <prop><type>Normal Spell</type><maintype>Spell</maintype></prop>
      <set rarity="Super Rare" num="LOB-053">LOB</set></card>
  </cards>
</cockatrice_carddatabase>"""


def test_it_refuses_a_duel_masters_cdb_with_the_reason(games, tmp_path):
    data = make_cdb(tmp_path / "dm.cdb", DUEL_MASTERS)
    result = cards_import(game=games["yugioh"], data=data, filename="cards.cdb")
    assert not result.ok
    reason = str(result.errors[0])
    assert "Duel Masters database, not Yu-Gi-Oh!" in reason and "5 of 5 card texts" in reason
    assert not Card.objects.exists()


def test_it_still_reads_real_yugioh_texts_that_mention_a_shield_or_two(games, tmp_path):
    rows = [*GOOD_ROWS, (10000009, 3, 0, 0, 0x21, 1200, 1800, 4, 0x1, 0x10, "Shield Warrior",
                         "A warrior with a big shield.")]  # fmt: skip
    data = make_cdb(tmp_path / "cards.cdb", rows)
    assert cards_import(game=games["yugioh"], data=data, filename="cards.cdb").ok


def test_a_cockatrice_file_after_the_cdb_matches_cards_by_name(games, tmp_path):
    cdb = make_cdb(tmp_path / "cards.cdb", GOOD_ROWS)
    assert cards_import(game=games["yugioh"], data=cdb, filename="cards.cdb").ok
    before = Card.objects.filter(game__slug="yugioh").count()
    result = cards_import(game=games["yugioh"], data=YGO_COCKATRICE.encode(), filename="ygo.xml")
    assert result.ok, result.errors
    assert Card.objects.filter(game__slug="yugioh").count() == before + 1  # only Raigeki is new
    magician = Card.objects.get(external_id="46986414")  # the original artwork, not the alternate one
    assert magician.card_type == "monster" and magician.attributes["atk"] == 2500  # the .cdb's data stays
    assert [(p.card_set.code, p.code, p.rarity) for p in magician.printings.select_related("card_set")] == [
        ("LOB", "LOB-005", "Ultra Rare")
    ]
    assert not Printing.objects.filter(card__external_id="46986415").exists()
    assert Card.objects.get(external_id="55144522").printings.get().code == "LOB-119"
    # Importing it again changes nothing and duplicates nothing.
    again = cards_import(game=games["yugioh"], data=YGO_COCKATRICE.encode(), filename="ygo.xml")
    assert again.ok and again.created == 0
    assert Card.objects.filter(game__slug="yugioh").count() == before + 1


def test_a_new_artwork_in_a_cdb_is_not_taken_for_the_card_of_the_same_name(games, tmp_path):
    assert cards_import(
        game=games["yugioh"], data=make_cdb(tmp_path / "a.cdb", GOOD_ROWS[:1]), filename="a.cdb"
    ).ok
    alternate = (
        36996508,
        3,
        46986414,
        0,
        0x11,
        2500,
        2100,
        7,
        0x2,
        0x20,
        "Dark Magician",
        "The ultimate wizard.",
    )
    result = cards_import(
        game=games["yugioh"], data=make_cdb(tmp_path / "b.cdb", [alternate]), filename="b.cdb"
    )
    assert result.ok and result.created == 1
    assert Card.objects.filter(name="Dark Magician").count() == 2


def test_a_magic_cockatrice_set_after_mtgjson_joins_both_faces_to_one_card(games, tmp_path):
    path = magic_files.write(tmp_path / "AllPrintings.json", magic_files.all_printings())
    assert cards_import(game=games["mtg"], data=b"", source=path).ok
    xml = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4"><sets><set><name>SPL</name><longname>Spoiled</longname></set></sets><cards>
<card><name>Delver of Secrets</name><text>At the beginning of your upkeep…</text>
  <prop><type>Creature — Human Wizard</type><maintype>Creature</maintype><cmc>1</cmc><manacost>U</manacost></prop>
  <set rarity="Common" picURL="https://cards.scryfall.io/normal/front/a/b/ab.jpg">SPL</set></card>
<card><name>Insectile Aberration</name><text>Flying</text>
  <prop><type>Creature — Human Insect</type><maintype>Creature</maintype></prop>
  <set rarity="Common" picURL="https://cards.scryfall.io/normal/back/a/b/ab.jpg">SPL</set></card>
</cards></cockatrice_carddatabase>"""
    before = Card.objects.filter(game__slug="mtg").count()
    result = cards_import(game=games["mtg"], data=xml.encode(), filename="SPL.xml")
    assert result.ok and result.created == 0
    assert Card.objects.filter(game__slug="mtg").count() == before
    delver = Card.objects.get(name="Delver of Secrets // Insectile Aberration")
    assert sorted(delver.printings.values_list("card_set__code", flat=True)) == ["INR", "SPL", "SPL"]
