"""The card list and the builder's grouped search page a query's answer straight from the in-process index
(order, count, page, printings): the same cards, the same JSON and the same order as the SQL path gives,
exact name matches first, on the full shared Yu-Gi-Oh! .cdb and the Magic set files."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def ygo(shared_data: Path, games):  # type: ignore[no-untyped-def]
    from cards.services import cards_import

    cdb = shared_data / "ygo" / "cdb" / "cards-2020-03-30.cdb"
    assert cards_import(game=games["yugioh"], data=cdb.read_bytes(), filename=cdb.name).ok
    return games["yugioh"]


def pages(client, endpoint: str, **params: str) -> list[dict]:  # type: ignore[no-untyped-def]
    out: list[dict] = []
    page = 1
    while True:
        response = client.get(endpoint, {"game": "yugioh", "page_size": 100, "page": page, **params})
        assert response.status_code == 200, response.content[:300]
        data = response.json()
        out.extend(data["results"])
        if len(out) >= data["count"]:
            assert len(out) == data["count"]
            return out
        page += 1


def test_the_index_pages_the_cards_the_sql_path_orders(client, ygo) -> None:  # type: ignore[no-untyped-def]
    """ordering=-name goes through SQL (ORDER BY over the matches); name order is the index's own."""
    for q in ("t:dragon atk>=3000", "magician -t:spell", 'o:"draw 1 card"'):
        from_index = [card["id"] for card in pages(client, "/api/cards/", q=q)]
        by_sql = [card["id"] for card in pages(client, "/api/cards/", q=q, ordering="-name")]
        assert from_index and from_index == by_sql[::-1], q
    buildable = pages(client, "/api/cards/", q="dragon", deck_buildable="false")
    assert buildable and all(not card["deck_buildable"] for card in buildable)


def test_exact_name_matches_come_first(client, ygo) -> None:  # type: ignore[no-untyped-def]
    names = [card["name"] for card in pages(client, "/api/cards/", q="blue eyes white dragon")]
    assert names[0] == "Blue-Eyes White Dragon"
    # Without the ranking, name order puts "Blue-Eyes Alternative White Dragon" first.
    assert "Blue-Eyes Alternative White Dragon" in names and names != sorted(names, key=str.casefold)
    rows = pages(client, "/api/cards/grouped/", q="blue eyes white dragon")
    assert rows[0]["name"] == "Blue-Eyes White Dragon" and len(rows[0]["printings"]) > 1
    assert pages(client, "/api/cards/", q="dark magician")[0]["name"] == "Dark Magician"


def test_the_written_out_serializers_give_drf_s_own_json(client, ygo) -> None:  # type: ignore[no-untyped-def]
    from rest_framework import serializers

    from cards import selectors
    from cards.api import CardGroupSerializer, CardSerializer
    from cards.models import Card

    for card in Card.objects.filter(game=ygo).select_related("game")[:30]:
        assert CardSerializer(card).data == serializers.ModelSerializer.to_representation(
            CardSerializer(), card
        )
    filters = selectors.card_filters_from_params({"game": "yugioh", "q": "blue eyes"})
    _total, groups = selectors.card_search_grouped(filters, limit=40)
    assert groups
    for group in groups:
        fast = CardGroupSerializer(group, context={"lang": "en"}).data
        generic = serializers.Serializer.to_representation(CardGroupSerializer(context={"lang": "en"}), group)
        assert fast == generic


def test_grouped_rows_from_the_index_equal_the_sql_path(client, ygo) -> None:  # type: ignore[no-untyped-def]
    """Printings (ids, canonical, set codes) read from the index equal those read from the database."""
    for q in ("dark magician", "t:dragon atk>=3000"):
        from_index = pages(client, "/api/cards/grouped/", q=q)
        # A type filter beside q sends the grouped search through SQL; every match is a monster anyway.
        by_sql = pages(client, "/api/cards/grouped/", q=q, type="monster")
        assert from_index == by_sql, q
