from __future__ import annotations

import io

import pytest
from django.test import override_settings

from cards import demo
from cards.models import Card

pytestmark = pytest.mark.django_db


@override_settings(SHARED_DATA_DIR="/nonexistent-shared-data")
def test_it_loads_the_shipped_samples_idempotently(games):
    out = io.StringIO()
    demo.load(out)
    counts = {slug: Card.objects.filter(game__slug=slug).count() for slug in games}
    demo.load(io.StringIO())
    assert {slug: Card.objects.filter(game__slug=slug).count() for slug in games} == counts
    assert "failed" not in out.getvalue()
    assert counts["caster"] == 16 and counts["vale"] == 10 and counts["yugioh"] == 53
    heroes = Card.objects.filter(game__slug="everseal", card_type="hero")
    assert heroes.count() == 8
    # Every kind of hero restriction the validator knows is shown by at least one sample hero.
    kinds = {r["kind"] for hero in heroes for r in hero.attributes["restrictions"]}
    assert kinds == {"forbid", "at_least", "at_most", "only", "require", "copy_limit", "section_size"}
    regions = set(
        Card.objects.filter(game__slug="everseal", card_type="monster").values_list(
            "attributes__region", flat=True
        )
    )
    assert len(regions) == 4
    sizes = set(
        Card.objects.filter(game__slug="everseal", card_type="monster").values_list(
            "attributes__size", flat=True
        )
    )
    assert sizes == {"S", "M", "L"}
    twin_types = set(Card.objects.filter(game__slug="twindeck").values_list("card_type", flat=True))
    assert twin_types == {"creature", "weapon", "armor", "amulet", "artifact", "event", "potion", "scroll"}
    assert set(Card.objects.filter(game__slug="twindeck").values_list("attributes__back", flat=True)) == {
        "red",
        "blue",
    }
    for card in Card.objects.filter(game__slug="twindeck"):
        assert card.attributes["back"] == ("red" if card.card_type == "creature" else "blue")


def test_the_yugioh_sample_can_build_a_legal_deck(games):
    demo.load(io.StringIO())
    ygo = Card.objects.filter(game__slug="yugioh", deck_buildable=True)
    banned = {"55144522", "12580477", "18144506", "79571449", "83764718"}
    main = (
        ygo.exclude(external_id__in=banned)
        .exclude(subtypes__icontains="fusion")
        .exclude(subtypes__icontains="synchro")
        .exclude(subtypes__icontains="xyz")
        .exclude(subtypes__icontains="link")
    )
    assert len({c.identity for c in main}) * 3 >= 40
    assert ygo.filter(subtypes__icontains="link").count() >= 1
