"""In Chromium on a desktop and a 390 px phone, a player pastes a Yu-Gi-Oh! list as a list site writes it
(group headings, a count in brackets, one misspelt name): the import page names the near miss with one
"did you mean", lists the headings it skipped, and after the fix imports the deck into the builder."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import login_in_browser

pytestmark = pytest.mark.django_db(transaction=True)
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"

PASTE = "Main Deck:\nMonster Cards (5)\n3 Dark Magican\n(2) Sangan\nSpell Cards (1)\nPot of Greed\n"


@pytest.mark.parametrize("viewport", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_a_list_site_paste_names_its_near_miss_and_imports_after_the_fix(
    page, sample_cards, user, viewport
) -> None:
    page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    login_in_browser(page, "alice")
    page.goto(f"{page.base_url}/decks/import/?game=yugioh")
    page.fill("textarea[name=data]", PASTE)
    with page.expect_navigation(wait_until="load"):
        page.click("[data-testid=import-form] button[type=submit]")
    assert page.inner_text("[data-testid=did-you-mean]") == "did you mean “Dark Magician”?"
    skipped = page.inner_text("[data-testid=skipped-lines]")
    assert "Monster Cards (5)" in skipped and "Spell Cards (1)" in skipped
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport[0]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"paste-import-did-you-mean-{viewport[0]}.png"), full_page=True)
    page.fill("textarea[name=data]", PASTE.replace("Magican", "Magician"))
    page.click("[data-testid=import-form] button[type=submit]")
    page.wait_for_url("**/edit/")
    assert "Monster Cards (5)" in page.inner_text("body")
