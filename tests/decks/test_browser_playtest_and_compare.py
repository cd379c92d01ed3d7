"""In Chromium, without a page reload: a Yu-Gi-Oh! deck's sample hand is 5 cards going first and 6 going
second, draws the next card and offers no mulligan; a Magic deck takes a London mulligan (seven again, one
chosen to the bottom); its curve leaves the lands out and names the mana value. Then two decks compared on a
390 px phone, the copy's page saying what it is based on. Screenshots: tests/artifacts/playtest/."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import sign_in_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "playtest"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def decks(transactional_db: Any, make_user: Any) -> dict[str, Any]:
    from django.core.cache import cache

    from cards import demo
    from cards.games import games_sync
    from cards.models import Card, Game
    from decks.services import deck_copy, deck_create

    cache.clear()
    games_sync()
    demo.load(io.StringIO())
    alice, bob = make_user("alice"), make_user("bob")
    ygo = Game.objects.get(slug="yugioh")
    extra_deck = {"fusion", "synchro", "xyz", "link"}
    main = [
        c
        for c in Card.objects.filter(game=ygo, deck_buildable=True, is_token=False).order_by("name")
        if c.card_type in {"monster", "spell", "trap"} and not extra_deck & set(c.subtypes or [])
    ][:14]
    ygo_deck = deck_create(
        owner=bob, game=ygo, name="Bob's public", format_slug="advanced", visibility="public",
        sections={"main": [(c, 3) for c in main[:13]] + [(main[13], 1)], "maybe": [(main[0], 1)]},
    )  # fmt: skip
    copy = deck_copy(deck=ygo_deck, by=alice)
    from decks.services import deck_update

    deck_update(deck=copy, by=alice, sections={"main": [(c, 3) for c in main[1:14]] + [(main[0], 1)]})

    mtg = Game.objects.get(slug="mtg")

    def card(name: str, card_type: str, cost: int, manacost: str = "") -> Any:
        return Card.objects.create(
            game=mtg, external_id=name, identity=name, name=name, card_type=card_type, cost=cost,
            attributes={"manacost": manacost, "supertypes": ["basic"] if card_type == "land" else []},
        )  # fmt: skip

    island = card("Island", "land", 0)
    spells = [card(f"Spell {i}", "instant", 1 + i % 4, "{" + str(i % 3) + "}{U}") for i in range(11)]
    mtg_deck = deck_create(
        owner=alice, game=mtg, name="Blue", format_slug="constructed",
        sections={"main": [(island, 20)] + [(s, 4) for s in spells[:10]]},
    )  # fmt: skip
    return {"alice": alice, "ygo": ygo_deck, "copy": copy, "mtg": mtg_deck}


def open_page(browser: Any, live_server: Any, user: Any, path: str, viewport: dict[str, int]) -> Any:
    context = browser.new_context(locale="en-US", viewport=viewport, bypass_csp=True)
    context.set_default_timeout(15_000)
    sign_in_context(context, live_server, user)
    page = context.new_page()
    page.goto(live_server.url + path)
    return page


def hand(page: Any) -> list[str]:
    return page.locator("[data-testid=hand-cards-main] [data-testid=hand-card]").all_text_contents()


def test_it_playtests_and_compares_without_reloading(decks, browser, live_server) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = open_page(browser, live_server, decks["alice"], f"/decks/{decks['ygo'].pk}/", PHONE)
    page.evaluate("window.__sameDocument = true")
    assert page.locator("[data-testid=mulligan]").is_hidden()  # Yu-Gi-Oh! has no mulligan
    page.click("[data-testid=draw-hand]")
    assert len(hand(page)) == 5
    page.check("[data-testid=seat-second]")
    assert len(hand(page)) == 6
    page.click("[data-testid=draw-next]")
    assert len(hand(page)) == 7
    assert "33 cards left" in page.locator("[data-testid=playtest-status]").text_content()
    # Odds for both seats: the chance to see a 3-of is higher with the sixth card.
    page.locator("details", has=page.locator("form.odds-form")).first.locator("summary").click()
    first = float(page.locator("[data-testid=odds-first]").first.text_content().rstrip("%"))
    second = float(page.locator("[data-testid=odds-second]").first.text_content().rstrip("%"))
    assert 0 < first < second < 100
    assert page.evaluate("window.__sameDocument") is True  # no reload happened
    page.screenshot(path=str(ARTIFACTS / "ygo-second-phone.png"), full_page=False)

    # Magic: a London mulligan deals seven again and asks for one card to the bottom.
    page.goto(live_server.url + f"/decks/{decks['mtg'].pk}/")
    assert "Mana value" in page.locator("[data-testid=chart-caption]").first.text_content()
    curve = page.locator("section.tile[data-section=main] svg").first.inner_html()
    assert ">20<" not in curve  # the 20 lands are not a 0-drop bar
    page.click("[data-testid=draw-hand]")
    assert len(hand(page)) == 7
    page.click("[data-testid=mulligan]")
    assert len(hand(page)) == 7
    assert page.locator("[data-testid=draw-next]").is_disabled()
    assert page.locator("[data-testid=keep-hand]").is_disabled()
    page.locator("[data-testid=hand-cards-main] [data-testid=hand-card]").nth(2).click()
    page.click("[data-testid=keep-hand]")
    assert len(hand(page)) == 6
    assert "54 cards left" in page.locator("[data-testid=playtest-status]").text_content()
    page.screenshot(path=str(ARTIFACTS / "mtg-mulligan-phone.png"), full_page=False)

    # The copy says what it is based on and compares with its original on a phone.
    page.goto(live_server.url + f"/decks/{decks['copy'].pk}/")
    assert "Based on “Bob's public” by bob" in page.locator("[data-testid=based-on]").text_content()
    page.click("[data-testid=compare-original]")
    main = page.locator("[data-testid=compare-main]")
    main.wait_for()
    assert main.locator("[data-testid=only-a] li").count() == 1
    assert main.locator("[data-testid=only-b] li").count() == 1
    assert page.locator("[data-testid=compare-maybe] [data-testid=only-b] li").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(ARTIFACTS / "compare-phone.png"), full_page=True)
    page.context.close()
