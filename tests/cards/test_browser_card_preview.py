"""In Chromium, desktop and phone: the card browser shows one row per card with its printings counted,
hovering a row previews the card's text and stats, and the card page lists its printings."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "cards"
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def browser_cards(transactional_db: Any) -> None:
    from cards import demo
    from cards.games import games_sync

    games_sync()
    demo.load(io.StringIO())


@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_it_groups_printings_and_previews_cards_in_the_browser(browser_cards, page, device) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(VIEWPORTS[device])
    page.goto(page.base_url + "/cards/?game=yugioh&q=dark+magician")
    links = page.locator("[data-testid=card-link]", has_text="Dark Magician")
    assert links.all_text_contents().count("Dark Magician") == 1
    row = page.locator(
        "tr[data-preview]", has=page.locator("[data-testid=card-link]", has_text="Dark Magician")
    )
    assert row.first.locator("[data-testid=printing-count]").text_content() == "2 printings"
    if device == "desktop":
        row.first.hover()
        panel = page.locator("#card-preview")
        panel.locator(".preview-text").wait_for()
        assert "spellcaster" in panel.text_content() and "ATK" in panel.text_content()
    page.screenshot(path=str(ARTIFACTS / f"browser-{device}.png"), full_page=True)
    links.first.click()
    page.locator("[data-testid=printings]").wait_for()
    assert page.locator("[data-testid=printings] li").count() == 2
    facts = page.locator("[data-testid=card-facts]").text_content()
    assert "ATK" in facts and "Spellcaster" in facts and "Passcode" in facts
    page.screenshot(path=str(ARTIFACTS / f"card-page-{device}.png"), full_page=True)
