"""Card pictures in Chromium, desktop and phone: the deck page's and the builder's previews
show the card's picture beside its text, loaded lazily; with the picture host unreachable (a venue
laptop offline) the same fixed-aspect box stays and the text is unchanged. The pictures are served by
the test itself (Playwright answers the image host's requests with a local PNG): neither the server nor
the browser reaches the internet."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import login_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "cards"
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
HOST = "https://images.ygoprodeck.com"  # the yugioh rule set's picture template points there


def _png() -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (236, 344), (92, 60, 140))
    ImageDraw.Draw(image).rectangle((18, 18, 218, 200), fill=(230, 200, 90))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


@pytest.fixture
def pictures(transactional_db: Any, make_user: Any, settings: Any) -> dict[str, Any]:
    from cards import demo
    from cards.games import games_sync
    from decks import demo as deck_demo
    from decks.models import Deck

    settings.CARD_IMAGE_HOSTS = [HOST]
    games_sync()
    demo.load(io.StringIO())
    deck_demo.load(io.StringIO())
    make_user("alice")
    return {"deck": Deck.objects.filter(game__slug="yugioh").first()}


@pytest.fixture
def picture_page(browser: Any, live_server: Any) -> Any:
    """A page whose requests to the picture host are answered here: with a PNG, or refused (offline).
    Anything else outside the live server fails the test, as in every browser test."""
    context = browser.new_context(locale="en-US", bypass_csp=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.base_url = live_server.url
    state = {"online": True, "served": 0, "external": []}
    png = _png()

    def route(route: Any) -> None:
        url = route.request.url
        if url.startswith(live_server.url) or url.startswith(("data:", "blob:")):
            route.continue_()
        elif url.startswith(HOST + "/"):
            if state["online"]:
                state["served"] += 1
                route.fulfill(status=200, content_type="image/png", body=png)
            else:
                route.abort("internetdisconnected")
        else:
            state["external"].append(url)
            route.abort()

    page.route("**/*", route)
    page.pictures = state
    yield page
    context.close()
    assert not state["external"], state["external"]


def _art_box(page: Any, scope: str) -> dict[str, float]:
    return page.locator(f"{scope} .preview-art").first.bounding_box()


def _loaded(page: Any, scope: str) -> int:
    img = page.locator(f"{scope} [data-testid=card-image]").first
    img.wait_for()
    page.wait_for_timeout(300)
    return img.evaluate("i => i.complete ? i.naturalWidth : -1")


def _show_first_line(page: Any, device: str) -> str:
    line = page.locator("[data-testid=section-main] details.card-line").first
    if device == "phone":
        line.locator("summary").click()
        return "[data-testid=section-main] details.card-line[open]"
    line.hover()
    return "#card-preview"


@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_the_deck_page_shows_pictures_lazily_and_keeps_its_layout_offline(pictures, picture_page, device):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = picture_page
    page.set_viewport_size(VIEWPORTS[device])
    page.goto(page.base_url + f"/decks/{pictures['deck'].pk}/")
    # Lazy: the hidden previews of a long list load nothing until one is shown.
    assert page.pictures["served"] == 0
    scope = _show_first_line(page, device)
    assert _loaded(page, scope) > 0
    assert page.pictures["served"] >= 1
    online = _art_box(page, scope)
    assert abs(online["height"] / online["width"] - 86 / 59) < 0.02
    text = page.locator(f"{scope} .preview-text").first.text_content()
    assert "{#" not in page.locator("body").text_content()  # no template comment leaks into the page
    assert page.evaluate("document.scrollingElement.scrollWidth") <= VIEWPORTS[device]["width"]
    page.screenshot(path=str(ARTIFACTS / f"pictures-deck-{device}.png"), full_page=device == "phone")

    page.pictures["online"] = False
    page.reload()
    scope = _show_first_line(page, device)
    assert _loaded(page, scope) == 0  # the picture never came
    offline = _art_box(page, scope)
    assert (round(offline["width"]), round(offline["height"])) == (
        round(online["width"]),
        round(online["height"]),
    )
    assert page.locator(f"{scope} .preview-text").first.text_content() == text
    page.screenshot(path=str(ARTIFACTS / f"pictures-deck-offline-{device}.png"), full_page=device == "phone")


def test_the_builder_preview_shows_the_picture_beside_the_text(pictures, picture_page):
    page = picture_page
    login_in_browser(page, "alice")
    page.goto(page.base_url + "/decks/new/?game=yugioh")
    page.fill("input[name=name]", "Pictures")
    page.select_option("select[name=format_slug]", "yugioh/advanced")
    page.click("[data-testid=new-deck-form] button[type=submit]")
    page.wait_for_selector("#builder-config", state="attached")
    page.fill("[data-testid=search-q]", "dark magician")
    result = page.locator("#search-results li.result").first
    result.wait_for()
    result.hover()
    assert _loaded(page, "#card-preview") > 0
    page.screenshot(path=str(ARTIFACTS / "pictures-builder-desktop.png"))
    art, name = _art_box(page, "#card-preview"), page.locator("#card-preview .preview-name").bounding_box()
    box = page.locator("#card-preview").bounding_box()
    # The builder's preview is a box of its own size beside the deck (so hovering never moves the list): the
    # picture and the text both inside it, the text not covered by the picture.
    inside = [
        b["x"] >= box["x"] - 1 and b["x"] + b["width"] <= box["x"] + box["width"] + 1 for b in (art, name)
    ]
    assert all(inside)
    assert name["y"] >= art["y"] + art["height"] - 1 or name["x"] >= art["x"] + art["width"] - 1


def test_no_picture_host_allowed_means_no_picture_and_the_text_only_layout(
    transactional_db, client, settings
):
    """The default: CARD_IMAGE_HOSTS is empty, no page links a picture from elsewhere."""
    from cards import demo
    from cards.games import games_sync

    settings.CARD_IMAGE_HOSTS = []
    games_sync()
    demo.load(io.StringIO())
    page = client.get("/cards/?game=yugioh&q=dark+magician").content.decode()
    assert "card-preview" in page and "preview-art" not in page and HOST not in page
