"""Cockatrice card databases as the community writes them (Magic-Spoiler set files, Duel Masters v4
files): decimal and split mana values, em-dash type lines, one entry per printing, <maintype>, long type
lines, and set after set building one database."""

from __future__ import annotations

from pathlib import Path

import pytest

from cards.models import Card, CardSet, Game, Printing
from cards.services import cards_import

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _mtg(games: dict[str, Game]) -> None:
    """Magic: The Gathering from games/rulesets/mtg.toml: the game these set files are for."""


def _game() -> Game:
    return Game.objects.get(slug="mtg")


def _v3(cards: str, set_code: str = "TST") -> bytes:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="3">
  <sets><set><name>{set_code}</name><longname>Test {set_code}</longname><settype>Core</settype>
  <releasedate>2019-07-12</releasedate></set></sets>
  <cards>{cards}</cards>
</cockatrice_carddatabase>""".encode()


def _card(name: str, type_line: str, cmc: str = "1.0", set_code: str = "TST", pic: str = "a") -> str:
    return (
        f"<card><name>{name}</name>"
        f'<set rarity="Common" picURL="https://img.example/{pic}.jpg">{set_code}</set>'
        f"<manacost>1</manacost><cmc>{cmc}</cmc><color>W</color><type>{type_line}</type>"
        "<loyalty>None</loyalty><tablerow>2</tablerow><text>Text.</text></card>"
    )


def _import(data: bytes) -> None:
    result = cards_import(game=_game(), data=data, filename="set.xml")
    assert result.ok, result.errors[:5]


def test_it_reads_decimal_fractional_and_split_mana_values():
    _import(
        _v3(
            _card("Aether Gust", "Instant", "2.0")
            + _card("Little Girl", "Creature - Human Child", "0.5")
            + _card("Bonecrusher Giant // Stomp", "Creature - Giant // Instant - Adventure", "3 // 2")
        )
    )
    assert Card.objects.get(name="Aether Gust").cost == 2
    assert "cmc" not in Card.objects.get(name="Aether Gust").attributes
    half = Card.objects.get(name="Little Girl")
    assert half.cost == 0 and half.attributes["cmc"] == 0.5
    giant = Card.objects.get(name="Bonecrusher Giant // Stomp")
    assert giant.cost == 3 and giant.attributes["cmc"] == "3 // 2"


def test_it_splits_em_dash_type_lines_into_supertypes_types_and_subtypes():
    _import(
        _v3(
            _card("Kiora", "Legendary Artifact Creature — Human Monk")
            + _card("Forest", "Basic Land - Forest")
            + _card("Bonecrusher Giant // Stomp", "Creature - Giant // Instant - Adventure")
            + _card("Shock", "Instant")
        )
    )
    kiora = Card.objects.get(name="Kiora")
    assert kiora.card_type == "creature" and kiora.subtypes == ["human", "monk"]
    assert kiora.attributes["supertypes"] == ["legendary"]
    assert kiora.attributes["types"] == ["artifact", "creature"]
    assert kiora.attributes["type_line"] == "Legendary Artifact Creature — Human Monk"
    forest = Card.objects.get(name="Forest")
    assert forest.card_type == "land" and forest.subtypes == ["forest"]
    assert forest.attributes["supertypes"] == ["basic"]
    giant = Card.objects.get(name="Bonecrusher Giant // Stomp")
    assert giant.card_type == "creature" and giant.subtypes == ["giant", "adventure"]
    assert giant.attributes["types"] == ["creature", "instant"]
    shock = Card.objects.get(name="Shock")
    assert shock.card_type == "instant" and shock.subtypes == []
    assert "types" not in shock.attributes and "type_line" not in shock.attributes


def test_it_keeps_a_type_line_longer_than_the_type_field():
    long_line = "Legendary Enchantment Creature — Human Werewolf Horror Soldier Wizard Elf"
    _import(_v3(_card("Long One", long_line)))
    card = Card.objects.get(name="Long One")
    assert card.card_type == "creature" and card.attributes["type_line"] == long_line
    assert card.subtypes == ["human", "werewolf", "horror", "soldier", "wizard", "elf"]


def test_it_merges_repeated_names_into_printings_of_one_card():
    _import(
        _v3(
            _card("Acclaimed Contender", "Creature - Human Knight", pic="one")
            + _card("Acclaimed Contender", "Creature - Human Knight", pic="two")
        )
    )
    card = Card.objects.get(name="Acclaimed Contender")
    assert sorted(card.printings.values_list("image_url", flat=True)) == [
        "https://img.example/one.jpg",
        "https://img.example/two.jpg",
    ]


def test_it_prefers_the_v4_maintype_and_keeps_a_race_whole():
    data = b"""<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_carddatabase version="4">
  <sets><set><name>DM01</name><longname>Base Set</longname></set></sets>
  <cards>
    <card><name>Bolshack Dragon</name><text>Double breaker.</text>
      <prop><type>Armored Dragon</type><maintype>Creature</maintype><cmc>6</cmc><colors>R</colors></prop>
      <set rarity="Rare">DM01</set></card>
    <card><name>Aqua Hulcus</name><text>Draw a card.</text>
      <prop><type>Liquid People</type><maintype>Creature</maintype><cmc>3</cmc></prop>
      <set rarity="Uncommon">DM01</set></card>
    <card><name>Holy Awe</name><text>Tap all.</text>
      <prop><type>Spell</type><maintype>Spell</maintype><cmc>6</cmc></prop>
      <set rarity="Rare">DM01</set></card>
  </cards>
