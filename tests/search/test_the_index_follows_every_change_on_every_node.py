"""Each web process keeps its own index of a game's cards; every request compares it with the game's
``cards_version`` read from the database, so a change committed by any node (an import, a card edited) is
searched at once everywhere, and a refused import leaves the index as it was (nothing half-built)."""

from __future__ import annotations

import json

import pytest
from django.db import transaction

pytestmark = pytest.mark.django_db


def card(external_id: str, name: str, text: str = "") -> dict:
    return {"external_id": external_id, "name": name, "card_type": "creature", "subtypes": [], "cost": 2,
            "attributes": {"color": ["R"]}, "text": text, "printings": [{"set": "TST", "code": external_id}]}  # fmt: skip


def deckhall_file(*cards: dict) -> bytes:
    body = {"format": "deckhall-cards", "version": 1, "game": "mtg",
            "sets": [{"code": "TST", "name": "Test set"}], "cards": list(cards)}  # fmt: skip
    return json.dumps(body).encode()


def names(client, q: str) -> list[str]:  # type: ignore[no-untyped-def]
    response = client.get("/api/cards/", {"game": "mtg", "q": q})
    assert response.status_code == 200, response.content[:200]
    return [c["name"] for c in response.json()["results"]]


def test_a_change_committed_by_another_node_is_searched_at_once(client, games) -> None:  # type: ignore[no-untyped-def]
    from cards.models import Card, Game
    from cards.search import game_index
    from cards.services import cards_import

    mtg = games["mtg"]
    assert cards_import(game=mtg, data=deckhall_file(card("1", "Alpha Dragon"), card("2", "Beta Knight")),
                        filename="a.json").ok  # fmt: skip
    assert names(client, "knight") == ["Beta Knight"]
    before = game_index(Game.objects.get(pk=mtg.pk))

    # Another web node's import: rows and the version token written in one transaction, no signal fired in
    # this process (queryset updates), so only the database tells this node its index is old.
    with transaction.atomic():
        Card.objects.filter(external_id="2").update(name="Gamma Knight", search_name="gamma knight",
                                                    text="Draw a card.")  # fmt: skip
        Game.objects.filter(pk=mtg.pk).update(cards_version="written-by-another-node")
    assert names(client, "gamma") == ["Gamma Knight"]
    assert names(client, 'o:"draw a card"') == ["Gamma Knight"]
    assert names(client, "beta") == []
    assert game_index(Game.objects.get(pk=mtg.pk)) is not before

    # A card saved through the ORM (the admin, an editor) bumps the token in its own transaction.
    gamma = Card.objects.get(external_id="2")
    gamma.name, gamma.search_name = "Delta Knight", "delta knight"
    gamma.save()
    assert names(client, "delta") == ["Delta Knight"]


def test_a_refused_import_leaves_the_index_as_it_was(client, games) -> None:  # type: ignore[no-untyped-def]
    from cards.models import Game
    from cards.search import game_index
    from cards.services import cards_import

    mtg = games["mtg"]
    assert cards_import(game=mtg, data=deckhall_file(card("1", "Alpha Dragon")), filename="a.json").ok
    assert names(client, "dragon") == ["Alpha Dragon"]
    version = Game.objects.get(pk=mtg.pk).cards_version
    index = game_index(Game.objects.get(pk=mtg.pk))

    broken = deckhall_file(card("3", "Epsilon Dragon"), {**card("4", ""), "name": ""})
    result = cards_import(game=mtg, data=broken, filename="b.json")
    assert not result.ok
    assert Game.objects.get(pk=mtg.pk).cards_version == version
    assert names(client, "dragon") == ["Alpha Dragon"]
    assert game_index(Game.objects.get(pk=mtg.pk)) is index
