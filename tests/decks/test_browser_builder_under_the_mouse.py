"""In Chromium, with the mouse: on a 40-card Yu-Gi-Oh! deck the player points at other rows (each one fills
the card preview), then clicks "−" and "+" where the row's buttons were — on a desktop and on a 390 px
phone — and the count changes on that row and no other. Also: the search results name a card's ban-list
status and offer only the sections it may go in (no "+ Extra deck" on a spell). Screenshots:
tests/artifacts/builder-mouse/."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import sign_in_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "builder-mouse"


@pytest.fixture
def forty_card_deck(transactional_db: Any, make_user: Any) -> Any:
    from django.core.cache import cache

    from cards import demo
    from cards.games import games_sync
    from cards.models import Card, Game
    from decks.services import deck_create
    from rules.models import BanList, BanListEntry

    cache.clear()
    games_sync()
    demo.load(io.StringIO())
    user = make_user("alice")
    game = Game.objects.get(slug="yugioh")
    # The format's list in effect: Pot of Greed forbidden (its status shows in the search results).
    banlist = BanList.objects.create(game=game, name="TCG", effective_date=date(2020, 1, 1), region="tcg")
    pot = Card.objects.get(game=game, name="Pot of Greed")
    BanListEntry.objects.create(banlist=banlist, external_id=pot.external_id, card=pot, limit=0)
    main_types = ["monster", "spell", "trap"]
    extra_deck = {"fusion", "synchro", "xyz", "link"}
    cards = [
        c
        for c in Card.objects.filter(
            game=game, deck_buildable=True, is_token=False, card_type__in=main_types
        ).order_by("name")
        if not extra_deck & set(c.subtypes or [])
    ][:16]
    counts = [3] * 8 + [2] * 8  # 24 + 16 = 40
    assert len(cards) == 16
    deck = deck_create(
        owner=user,
        game=game,
        name="Forty",
        format_slug="advanced",
        sections={"main": list(zip(cards, counts, strict=True))},
    )
    return user, deck


def open_builder(browser: Any, live_server: Any, user: Any, deck: Any, viewport: dict[str, int]) -> Any:
    # bypass_csp: wait_for_function evaluates strings in the page, which the site's CSP refuses.
    context = browser.new_context(locale="en-US", viewport=viewport, bypass_csp=True)
    context.set_default_timeout(15_000)
    sign_in_context(context, live_server, user)
    page = context.new_page()
    # Counts the card searches out at once: as-you-type keeps at most one in flight.
    page.add_init_script(
        "(() => { const real = window.fetch; window.__searches = { now: 0, most: 0, total: 0 };"
        " window.fetch = async function (url, options) {"
        "  const search = String(url).includes('/api/cards/grouped/');"
        "  if (search) { __searches.now++; __searches.total++; __searches.most = Math.max(__searches.most, __searches.now); }"
        "  try { return await real.apply(this, arguments); } finally { if (search) __searches.now--; } }; })()"
    )
    page.goto(live_server.url + f"/decks/{deck.pk}/edit/")
    page.wait_for_function("document.getElementById('legal-status').textContent !== ''")
    page.wait_for_function("document.querySelectorAll('#search-results li.result').length > 0")
    return page


def counts(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "li.deck-row[data-section=main] .count", "ns => ns.map(n => n.textContent)"
    )


def click_after_pointing_elsewhere(page: Any, target_row: int, button: str, others: list[int]) -> None:
    """Where the button is now; then the pointer visits other rows (filling the preview), comes back to
    that spot and clicks there — what a person's hand does."""
    rows = page.locator("li.deck-row[data-section=main]")
    rows.nth(target_row).scroll_into_view_if_needed()
    box = rows.nth(target_row).locator(f"button.{button}").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    for other in others:
        other_box = rows.nth(other).locator(".name").bounding_box()
        if other_box is None:
            continue
        page.mouse.move(other_box["x"] + 4, other_box["y"] + other_box["height"] / 2, steps=3)
        page.wait_for_timeout(60)
    page.mouse.move(x, y, steps=3)
    page.wait_for_timeout(60)
    page.mouse.down()
    page.mouse.up()


