"""In Chromium, on a desktop and a phone: one search row per card, printings one click away, copies of
one card from any printing in one deck row (two rows only when a printing is picked on purpose, still
limited to 3 together), the card preview, a text export imported back, and the whole deck on its page."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import login_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "cards"
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def browser_cards(transactional_db: Any, make_user: Any) -> None:
    from cards import demo
    from cards.games import games_sync

    games_sync()
    demo.load(io.StringIO())
    make_user("alice")


def search(page: Any, query: str) -> Any:
    page.fill("[data-testid=search-q]", query)
    page.wait_for_function("q => document.getElementById('search-results').dataset.query === q", arg=query)
    return page.locator("#search-results li.result")


def deck_rows(page: Any, name: str) -> Any:
    return page.locator("li.deck-row[data-section=main]").filter(
        has=page.locator("span.name", has_text=re.compile("^" + re.escape(name) + "$"))
    )


def add_from_row(page: Any, result: Any, times: int) -> None:
    for _ in range(times):
        result.locator("button.add[data-section=main]").click()


def expect_legal(page: Any, legal: bool) -> None:
    text = "Legal" if legal else "Not legal"
    page.wait_for_function("t => document.getElementById('legal-status').textContent === t", arg=text)


@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_it_keeps_one_card_one_row_from_search_to_deck_page(browser_cards, page, device) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(VIEWPORTS[device])
    login_in_browser(page, "alice")
    page.goto(page.base_url + "/decks/new/?game=yugioh")
    page.fill("input[name=name]", "Magicians")
    page.select_option("select[name=format_slug]", "yugioh/advanced")
    page.click("[data-testid=new-deck-form] button[type=submit]")
    page.wait_for_selector("#builder-config", state="attached")

    # Two artworks of Dark Magician are one search row, its printings behind one click.
    results = search(page, "dark magician")
    magician = results.filter(has=page.locator(".result-name", has_text=re.compile("^Dark Magician$")))
    assert magician.count() == 1
    magician.hover()
    preview = page.locator("#card-preview")
    preview.locator(".preview-text").wait_for()
    assert "spellcaster" in preview.text_content()
    assert "ATK" in preview.text_content() and "2500" in preview.text_content()
    magician.locator("[data-testid=printings-toggle]").click()
    assert magician.locator("[data-testid=pick-printing]").all_text_contents() == ["#46986414", "#46986415"]
    page.screenshot(path=str(ARTIFACTS / f"builder-search-{device}.png"), full_page=True)

    # Two copies from the row, one more found by the other artwork's passcode: one deck row of 3.
    add_from_row(page, magician, 2)
    by_passcode = search(page, "46986415").first
    assert by_passcode.locator(".result-name").text_content() == "Dark Magician"
    add_from_row(page, by_passcode, 1)
    assert deck_rows(page, "Dark Magician").count() == 1
    assert deck_rows(page, "Dark Magician").locator(".count").text_content() == "3"

    # Picking the other artwork on purpose makes a second row; the copy limit counts both together.
    again = search(page, "dark magician").filter(
        has=page.locator(".result-name", has_text=re.compile("^Dark Magician$"))
    )
    again.locator("[data-testid=printings-toggle]").click()
    again.locator("[data-testid=pick-printing]", has_text="#46986415").click()
    add_from_row(page, again, 1)
    rows = deck_rows(page, "Dark Magician")
    rows.nth(1).wait_for()
    assert rows.count() == 2
    assert rows.nth(1).locator("[data-testid=row-printing]").text_content() == "#46986415"
    expect_legal(page, False)
    rows.nth(0).locator(".row-violations li.violation").first.wait_for()
    rows.nth(1).locator("button.dec").click()
    assert deck_rows(page, "Dark Magician").count() == 1

    # Fill the deck legally (40 cards, an extra and a side card), save.
    for name, copies in (("Pot of Greed", 1), ("Mirror Force", 3), ("Summoned Skull", 3), ("Celtic Guardian", 3),
                         ("Gemini Elf", 3), ("Mystical Elf", 3), ("Giant Rat", 3), ("Exiled Force", 3),
                         ("Mystic Tomato", 3), ("Marshmallon", 3), ("Trap Hole", 3), ("Magic Cylinder", 3),
                         ("Heavy Storm", 3)):  # fmt: skip
        result = search(page, name).filter(
            has=page.locator(".result-name", has_text=re.compile(f"^{re.escape(name)}$"))
        )
        add_from_row(page, result, copies)
    search(page, "Stardust Dragon").first.locator("button.add[data-section=extra]").click()
    search(page, "Scapegoat").first.locator("button.add[data-section=side]").click()
    page.wait_for_function("document.querySelector('[data-testid=count-main]').textContent === '40'")
    expect_legal(page, True)
    deck_rows(page, "Dark Magician").hover()
    assert "spellcaster" in page.locator("#card-preview").text_content()
    page.screenshot(path=str(ARTIFACTS / f"builder-deck-{device}.png"), full_page=True)
    page.click("[data-testid=save-deck]")
    page.wait_for_function(
        "document.getElementById('save-status').textContent.startsWith('Saved as version')"
    )

    # The deck page: Main, Extra, Side in order, grouped by type with counts, each card with a preview.
    page.click("[data-testid=deck-page-link]")
    page.wait_for_url(re.compile(r"/decks/\d+/$"))
    sections = page.locator("[data-testid=deck-list] section[data-section]")
    sections.first.wait_for()
    assert [sections.nth(i).get_attribute("data-section") for i in range(sections.count())] == [
        "main",
        "extra",
        "side",
    ]
    main = page.locator("[data-testid=section-main]")
    assert main.locator("[data-testid=section-total]").text_content() == "40"
    assert main.locator("h3.type-group").all_text_contents() == ["Monster 27", "Spell 4", "Trap 9"]
    line = main.locator("details.card-line", has_text="Dark Magician")
    if device == "phone":
        line.locator("summary").click()
        line.locator(".card-preview .preview-text").wait_for()
        assert "spellcaster" in line.locator(".card-preview").text_content()
    else:
        line.hover()
        page.locator("#card-preview .preview-text").wait_for()
        assert "spellcaster" in page.locator("#card-preview").text_content()
    assert page.locator("[data-testid=ydke-value]").input_value().startswith("ydke://")
    page.screenshot(path=str(ARTIFACTS / f"deck-page-{device}.png"), full_page=True)

    # Export as text and import it back: the same cards, Dark Magician still one row of 3.
    deck_url = page.url
    text = page.request.get(deck_url + "export/text/?download=0").text()
    assert text.index("Main") < text.index("Extra") < text.index("Side")
    assert "3 Dark Magician\n" in text
    page.goto(page.base_url + "/decks/import/")
    page.select_option("select[name=game]", "yugioh")
    page.select_option("select[name=format_slug]", "yugioh/advanced")
    page.fill("textarea[name=data]", text)
    page.click("[data-testid=import-form] button[type=submit]")
    page.wait_for_url(re.compile(r"/decks/\d+/edit/$"))
    expect_legal(page, True)
    assert deck_rows(page, "Dark Magician").locator(".count").text_content() == "3"
    assert page.locator("[data-testid=count-main]").text_content() == "40"
    assert page.locator("[data-testid=count-extra]").text_content() == "1"
    assert page.locator("[data-testid=count-side]").text_content() == "1"
