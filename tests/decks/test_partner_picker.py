"""The builder's partner picker: GET /api/decks/partners/ offers exactly the cards the rule set's pairs let
stand beside a hero (Partner with, Partner, Choose a Background), and the validate API judges the pair the
builder sends as ``co_heroes``."""

from __future__ import annotations

from typing import Any

import pytest

from cards.models import Card

pytestmark = pytest.mark.django_db

FRODO = "Frodo, Adventurous Hobbit"
SAM = "Sam, Loyal Attendant"
PARTNER = "Partner (You can have two commanders if both have partner.)"


def _card(game: Any, name: str, *, kind: str = "creature", text: str = "", colors: str = "", subtypes=()):
    attrs: dict[str, Any] = {"color": list(colors), "manacost": "".join(f"{{{c}}}" for c in colors),
                             "supertypes": ["legendary"]}  # fmt: skip
    return Card.objects.create(game=game, external_id=name, identity=name, name=name, search_name=name.casefold(),
                               card_type=kind, attributes=attrs, text=text, subtypes=list(subtypes))  # fmt: skip


@pytest.fixture
def mtg(games: dict[str, Any]) -> Any:
    game = games["mtg"]
    _card(game, FRODO, text=f"Partner with {SAM} (When this creature enters, target player may put {SAM} "
                            "into their hand from their library, then shuffle.)\nVigilance", colors="WB")  # fmt: skip
    _card(game, SAM, text=f"Partner with {FRODO}", colors="G")
    _card(game, "Tymna the Weaver", text=f"Lifelink\n{PARTNER}", colors="WB")
    _card(game, "Thrasios, Triton Hero", text=PARTNER, colors="GU")
    _card(game, "Wilson, Refined Grizzly", text="Choose a Background (You can have a Background as a second "
                                                "commander.)", colors="G")  # fmt: skip
    _card(game, "Raised by Giants", kind="enchantment", text="Commander creatures you own have base power 10.",
          colors="G", subtypes=["Background"])  # fmt: skip
    for i in range(98):
        _card(game, f"Spell {i}", kind="instant", colors="WBG"[i % 3])
    return game


def _partners(client: Any, hero: str, fmt: str = "commander") -> tuple[int, Any]:
    response = client.get("/api/decks/partners/", {"game": "mtg", "format_slug": fmt, "hero": hero})
    return response.status_code, response.json()


def test_it_offers_the_partners_the_rules_allow_and_nothing_else(mtg, client):
    status, data = _partners(client, FRODO)
    assert status == 200 and data["pairs"] is True
    assert [(p["name"], p["rule"]) for p in data["partners"]] == [(SAM, "Partner with")]
    assert [p["name"] for p in _partners(client, "Tymna the Weaver")[1]["partners"]] == [
        "Thrasios, Triton Hero"
    ]
    assert [p["name"] for p in _partners(client, "Wilson, Refined Grizzly")[1]["partners"]] == [
        "Raised by Giants"
    ]
    assert _partners(client, "Spell 1")[1]["partners"] == []
    # The answer is cached, but a card added to the game is offered at once.
    _card(mtg, "Kraum, Ludevic's Opus", text=PARTNER, colors="UR")
    assert [p["name"] for p in _partners(client, "Tymna the Weaver")[1]["partners"]] == [
        "Kraum, Ludevic's Opus", "Thrasios, Triton Hero"]  # fmt: skip


def test_it_refuses_what_it_cannot_answer_with_a_reason(mtg, client):
    # Well-formed but naming no card / no format of the game: 422; malformed: 400 (README "Errors").
    assert _partners(client, "No Such Card")[0] == 422
    status, data = _partners(client, FRODO, fmt="nonsense")
    assert status == 422 and "nonsense" in str(data)
    response = client.get("/api/decks/partners/", {"game": "nope", "format_slug": "commander", "hero": FRODO})
    assert response.status_code == 400 and "game" in response.json()
    assert client.get("/api/decks/partners/").status_code == 400
    for odd in ("²", "9" * 30, "0"):  # never a 500, whatever the reference
        assert _partners(client, odd)[0] == 422, odd
    assert _partners(client, " ")[0] == 400  # blank
    dated = client.get("/api/decks/partners/", {"game": "mtg", "format_slug": "commander", "hero": FRODO,
                                                "date": "not-a-date"})  # fmt: skip
    assert dated.status_code == 400 and "date" in dated.json()


def test_the_validate_api_judges_the_pair_the_builder_sends(mtg, client):
    body = {"game": "mtg", "format": "commander", "hero": FRODO,
            "sections": {"main": [{"card": f"Spell {i}", "count": 1} for i in range(98)]}}  # fmt: skip
    alone = client.post("/api/decks/validate/", body, content_type="application/json").json()
    assert not alone["legal"]  # 99 cards with one commander
    pair = client.post(
        "/api/decks/validate/", {**body, "co_heroes": [SAM]}, content_type="application/json"
    ).json()
    assert pair["legal"], pair["violations"]
    wrong = client.post(
        "/api/decks/validate/", {**body, "co_heroes": ["Tymna the Weaver"]}, content_type="application/json"
    ).json()
    assert not wrong["legal"] and any("Tymna the Weaver" in v["message"] for v in wrong["violations"])
    unknown = client.post(
        "/api/decks/validate/", {**body, "co_heroes": ["Nobody"]}, content_type="application/json"
    ).json()
    assert not unknown["legal"] and any("Nobody" in v["message"] for v in unknown["violations"])