</cockatrice_carddatabase>"""
    _import(data)
    bolshack = Card.objects.get(name="Bolshack Dragon")
    assert bolshack.card_type == "creature" and bolshack.subtypes == ["armored dragon"]
    assert Card.objects.get(name="Aqua Hulcus").subtypes == ["liquid people"]
    spell = Card.objects.get(name="Holy Awe")
    assert spell.card_type == "spell" and spell.subtypes == []


def test_importing_set_after_set_adds_printings_instead_of_replacing_them():
    _import(_v3(_card("Plains", "Basic Land — Plains", "0.0", "M20", "m20"), "M20"))
    _import(_v3(_card("Plains", "Basic Land — Plains", "0.0", "ELD", "eld"), "ELD"))
    plains = Card.objects.get(name="Plains")
    assert sorted(plains.printings.values_list("card_set__code", flat=True)) == ["ELD", "M20"]
    # A corrected M20 file replaces the M20 printing and leaves the ELD one alone.
    _import(_v3(_card("Plains", "Basic Land — Plains", "0.0", "M20", "m20-fixed"), "M20"))
    assert sorted(plains.printings.values_list("image_url", flat=True)) == [
        "https://img.example/eld.jpg",
        "https://img.example/m20-fixed.jpg",
    ]
    assert Card.objects.filter(name="Plains").count() == 1


def test_every_real_magic_set_file_imports_into_one_database(shared_data: Path):
    files = sorted((shared_data / "mtg" / "cockatrice").glob("*.xml"))
    assert len(files) == 4
    game = _game()
    for path in files:
        result = cards_import(game=game, data=path.read_bytes(), filename=path.name)
        assert result.ok, (path.name, result.errors[:3])
    assert set(CardSet.objects.filter(game=game).values_list("code", flat=True)) == {
        "ELD",
        "INR",
        "M20",
        "UNF",
    }
    # Basic lands are reprinted in every set: one card each, with printings from all four files.
    plains = Card.objects.get(game=game, name="Plains")
    assert set(plains.printings.values_list("card_set__code", flat=True)) == {"ELD", "INR", "M20", "UNF"}
    assert plains.card_type == "land" and plains.attributes["supertypes"] == ["basic"]
    assert Printing.objects.filter(card__game=game).count() > Card.objects.filter(game=game).count()
    researcher = Card.objects.get(game=game, name="Aberrant Researcher")  # v4, listed once per face image
    assert researcher.card_type == "creature" and researcher.subtypes == ["human", "insect"]
    assert researcher.printings.count() == 2


def test_a_game_of_its_own_words_keeps_its_whole_type():
    _import(_v3(_card("Sword", "Weapon Card")))
    assert Card.objects.get(name="Sword").card_type == "weapon card"


@pytest.mark.parametrize(("written", "stored"), [("2022-4-11", "2022-04-11"), ("2019-07-12", "2019-07-12")])
def test_a_set_date_without_leading_zeros_is_read_as_cockatrice_reads_it(written, stored):
    data = _v3(_card("Dated Card", "Creature - Human")).replace(b"2019-07-12", written.encode())
    result = cards_import(game=_game(), data=data, filename="dated.xml")
    assert result.ok, result.errors
    assert CardSet.objects.get(game=_game(), code="TST").release_date.isoformat() == stored


@pytest.mark.parametrize("written", ["2022-13-01", "2022-2-30", "11/04/2022"])
def test_a_set_date_that_is_no_date_is_still_reported(written):
    data = _v3(_card("Dated Card", "Creature - Human")).replace(b"2019-07-12", written.encode())
    result = cards_import(game=_game(), data=data, filename="dated.xml")
    assert [issue.field for issue in result.errors] == ["set.releasedate"]
