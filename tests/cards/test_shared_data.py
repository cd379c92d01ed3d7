"""The real databases in ../shared/data (skipped when that directory is absent)."""

from __future__ import annotations

import pytest

from cards.models import Card
from cards.services import cards_import

pytestmark = pytest.mark.django_db


def test_it_loads_the_whole_ygopro_database_with_alternate_artworks_linked(games, shared_data):
    path = shared_data / "ygo" / "cdb" / "cards-2020-03-30.cdb"
    result = cards_import(game=games["yugioh"], data=path.read_bytes(), filename=path.name)
    assert result.ok, result.errors[:5]
    cards = Card.objects.filter(game=games["yugioh"])
    assert cards.count() == 10628
    original, alternate = cards.get(external_id="46986414"), cards.get(external_id="46986415")
    assert original.identity == alternate.identity == "46986414"
    assert cards.exclude(attributes__alias=None).filter(attributes__has_key="alias").count() == 178
    assert not cards.filter(is_token=True, deck_buildable=True).exists()


def test_it_loads_the_caster_xml_with_casters_split(games, shared_data):
    path = shared_data / "caster" / "caster-chronicles.cockatrice.xml"
    result = cards_import(game=games["caster"], data=path.read_bytes(), filename=path.name)
    assert result.ok, result.errors[:5]
    cards = Card.objects.filter(game=games["caster"])
    assert cards.count() == 270 and cards.filter(is_token=True).count() == 1
    assert cards.filter(deck_buildable=True).count() == 269
    carella = cards.get(external_id="Carella Lv1")
    assert (carella.name, carella.level, carella.identity) == ("Carella", 1, "Carella|Lv1")
    assert cards.filter(card_type="caster").count() == 85
    assert not cards.filter(card_type="caster", level=None).exists()


def test_it_loads_the_vale_list(games, shared_data):
    path = shared_data / "vale" / "cards.json"
    result = cards_import(game=games["vale"], data=path.read_bytes(), filename=path.name)
    assert result.ok and result.created == 70
    families = Card.objects.filter(game=games["vale"]).values_list("attributes__family", flat=True)
    assert sorted(set(families)) == ["dragon", "earth", "fire", "water", "wind"]
