"""In Chromium, on a 390 px phone and on a desktop: a player types `t:dragon atk>=3000 -banned:` into the deck
builder's search box, gets the cards the search language answers, adds one with the mouse; the card browser
gives the same cards for the same query, explains it in words, and does so in Russian too."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import sign_in_context
from tests.decks.test_browser_builder import new_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "search"
QUERY = "t:dragon atk>=3000 -banned:"


@pytest.fixture
def demo_cards(transactional_db: Any, make_user: Any, shared_data: Path) -> Any:
    from cards import demo
    from cards.games import games_sync
    from rules import demo as rules_demo

    games_sync()
    demo.load(io.StringIO(), full_database=True)  # the whole shared .cdb
    rules_demo.load(io.StringIO())  # the shared ban lists (2026.05 TCG is in force)
    return make_user("alice")


def context_for(browser: Any, live_server: Any, user: Any, *, width: int, language: str) -> Any:
    height = 844 if width < 500 else 900
    context = browser.new_context(
        locale=language, viewport={"width": width, "height": height}, bypass_csp=True
    )
    context.set_default_timeout(20_000)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    sign_in_context(context, live_server, user)
    page = context.new_page()
    page.base_url = live_server.url  # type: ignore[attr-defined]
    return context, page


def test_a_player_searches_in_the_builder_and_the_card_browser(browser, live_server, demo_cards) -> None:  # type: ignore[no-untyped-def]
    from django.test import Client

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    api = Client().get(
        "/api/cards/grouped/", {"game": "yugioh", "q": QUERY, "page_size": 40, "deck_buildable": "true"}
    )
    expected = [row["name"] for row in api.json()["results"]]
    assert len(expected) > 20, api.json()["explain"]
    for width in (390, 1280):
        context, page = context_for(browser, live_server, demo_cards, width=width, language="en")
        new_deck(page, "yugioh", "advanced", f"Dragons {width}")
        page.fill("[data-testid=search-q]", QUERY)
        page.wait_for_function(
            "q => document.getElementById('search-results').dataset.query === q", arg=QUERY
        )
        shown = [
            n.text_content() for n in page.locator("#search-results li.result .result-name").element_handles()
        ]
        assert shown == expected
        first = page.locator("#search-results li.result").first
        first.locator("button.add").first.click()  # the mouse, not the keyboard
        page.locator("li.deck-row span.name", has_text=expected[0]).first.wait_for()
        page.screenshot(path=str(ARTIFACTS / f"builder-{width}.png"))
        page.goto(
            page.base_url
            + f"/cards/?game=yugioh&q={QUERY.replace(' ', '+').replace('>', '%3E').replace('=', '%3D')}"
        )
        explain = page.get_by_test_id("search-explain").text_content()
        assert "ATK ≥ 3000" in explain and "not banned" in explain
        names = [a.text_content() for a in page.locator("[data-testid=card-link]").element_handles()]
        assert names[: len(expected)] == expected
        width_ok = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert width_ok, f"the card browser scrolls sideways at {width} px"
        page.screenshot(path=str(ARTIFACTS / f"browser-{width}.png"), full_page=False)
        context.close()
    context, page = context_for(browser, live_server, demo_cards, width=390, language="ru")
    page.goto(page.base_url + "/cards/?game=yugioh&q=t%3Adragon+atk%3E%3D3000+-banned%3A")
    explain = page.get_by_test_id("search-explain").text_content()
    assert "АТК ≥ 3000" in explain and "не запрещена" in explain
    assert [a.text_content() for a in page.locator("[data-testid=card-link]").element_handles()][
        : len(expected)
    ] == expected
    page.goto(page.base_url + "/cards/?game=yugioh&q=akt%3E3")
    assert "Неизвестное поле «akt»" in page.get_by_test_id("search-error").text_content()
    page.screenshot(path=str(ARTIFACTS / "browser-ru-error-390.png"))
    page.get_by_test_id("search-help-link").click()
    page.get_by_test_id("search-fields").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(ARTIFACTS / "help-ru-390.png"), full_page=True)
    context.close()
