from __future__ import annotations

import json

import pytest

from cards.models import Card
from cards.services import cards_import

pytestmark = pytest.mark.django_db


def test_it_imports_the_shipped_vale_sample(games):
    from cards.demo import SAMPLES

    result = cards_import(
        game=games["vale"], data=(SAMPLES / "vale-sample.json").read_bytes(), filename="v.json"
    )
    assert result.ok and result.created == 10
    gale = Card.objects.get(game=games["vale"], name="Sample Gale")
    assert gale.card_type == "creature" and gale.cost == 7 and gale.identity == "Sample Gale"
    assert gale.attributes["family"] == "wind" and gale.attributes["effect_types"] == ["permanent", "instant"]
    assert len(gale.attributes["effects"]) == 2


def test_it_reports_bad_families_costs_and_effects(games):
    doc = {
        "cards": [
            {"name": "A", "family": "fire", "cost": 1, "effects": [{"type": "instant", "text": "x"}]},
            {"name": "B", "family": "lava", "cost": 1, "effects": []},
            {"name": "C", "family": "fire", "cost": "lots", "effects": [{"type": "sometimes"}]},
        ]
    }
    result = cards_import(game=games["vale"], data=json.dumps(doc).encode(), filename="v.json", fmt="vale")
    assert {(i.line, i.field) for i in result.errors} == {(2, "family"), (3, "cost"), (3, "effects.type")}
    assert not Card.objects.exists()


def test_an_exported_vale_database_imports_back_as_deckhall_json(games):
    """The Vale list's attributes (family, effects) must not make its own export look like a Vale list."""
    from cards.demo import SAMPLES
    from cards.selectors import cards_export

    vale = games["vale"]
    cards_import(game=vale, data=(SAMPLES / "vale-sample.json").read_bytes(), filename="v.json")
    before = list(
        Card.objects.filter(game=vale).order_by("pk").values_list("pk", "name", "cost", "attributes")
    )
    for fmt in ("json", "csv"):
        exported = cards_export(game=vale, fmt=fmt)
        result = cards_import(game=vale, data=exported, filename=f"vale-cards.{fmt}")
        assert result.ok, result.errors[:3]
        assert (result.fmt, result.unchanged) == (fmt, 10)
    after = list(
        Card.objects.filter(game=vale).order_by("pk").values_list("pk", "name", "cost", "attributes")
    )
    assert after == before
