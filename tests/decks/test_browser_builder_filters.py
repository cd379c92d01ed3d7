"""In Chromium: the deck builder's search offers the game's own filters (rule-set data) beside the search box,
and the results show only the cards that match them."""

from __future__ import annotations

import io
from typing import Any

import pytest

from tests.conftest import login_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def builder_cards(transactional_db: Any, make_user: Any) -> None:
    from django.core.cache import cache

    from cards import demo
    from cards.games import games_sync

    cache.clear()
    games_sync()
    demo.load(io.StringIO())
    make_user("alice")


def open_builder(page: Any, game: str, fmt: str) -> None:
    page.goto(page.base_url + f"/decks/new/?game={game}")
    page.select_option("select[name=game]", game)
    page.fill("input[name=name]", f"Filters {game}")
    page.select_option("select[name=format_slug]", f"{game}/{fmt}")
    page.click("[data-testid=new-deck-form] button[type=submit]")
    page.wait_for_selector("#builder-config", state="attached")
    page.wait_for_function("document.getElementById('legal-status').textContent !== ''")


def expect_results(page: Any, names: list[str]) -> None:
    """Wait until the result list shows exactly `names` (searches answer asynchronously)."""
    page.wait_for_function(
        "names => JSON.stringify([...document.querySelectorAll('#search-results li.result .result-name')]"
        ".map(n => n.textContent)) === JSON.stringify(names)",
        arg=names,
    )


def test_it_filters_the_everseal_search_by_size_and_region_in_russian(builder_cards, page) -> None:
    # Django's language cookie: the context's en-US locale would otherwise decide the language.
    page.context.add_cookies([{"name": "django_language", "value": "ru", "url": page.base_url}])
    login_in_browser(page, "alice")
    open_builder(page, "everseal", "standard")
    filters = page.locator("[data-testid=search-filters]")
    assert "Размер" in filters.text_content() and "Регион" in filters.text_content()
    page.select_option("[data-testid=filter-size]", "L")
    page.select_option("[data-testid=filter-region]", "Северные Пики")
    expect_results(page, ["Метельный Дракон", "Северный Мамонт"])
    # A list attribute: the keyword filter keeps cards having that keyword among others.
    page.select_option("[data-testid=filter-size]", "")
    page.select_option("[data-testid=filter-region]", "Туманное Побережье")
    page.select_option("[data-testid=filter-keywords]", "Стая")
    expect_results(page, ["Чайка-Разведчица"])
    # Filters combine with the name box, and Enter still adds the highlighted result.
    page.select_option("[data-testid=filter-keywords]", "")
    page.fill("[data-testid=filter-atk-min]", "8")
    expect_results(page, ["Кракен", "Туманный Левиафан"])
    page.fill("[data-testid=search-q]", "кракен")
    expect_results(page, ["Кракен"])
    page.press("[data-testid=search-q]", "Enter")
    page.locator("li.deck-row[data-section=main]").filter(has_text="Кракен").wait_for()
    # Clearing the filters brings back the whole game (the heroes too).
    page.fill("[data-testid=search-q]", "")
    page.click("[data-testid=filters-clear]")
    page.wait_for_function("document.querySelectorAll('#search-results li.result').length > 20")


def test_it_filters_the_yugioh_search_by_attribute_and_level_range(builder_cards, page) -> None:
    login_in_browser(page, "alice")
    open_builder(page, "yugioh", "advanced")
    labels = page.locator("[data-testid=search-filters]").text_content()
    assert "Attribute" in labels and "Level / Rank / Link" in labels
    page.select_option("[data-testid=filter-attribute]", "LIGHT")
    page.fill("[data-testid=filter-level-min]", "5")
    page.fill("[data-testid=filter-level-max]", "8")
    expect_results(page, ["Blue-Eyes White Dragon", "Cyber Dragon"])
    page.select_option("[data-testid=filter-type]", "monster")
    page.fill("[data-testid=filter-atk-max]", "2000")
    expect_results(page, [])  # Cyber Dragon has 2100 ATK, Blue-Eyes 3000
    page.fill("[data-testid=filter-atk-max]", "")
    page.select_option("[data-testid=filter-subtype]", "normal")
    expect_results(page, ["Blue-Eyes White Dragon"])
    # The card type select is the game's configured filter, not a second generic one.
    assert page.locator("#search-type").count() == 0