@pytest.mark.parametrize(
    "label, viewport",
    [("desktop", {"width": 1280, "height": 900}), ("phone", {"width": 390, "height": 844})],
)
def test_it_changes_the_count_on_the_row_clicked_after_pointing_at_others(
    forty_card_deck, browser, live_server, label, viewport
) -> None:
    user, deck = forty_card_deck
    page = open_builder(browser, live_server, user, deck, viewport)
    before = counts(page)
    assert sum(int(n) for n in before) == 40 and len(before) == 16
    wide = page.evaluate(
        "w => [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > w + 1)"
        ".map(e => e.tagName + '.' + e.className + '#' + e.id).slice(0, 8)",
        viewport["width"],
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], wide

    # "−" on the 10th row after pointing at rows above and below it.
    click_after_pointing_elsewhere(page, 9, "dec", [2, 12, 5])
    page.wait_for_function("() => document.querySelector('[data-testid=count-main]').textContent === '39'")
    after = counts(page)
    assert after[9] == str(int(before[9]) - 1), (before, after)
    assert [n for i, n in enumerate(after) if i != 9] == [n for i, n in enumerate(before) if i != 9]

    # Validation answers and ban-list badges arrive meanwhile; "+" on the 4th row after pointing elsewhere.
    page.wait_for_timeout(400)
    click_after_pointing_elsewhere(page, 3, "inc", [14, 0, 8])
    page.wait_for_function("() => document.querySelector('[data-testid=count-main]').textContent === '40'")
    final = counts(page)
    assert final[3] == str(int(after[3]) + 1), (after, final)
    assert [n for i, n in enumerate(final) if i != 3] == [n for i, n in enumerate(after) if i != 3]

    # Pointing at rows never moves the list: the 12th row stays where it is whatever the preview shows.
    rows = page.locator("li.deck-row[data-section=main]")
    rows.nth(11).scroll_into_view_if_needed()
    top = rows.nth(11).bounding_box()["y"]
    for other in (0, 15, 7):
        rows.nth(other).locator(".name").hover()
        rows.nth(11).scroll_into_view_if_needed()
    page.mouse.move(5, 5)
    assert abs(rows.nth(11).bounding_box()["y"] - top) < 1 or page.evaluate("window.scrollY") != 0

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"deck-{label}.png"), full_page=False)

    # The search results: a spell is not offered the Extra Deck, an Extra Deck monster not the Main Deck.
    page.fill("[data-testid=search-q]", "Pot of Greed")
    page.wait_for_function("() => document.getElementById('search-results').dataset.query === 'Pot of Greed'")
    pot = (
        page.locator("#search-results li.result")
        .filter(has=page.locator(".result-name", has_text="Pot of Greed"))
        .first
    )
    sections = pot.locator("button.add").evaluate_all("bs => bs.map(b => b.dataset.section)")
    assert "extra" not in sections and "main" in sections and "maybe" in sections
    # Its ban-list status is in the result, before it is added.
    assert pot.locator("[data-testid=result-status]").first.text_content() == "Forbidden"
    page.fill("[data-testid=search-q]", "Stardust Dragon")
    page.wait_for_function(
        "() => document.getElementById('search-results').dataset.query === 'Stardust Dragon'"
    )
    stardust = page.locator("#search-results li.result").first
    sections = stardust.locator("button.add").evaluate_all("bs => bs.map(b => b.dataset.section)")
    assert "extra" in sections and "main" not in sections
    page.screenshot(path=str(ARTIFACTS / f"search-{label}.png"), full_page=False)

    # Typing fast: never two searches out at once, and the results answer the whole name.
    page.fill("[data-testid=search-q]", "")
    page.locator("[data-testid=search-q]").type("Dark Magician Girl", delay=15)
    page.wait_for_function(
        "() => document.getElementById('search-results').dataset.query === 'Dark Magician Girl'"
    )
    searches = page.evaluate("window.__searches")
    assert searches["most"] == 1 and searches["total"] >= 2, searches

    # With the mouse: one card to the maybeboard, tags on a row, grouped by tag, filtered, as pictures.
    girl = page.locator("#search-results li.result").first
    girl.locator("button.add[data-section=maybe]").click()
    maybe_row = page.locator("li.deck-row[data-section=maybe]")
    maybe_row.wait_for()
    assert maybe_row.locator(".count").text_content() == "1"
    page.wait_for_function("() => document.querySelector('[data-testid=count-main]').textContent === '40'")
    main_rows = page.locator("li.deck-row[data-section=main]")
    main_rows.nth(2).locator("[data-testid=tag-edit]").click()
    main_rows.nth(2).locator("[data-testid=tag-input]").fill("engine, Starter")
    main_rows.nth(2).locator(".tag-form button[type=submit]").click()
    assert main_rows.nth(2).locator("[data-testid=row-tag]").all_text_contents() == ["engine", "Starter"]
    page.select_option("[data-testid=group-by]", "tag")
    assert "engine (" in page.locator("[data-testid=group-head]").first.text_content()
    page.select_option("[data-testid=tag-filter]", "Starter")
    assert page.locator("li.deck-row[data-section=main]").count() == 1
    page.select_option("[data-testid=tag-filter]", "")
    page.check("[data-testid=view-grid]")
    assert page.locator("#deck-sections.grid-view li.deck-row .tile-art").first.is_visible()
    page.screenshot(path=str(ARTIFACTS / f"grid-{label}.png"), full_page=False)
    page.click("[data-testid=save-deck]")
    page.wait_for_function("() => document.getElementById('save-status').textContent.includes('version')")
    from decks.models import DeckCard

    entries = {(e.section, tuple(e.tags)) for e in DeckCard.objects.filter(deck=deck)}
    assert ("main", ("engine", "Starter")) in entries and ("maybe", ()) in entries, entries
    page.evaluate("localStorage.clear()")
    page.context.close()
