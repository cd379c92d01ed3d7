"""One player's walk in Chromium, on a desktop and on a 390 px phone: build a Yu-Gi-Oh! deck with the mouse
from the search results, tag cards, keep four in the maybeboard, save; import a collection CSV and read
"missing 3" and the wants list; add the missing copies by hand and mark the deck built; open a second deck
that needs a card already sleeved and read which deck holds it; compare the two decks; draw a sample hand
going second; print the card-size PDF. Then the same walk's key screens in Russian on the phone.
Screenshots: tests/artifacts/walk/."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import sign_in_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "walk"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# As Deckbox writes an inventory: 2 Blue-Eyes, 1 Dark Magician, 1 Pot of Greed.
DECKBOX = (
    "Count,Tradelist Count,Name,Edition,Card Number,Condition,Language,Foil,Signed,Artist Proof,Altered Art,"
    "Misprint,Promo,Textless,My Price\n"
    "2,0,Blue-Eyes White Dragon,Legend of Blue Eyes White Dragon,LOB-001,Near Mint,English,,,,,,,,\n"
    "1,0,Dark Magician,Legend of Blue Eyes White Dragon,LOB-005,Near Mint,English,,,,,,,,\n"
    "1,0,Pot of Greed,Legend of Blue Eyes White Dragon,LOB-119,Near Mint,English,,,,,,,,\n"
)
MAYBE = ["Mirror Force", "Raigeki", "Monster Reborn", "Swords of Revealing Light"]


@pytest.fixture
def player(transactional_db: Any, make_user: Any) -> dict[str, Any]:
    from django.core.cache import cache

    from cards import demo
    from cards.games import games_sync
    from cards.models import Card, Game
    from decks.services import deck_create

    cache.clear()
    games_sync()
    demo.load(io.StringIO())
    user = make_user("alice")
    game = Game.objects.get(slug="yugioh")

    def card(name: str) -> Any:
        return Card.objects.filter(game=game, name=name).order_by("external_id").first()

    assert all(card(name) for name in MAYBE), "the demo cards lack a maybeboard card"
    walk = deck_create(owner=user, game=game, name="Walk", format_slug="advanced", sections={})
    magicians = deck_create(owner=user, game=game, name="Magicians", format_slug="advanced",
                            sections={"main": [(card("Blue-Eyes White Dragon"), 1), (card("Dark Magician"), 3)]})  # fmt: skip
    return {"user": user, "walk": walk, "magicians": magicians}


def _search(page: Any, name: str) -> Any:
    page.fill("[data-testid=search-q]", name)
    page.wait_for_function("q => document.getElementById('search-results').dataset.query === q", arg=name)
    return (
        page.locator("#search-results li.result")
        .filter(has=page.locator(".result-name", has_text=name))
        .first
    )


def _shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)


def _fits(page: Any, viewport: dict[str, int]) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"] + 1, f"{page.url} scrolls sideways at {viewport['width']} px"


@pytest.mark.parametrize(("label", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_a_player_builds_owns_compares_playtests_and_prints_a_deck(
    player, browser, live_server, tmp_path, label, viewport
) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    walk, magicians = player["walk"], player["magicians"]
    # bypass_csp: wait_for_function evaluates strings in the page, which the site's CSP refuses.
    context = browser.new_context(locale="en-US", viewport=viewport, bypass_csp=True)
    context.set_default_timeout(15_000)
    sign_in_context(context, live_server, player["user"])
    page = context.new_page()
    base = live_server.url

    # 1. Build with the mouse: "+ Main deck" in the results, "+" on the row, four cards to the maybeboard.
    page.goto(base + f"/decks/{walk.pk}/edit/")
    page.wait_for_function("document.querySelectorAll('#search-results li.result').length > 0")
    for name, clicks in (("Blue-Eyes White Dragon", 1), ("Dark Magician", 1), ("Pot of Greed", 1)):
        result = _search(page, name)
        for _ in range(clicks):
            result.locator("button.add[data-section=main]").click()
    rows = page.locator("li.deck-row[data-section=main]")
    rows.first.wait_for()
    for name in ("Blue-Eyes White Dragon", "Dark Magician"):  # two more of each with the row's "+"
        row = rows.filter(has=page.locator(".name", has_text=name)).first
        row.locator("button.inc").click()
        row.locator("button.inc").click()
    page.wait_for_function("() => document.querySelector('[data-testid=count-main]').textContent === '7'")
    for name in MAYBE:
        _search(page, name).locator("button.add[data-section=maybe]").click()
    assert page.locator("li.deck-row[data-section=maybe]").count() == 4
    # Tags on a row, with the mouse on the row's tag button.
    blue = rows.filter(has=page.locator(".name", has_text="Blue-Eyes White Dragon")).first
    blue.locator("[data-testid=tag-edit]").click()
    blue.locator("[data-testid=tag-input]").fill("boss, Starter")
    blue.locator(".tag-form button[type=submit]").click()
    assert blue.locator("[data-testid=row-tag]").all_text_contents() == ["boss", "Starter"]
    _fits(page, viewport)
    page.click("[data-testid=save-deck]")
    page.wait_for_function("() => document.getElementById('save-status').textContent.startsWith('Saved')")
    _shot(page, f"1-builder-{label}")

    # 2. Import a collection CSV; the deck lacks 1 Blue-Eyes and 2 Dark Magicians: "missing 3", a wants list.
    csv_file = tmp_path / "deckbox-inventory.csv"
    csv_file.write_text(DECKBOX, encoding="utf-8")
    page.goto(base + "/collection/import/?game=yugioh")
    page.set_input_files("#import-file", str(csv_file))
    page.click("[data-testid=collection-import-form] button[type=submit]")
    assert (
        "4 copies read from 3 rows (deckbox)"
        in page.locator("[data-testid=collection-import-result]").inner_text()
    )
    page.goto(base + f"/collection/decks/{walk.pk}/")
    assert "missing 3" in page.locator("[data-testid=deck-buildable]").inner_text()
    wants = page.locator("[data-testid=wants-text]").input_value()
    assert "1 Blue-Eyes White Dragon" in wants and "2 Dark Magician" in wants
    assert not any(name in wants for name in MAYBE)  # the maybeboard is never wanted
    _fits(page, viewport)
    _shot(page, f"2-missing-{label}")

    # 3. The missing copies bought and added by hand; the deck is built.
    page.goto(base + "/collection/?game=yugioh")
    for name, copies in (("Blue-Eyes White Dragon", "1"), ("Dark Magician", "2")):
        page.fill("#add-name", name)
        page.fill("#add-count", copies)
        page.click("[data-testid=add-card-form] button[type=submit]")
    page.goto(base + f"/collection/decks/{walk.pk}/")
    page.click("[data-testid=mark-built]")
    assert page.locator("[data-testid=built-badge]").is_visible()
    page.goto(base + "/collection/?game=yugioh")
    row = page.locator("[data-testid=collection-table] tr", has_text="Blue-Eyes White Dragon").first
    assert "Walk" in row.inner_text() and "×3" in row.inner_text()
    _fits(page, viewport)
    _shot(page, f"3-collection-{label}")

    # 4. A second deck needs a card already sleeved: which deck holds it.
    page.goto(base + f"/collection/decks/{magicians.pk}/")
    held = page.locator("[data-testid=held-by]").first
    assert held.inner_text() == "3 of 3 are in Walk"
    assert "missing 4" in page.locator("[data-testid=deck-buildable]").inner_text()
    _fits(page, viewport)
    _shot(page, f"4-held-{label}")
    page.goto(base + f"/decks/{magicians.pk}/")  # the deck page says it on the line too
    assert page.locator("[data-testid=line-held-by]").first.inner_text() == "3 of 3 are in Walk"

    # 5. Compare the two decks with the page's pickers.
    page.goto(base + "/decks/compare/")
    page.select_option("[data-testid=compare-a]", str(walk.pk))
    page.select_option("[data-testid=compare-b]", str(magicians.pk))
    page.click("[data-testid=compare-submit]")
    main = page.locator("[data-testid=compare-main]")
    assert "Pot of Greed" in main.locator("[data-testid=only-a]").inner_text()
    assert "Dark Magician" in main.locator("[data-testid=both]").inner_text()
    assert page.locator("[data-testid=compare-maybe] [data-testid=only-a] li").count() == 4
    _fits(page, viewport)
    _shot(page, f"5-compare-{label}")

    # 6. A sample hand going second (6 cards of Yu-Gi-Oh!'s 7 here), drawn in the page; 7. the card PDF.
    page.goto(base + f"/decks/{walk.pk}/")
    page.click("[data-testid=draw-hand]")
    page.check("[data-testid=seat-second]")
    hand = page.locator("[data-testid=hand-cards-main] [data-testid=hand-card]")
    assert hand.count() == 6
    _shot(page, f"6-hand-{label}")
    with page.expect_download() as download:
        page.click("[data-testid=print-cards]")
    assert download.value.suggested_filename == "Walk.cards.pdf"
    pdf = Path(download.value.path()).read_bytes()
    assert pdf.startswith(b"%PDF")
    context.close()


def test_the_walks_key_screens_in_russian_on_a_phone(player, browser, live_server) -> None:
    from cards.models import Card
    from collection.services import collection_import, deck_built_set
    from decks.services import deck_update
    from tests.foundation.test_russian_pages import english_leftovers

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    user, walk, magicians = player["user"], player["walk"], player["magicians"]

    def card(name: str) -> Any:
        return Card.objects.filter(game=walk.game, name=name).order_by("external_id").first()

    deck_update(deck=walk, by=user, sections={"main": [(card("Blue-Eyes White Dragon"), 3), (card("Dark Magician"), 3),
                                                      (card("Pot of Greed"), 1)],
                                             "maybe": [(card(name), 1) for name in MAYBE[:3]]})  # fmt: skip
    # The players' and the cards' own words (names, card texts in the search results) are data, not UI.
    cards = Card.objects.filter(game=walk.game)
    names = (
        "Walk",
        "Magicians",
        "alice",
        *cards.values_list("name", flat=True),
        *cards.values_list("text", flat=True),
    )
    context = browser.new_context(locale="ru-RU", viewport=PHONE, bypass_csp=True)
    context.set_default_timeout(15_000)
    sign_in_context(context, live_server, user)
    context.add_cookies([{"name": "django_language", "value": "ru", "url": live_server.url}])
    page = context.new_page()
    base = live_server.url

    def screen(path: str, name: str) -> str:
        page.goto(base + path)
        page.wait_for_selector("html[lang=ru]")
        page.wait_for_load_state("networkidle")
        _fits(page, PHONE)
        _shot(page, f"ru-{name}")
        html = page.content()
        # A whole text that is a card's name is data even when it looks like a catalogue pattern
        # ("Magician of Faith" and "%(n)sth").
        leftovers = [
            left
            for left in english_leftovers(html, names)
            if left.split(" (catalogue")[0].strip("'") not in names
        ]
        assert not leftovers, (name, leftovers)
        return html

    # The builder: the fourth maybeboard card with the mouse, saved.
    screen(f"/decks/{walk.pk}/edit/", "builder")
    page.wait_for_function("document.querySelectorAll('#search-results li.result').length > 0")
    _search(page, MAYBE[3]).locator("button.add[data-section=maybe]").click()
    assert page.locator("li.deck-row[data-section=maybe]").count() == 4
    page.click("[data-testid=save-deck]")
    page.wait_for_function("() => document.getElementById('save-status').textContent.startsWith('Сохранено')")
    _shot(page, "ru-builder-saved")

    collection_import(owner=user, game=walk.game, data=DECKBOX)
    screen(f"/collection/decks/{walk.pk}/", "missing")
    assert "не хватает 3" in page.locator("[data-testid=deck-buildable]").inner_text()
    assert "2 Dark Magician" in page.locator("[data-testid=wants-text]").input_value()

    collection_import(
        owner=user,
        game=walk.game,
        data=DECKBOX.replace("\n2,0,Blue", "\n3,0,Blue").replace("\n1,0,Dark", "\n3,0,Dark"),
    )
    deck_built_set(deck=walk, by=user, built=True)
    screen(f"/collection/decks/{magicians.pk}/", "held")
    assert page.locator("[data-testid=held-by]").first.inner_text() == "3 из 3 — в колоде Walk"

    screen(f"/decks/compare/?a={walk.pk}&b={magicians.pk}", "compare")
    assert "Только в A" in page.locator("[data-testid=compare-main]").inner_text()

    screen(f"/decks/{walk.pk}/", "deck")
    page.click("[data-testid=draw-hand]")
    page.check("[data-testid=seat-second]")
    assert page.locator("[data-testid=hand-cards-main] [data-testid=hand-card]").count() == 6
    _shot(page, "ru-hand")
    with page.expect_download() as download:
        page.click("[data-testid=print-cards]")
    assert download.value.suggested_filename == "Walk.cards.pdf"
    context.close()
