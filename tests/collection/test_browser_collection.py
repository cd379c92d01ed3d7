"""In Chromium, on a desktop and a 390 px phone: a player imports a collection CSV, reads "missing 3" and the
wants list, marks a deck built, opens a second deck that needs a card already sleeved and reads which deck
holds it, then asks for the card-size PDF."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
DECKBOX = (
    "Count,Tradelist Count,Name,Edition,Card Number,Condition,Language,Foil,Signed,Artist Proof,Altered Art,"
    "Misprint,Promo,Textless,My Price\n"
    "3,0,Blue-Eyes White Dragon,Legend of Blue Eyes White Dragon,LOB-001,Near Mint,English,,,,,,,,\n"
    "1,0,Dark Magician,Legend of Blue Eyes White Dragon,LOB-005,Near Mint,English,,,,,,,,\n"
    "1,0,Pot of Greed,Legend of Blue Eyes White Dragon,LOB-119,Near Mint,English,,,,,,,,\n"
)


@pytest.fixture
def two_decks(transactional_db: Any, make_user: Any) -> tuple[Any, Any, Any]:
    from cards import demo
    from cards.games import games_sync
    from cards.models import Card, Game
    from decks.services import deck_create

    games_sync()
    demo.load(io.StringIO())
    user = make_user("alice")
    game = Game.objects.get(slug="yugioh")

    def card(name: str) -> Any:
        return Card.objects.filter(game=game, name=name).order_by("external_id").first()

    blue = deck_create(owner=user, game=game, name="Blue-Eyes", format_slug="advanced",
                       sections={"main": [(card("Blue-Eyes White Dragon"), 2), (card("Pot of Greed"), 1)]})  # fmt: skip
    second = deck_create(owner=user, game=game, name="Magicians", format_slug="advanced",
                         sections={"main": [(card("Blue-Eyes White Dragon"), 3), (card("Dark Magician"), 3)]})  # fmt: skip
    return user, blue, second


@pytest.mark.parametrize(("label", "viewport"), [("desktop", {"width": 1280, "height": 900}),
                                                 ("phone", {"width": 390, "height": 844})])  # fmt: skip
def test_a_player_imports_builds_and_finds_the_sleeved_copies(
    browser, live_server, two_decks, tmp_path, label, viewport
) -> None:
    user, blue, second = two_decks
    page = signed_in_page(browser, live_server, user, viewport=viewport)
    ARTIFACTS.mkdir(exist_ok=True)
    csv_file = tmp_path / "deckbox-inventory.csv"
    csv_file.write_text(DECKBOX, encoding="utf-8")

    page.goto(page.base_url + "/collection/import/?game=yugioh")
    page.set_input_files("#import-file", str(csv_file))
    page.click("[data-testid=collection-import-form] button[type=submit]")
    result = page.locator("[data-testid=collection-import-result]")
    assert "5 copies read from 3 rows (deckbox)" in result.inner_text()

    page.goto(page.base_url + f"/decks/{second.pk}/")
    assert "missing" in page.locator("[data-testid=missing-badge]").inner_text()
    page.click("[data-testid=deck-collection-link]")
    assert "missing 2" in page.locator("[data-testid=deck-buildable]").inner_text()
    assert "2 Dark Magician" in page.locator("[data-testid=wants-text]").input_value()

    page.goto(page.base_url + f"/collection/decks/{blue.pk}/")
    page.click("[data-testid=mark-built]")
    assert page.locator("[data-testid=built-badge]").is_visible()

    page.goto(page.base_url + f"/collection/decks/{second.pk}/")
    held = page.locator("[data-testid=held-by]").first
    assert held.inner_text() == "2 of 3 are in Blue-Eyes"
    assert "missing 4" in page.locator("[data-testid=deck-buildable]").inner_text()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"] + 1, f"the page scrolls sideways at {viewport['width']} px"
    page.screenshot(path=str(ARTIFACTS / f"collection-deck-{label}.png"), full_page=True)

    page.goto(page.base_url + "/collection/?game=yugioh")
    row = page.locator("[data-testid=collection-table] tr", has_text="Blue-Eyes White Dragon")
    assert "Blue-Eyes" in row.inner_text() and "×2" in row.inner_text()
    page.screenshot(path=str(ARTIFACTS / f"collection-{label}.png"), full_page=True)

    page.goto(page.base_url + f"/decks/{second.pk}/")
    assert "missing 2" in page.locator("[data-testid=line-owned]").first.inner_text()
    page.screenshot(path=str(ARTIFACTS / f"deck-page-{label}.png"), full_page=False)
    with page.expect_download() as download:
        page.click("[data-testid=print-cards]")
    assert download.value.suggested_filename == "Magicians.cards.pdf"
    page.context.close()
