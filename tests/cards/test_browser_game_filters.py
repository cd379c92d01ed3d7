"""The card browser (/cards/) offers the selected game's configured filters, keeping a free attribute fallback."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache

from cards.demo import SAMPLES
from cards.services import cards_import

pytestmark = pytest.mark.django_db


@pytest.fixture
def samples(games: dict[str, Any]) -> dict[str, Any]:
    cache.clear()
    for slug in ("everseal", "yugioh"):
        name = f"{slug}-sample.json"
        assert cards_import(game=games[slug], data=(SAMPLES / name).read_bytes(), filename=name).ok
    return games


def result_names(html: str) -> list[str]:
    return re.findall(r'data-testid="card-link">([^<]+)</a>', html)


def test_it_shows_the_games_own_filters_with_its_values(client, samples):
    html = client.get("/cards/", {"game": "everseal"}).content.decode()
    assert 'data-testid="game-filters"' in html
    assert '<select name="attr.region" data-game-filter data-testid="filter-region">' in html
    assert '<option value="Туманное Побережье">Туманное Побережье</option>' in html
    assert '<option value="Стая">Стая</option>' in html  # a list attribute's elements
    assert 'name="attr.atk.min"' in html and 'name="attr.atk.max"' in html
    assert '<select name="type" data-game-filter data-testid="filter-type">' in html
    # Built-ins the rule set does not configure keep their generic inputs; the free attribute stays.
    assert 'name="subtype"' in html and 'name="level_min"' in html
    assert 'name="attr_key"' in html and 'name="attr_value"' in html


def test_without_a_game_it_shows_only_the_generic_inputs(client, samples):
    html = client.get("/cards/").content.decode()
    assert 'data-testid="game-filters"' not in html
    assert 'name="type"' in html and 'name="attr_key"' in html


def test_the_configured_filters_narrow_the_results_and_stay_selected(client, samples):
    html = client.get(
        "/cards/", {"game": "everseal", "attr.size": "L", "attr.region": "Северные Пики"}
    ).content.decode()
    assert result_names(html) == ["Метельный Дракон", "Северный Мамонт"]
    assert '<option value="Северные Пики" selected>' in html
    assert '<option value="L" selected>' in html
    html = client.get(
        "/cards/", {"game": "yugioh", "attr.attribute": "LIGHT", "level_min": "7", "level_max": "8"}
    ).content.decode()
    assert result_names(html) == ["Blue-Eyes White Dragon"]
    assert 'name="level_min" value="7"' in html and 'name="level_max" value="8"' in html
    # Yu-Gi-Oh! configures level, so the generic level inputs are not shown twice.
    assert html.count('name="level_min"') == 1


def test_the_other_attribute_fallback_still_filters(client, samples):
    html = client.get(
        "/cards/", {"game": "everseal", "attr.size": "L", "attr_key": "family", "attr_value": "Драконы"}
    ).content.decode()
    assert result_names(html) == [
        "Изумрудный Дракон",
        "Метельный Дракон",
        "Пепельный Дракон",
        "Туманный Левиафан",
    ]
    assert 'name="attr_key" value="family"' in html


def test_labels_are_in_the_page_language(client, samples):
    html = client.get("/cards/", {"game": "everseal"}, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Регион" in html and "Размер" in html and "Ключевое слово" in html


def test_a_bad_range_value_is_reported_not_a_crash(client, samples):
    response = client.get("/cards/", {"game": "everseal", "attr.atk.min": "lots"})
    assert response.status_code == 200
    assert "attr.atk.min must be a whole number" in response.content.decode()
