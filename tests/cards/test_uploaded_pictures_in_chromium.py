"""Pictures uploaded with a card import in Chromium, desktop and phone: the builder's preview and
the deck page show them beside the card's text, served by the site itself, with no picture host allowed
(CARD_IMAGE_HOSTS empty, as at an offline venue). Any request leaving the live server fails the test."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from tests.cards.test_pictures_come_with_a_card_import import make_zip
from tests.conftest import login_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "cards"
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def _card_art() -> bytes:
    """A recognisable card: dark frame, a gold art box and text lines (so the screenshot shows it is ours)."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (590, 860), (40, 32, 70))
    draw = ImageDraw.Draw(image)
    draw.rectangle((40, 110, 550, 520), fill=(214, 170, 60))
    draw.ellipse((180, 190, 410, 440), fill=(120, 40, 160))
    for top in range(580, 800, 40):
        draw.rectangle((50, top, 540, top + 14), fill=(230, 225, 210))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


@pytest.fixture
def uploaded(transactional_db: Any, make_user: Any, settings: Any, tmp_path: Path) -> dict[str, Any]:
    from cards import demo
    from cards.games import games_sync
    from cards.models import Game
    from cards.services import cards_import
    from decks import demo as deck_demo
    from decks.models import Deck

    settings.CARD_IMAGE_HOSTS = []
    settings.MEDIA_ROOT = tmp_path / "media"
    games_sync()
    demo.load(io.StringIO())
    deck_demo.load(io.StringIO())
    make_user("alice")
    game = Game.objects.get(slug="yugioh")
    deck = Deck.objects.filter(game=game).first()
    art = _card_art()
    # Every card of the deck has a picture, so the page's first line (grouped by type) has one.
    passcodes = {"46986414", *deck.entries.values_list("card__external_id", flat=True)}  # type: ignore[union-attr]
    result = cards_import(game=game, data=b"", pictures=make_zip({f"pics/{p}.png": art for p in passcodes}))
    assert result.ok and result.pictures == len(passcodes), result.errors
    return {"deck": deck}


def _shown(page: Any, scope: str) -> dict[str, Any]:
    img = page.locator(f"{scope} [data-testid=card-image]").first
    img.wait_for()
    page.wait_for_function(
        "s => { const i = document.querySelector(s + ' [data-testid=card-image]'); return i && i.complete; }",
        arg=scope,
    )
    return img.evaluate("i => ({src: i.getAttribute('src'), width: i.naturalWidth})")


@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_the_builder_shows_an_uploaded_picture_beside_the_text(uploaded, page, device):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(VIEWPORTS[device])
    login_in_browser(page, "alice")
    page.goto(page.base_url + "/decks/new/?game=yugioh")
    page.fill("input[name=name]", "Uploaded pictures")
    page.select_option("select[name=format_slug]", "yugioh/advanced")
    page.click("[data-testid=new-deck-form] button[type=submit]")
    page.wait_for_selector("#builder-config", state="attached")
    page.fill("[data-testid=search-q]", "dark magician")
    result = page.locator("#search-results li.result").first
    result.wait_for()
    page.wait_for_load_state("networkidle")  # the search settled: the preview is not redrawn meanwhile
    if device == "desktop":
        result.hover()
    shown = _shown(page, "#card-preview")
    assert shown["src"].startswith("/cards/pictures/card-pictures/yugioh/") and shown["width"] > 0
    art, name = page.locator("#card-preview .preview-art"), page.locator("#card-preview .preview-name")
    art.wait_for(state="visible")
    name.wait_for(state="visible")
    art, name = art.bounding_box(), name.bounding_box()
    # The text beside or below the picture (the builder's fixed preview box stacks them in a narrow column),
    # never covered by it.
    assert name["x"] >= art["x"] + art["width"] - 1 or name["y"] >= art["y"] + art["height"] - 1
    assert page.evaluate("document.scrollingElement.scrollWidth") <= VIEWPORTS[device]["width"]
    page.locator("#card-preview").scroll_into_view_if_needed()
    page.screenshot(
        path=str(ARTIFACTS / f"uploaded-picture-builder-{device}.png"), full_page=device == "phone"
    )


def test_the_deck_page_on_a_phone_shows_the_uploaded_picture_in_the_opened_line(uploaded, page):
    page.set_viewport_size(VIEWPORTS["phone"])
    page.goto(page.base_url + f"/decks/{uploaded['deck'].pk}/")
    line = page.locator("[data-testid=section-main] details.card-line").first
    line.locator("summary").click()
    shown = _shown(page, "[data-testid=section-main] details.card-line[open]")
    assert shown["src"].startswith("/cards/pictures/") and shown["width"] > 0
    assert page.evaluate("document.scrollingElement.scrollWidth") <= VIEWPORTS["phone"]["width"]
    page.screenshot(path=str(ARTIFACTS / "uploaded-picture-deck-phone.png"))
