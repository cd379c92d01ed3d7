"""GET /api/cards/facets/?game=SLUG: each game's configured search filters with the values its cards have."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from cards.demo import SAMPLES
from cards.services import cards_import
from tests.cards.conftest import deckhall_json, es_card

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


@pytest.fixture
def samples(games: dict[str, Any]) -> dict[str, Any]:
    for slug in ("everseal", "yugioh"):
        name = f"{slug}-sample.json"
        assert cards_import(game=games[slug], data=(SAMPLES / name).read_bytes(), filename=name).ok
    return games


def facets(client: Any, game: str, **headers: str) -> dict[str, dict[str, Any]]:
    response = client.get("/api/cards/facets/", {"game": game}, **headers)
    assert response.status_code == 200, response.content
    assert response.json()["game"] == game
    return {f["field"]: f for f in response.json()["filters"]}


def test_it_offers_the_everseal_filters_with_the_values_its_cards_have(api_client, samples):
    found = facets(api_client, "everseal")
    assert list(found) == ["type", "size", "region", "keywords", "family", "subtype", "atk"]
    assert found["type"]["values"] == ["hero", "monster"]
    assert found["type"]["params"] == {"value": "type"}
    assert found["size"] == {
        "field": "size",
        "kind": "choice",
        "label": "Size",
        "params": {"value": "attr.size"},
        "values": ["L", "M", "S"],
    }
    # Cyrillic values, sorted case-insensitively; a list attribute offers its elements.
    assert found["region"]["values"] == [
        "Багровые Пустоши",
        "Изумрудный Лес",
        "Северные Пики",
        "Туманное Побережье",
    ]
    assert found["keywords"]["values"] == ["Агрессор", "Берсерк", "Преимущество", "Регенерация", "Стая"]
    assert found["atk"] == {
        "field": "atk",
        "kind": "range",
        "label": "Attack",
        "params": {"min": "attr.atk.min", "max": "attr.atk.max"},
        "min": 1,
        "max": 10,
    }


def test_it_offers_builtin_columns_and_numeric_attribute_ranges_for_yugioh(api_client, samples):
    found = facets(api_client, "yugioh")
    assert found["attribute"]["values"] == ["DARK", "EARTH", "LIGHT", "WATER", "WIND"]
    assert {"effect", "fusion", "synchro", "xyz", "link", "quick-play"} <= set(found["subtype"]["values"])
    assert found["level"]["params"] == {"min": "level_min", "max": "level_max"}
    assert (found["level"]["min"], found["level"]["max"]) == (1, 12)
    assert (found["atk"]["min"], found["atk"]["max"]) == (0, 4500)
    assert (found["def"]["min"], found["def"]["max"]) == (0, 3800)
    assert found["def"]["params"] == {"min": "attr.def.min", "max": "attr.def.max"}


def test_labels_follow_the_request_language(api_client, samples):
    found = facets(api_client, "everseal", HTTP_ACCEPT_LANGUAGE="ru")
    assert [f["label"] for f in found.values()] == [
        "Тип карты",
        "Размер",
        "Регион",
        "Ключевое слово",
        "Семейство",
        "Подтип",
        "Атака",
    ]


def test_the_values_it_offers_filter_the_card_search(api_client, samples):
    found = facets(api_client, "everseal")
    region = found["region"]["values"][2]
    response = api_client.get(
        "/api/cards/", {"game": "everseal", found["region"]["params"]["value"]: region, "attr.size": "L"}
    )
    assert [c["name"] for c in response.json()["results"]] == ["Метельный Дракон", "Северный Мамонт"]


def test_a_game_without_cards_has_its_filters_with_nothing_to_choose(api_client, games):
    found = facets(api_client, "twindeck")
    assert list(found) == ["type", "back", "race", "class", "cost"]
    assert found["race"]["values"] == []
    assert (found["cost"]["min"], found["cost"]["max"]) == (None, None)


def test_it_is_cached_until_an_import_changes_the_cards(api_client, samples, django_assert_max_num_queries):
    facets(api_client, "everseal")
    # Cached: the game lookup and the count/latest-change aggregate, no pass over the cards.
    with django_assert_max_num_queries(2):
        assert "Север" not in facets(api_client, "everseal")["region"]["values"]
    new = es_card("es-900", "Полярная Сова")
    new["attributes"] = {"size": "XL", "region": "Север", "keywords": ["Полёт"], "atk": 12}
    assert cards_import(game=samples["everseal"], data=deckhall_json([new]), filename="new.json").ok
    found = facets(api_client, "everseal")
    assert "Север" in found["region"]["values"] and "XL" in found["size"]["values"]
    assert "Полёт" in found["keywords"]["values"] and found["atk"]["max"] == 12
    # A re-import that only changes an existing card is seen too (its updated_at moves).
    new["attributes"]["region"] = "Юг"
    assert cards_import(game=samples["everseal"], data=deckhall_json([new]), filename="new.json").ok
    regions = facets(api_client, "everseal")["region"]["values"]
    assert "Юг" in regions and "Север" not in regions


def test_it_refuses_a_missing_or_unknown_game(api_client, games):
    missing = api_client.get("/api/cards/facets/")
    assert missing.status_code == 400 and "game" in missing.json()
    unknown = api_client.get("/api/cards/facets/", {"game": "chess"})
    assert unknown.status_code == 404 and "chess" in unknown.json()["detail"]


def test_it_is_documented_and_not_shadowed_by_the_detail_route(api_client, games):
    schema = api_client.get("/api/schema/", {"format": "json"})
    assert schema.status_code == 200
    assert "/api/cards/facets/" in schema.json()["paths"]
