from __future__ import annotations

import io

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_it_searches_a_cyrillic_name_and_opens_the_card(page, live_server, games):
    from cards import demo

    demo.load(io.StringIO())
    page.goto(page.base_url + "/cards/")
    page.select_option("[data-testid=game-select]", "everseal")
    page.fill("[data-testid=search-input]", "вожак")
    page.click("[data-testid=search-button]")
    link = page.locator("[data-testid=card-link]", has_text="Вожак Стаи")
    link.wait_for()
    assert page.locator("[data-testid=card-link]").count() == 1
    link.click()
    page.wait_for_url("**/cards/*/")
    assert page.locator("[data-testid=card-name]").inner_text() == "Вожак Стаи"
    assert "restrictions" in page.content()
