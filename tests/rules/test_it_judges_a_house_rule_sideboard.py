"""The rules API judges a deck as an event with a house-rule sideboard would (``house_sideboard``): a Caster
format without a sideboard gains a side section, its swaps follow the format's size rule, and without the flag
the side section stays unknown."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import make_card

pytestmark = pytest.mark.django_db


@pytest.fixture
def caster(games):  # type: ignore[no-untyped-def]
    game = games["caster"]
    for i in range(13):
        make_card(game, f"C{i}", f"Servant {i}", card_type="servant")
    make_card(game, "S0", "Answer", card_type="servant")
    main = [{"card": f"C{i}", "count": 4} for i in range(12)] + [{"card": "C12", "count": 2}]
    return {
        "game": "caster",
        "format": "standard",
        "sections": {"main": main, "side": [{"card": "S0", "count": 2}]},
    }


def test_a_side_section_is_legal_only_with_the_house_rule(caster, api_client):
    plain = api_client.post("/api/decks/validate/", caster, format="json").json()
    assert plain["legal"] is False
    house = api_client.post("/api/decks/validate/", {**caster, "house_sideboard": True}, format="json").json()
    assert house["legal"] is True, house


def test_house_rule_swaps_keep_the_format_size(caster, api_client):
    body = {
        **caster,
        "house_sideboard": True,
        "swaps": [{"section": "main", "out": "C0", "into": "S0", "count": 2}],
    }
    res = api_client.post("/api/decks/sideboard/", body, format="json").json()
    assert res["report"]["legal"] is True
    assert {"card": "S0", "count": 2} in res["sections"]["main"]
    grow = {**body, "swaps": [{"section": "main", "into": "S0", "count": 1}]}
    res = api_client.post("/api/decks/sideboard/", grow, format="json").json()
    assert res["report"]["legal"] is False  # Caster decks are exactly 50 cards
    without = {**body, "house_sideboard": False}
    res = api_client.post("/api/decks/sideboard/", without, format="json").json()
    assert "sideboard_swap" in [v["code"] for v in res["report"]["violations"]]
