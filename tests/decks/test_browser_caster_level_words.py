"""In Chromium, in Russian: the deck builder words a caster's level through the JavaScript catalogue
("Aria ур. 2"), while the rules engine's reports, which name the card "Aria Lv2", still land on its row."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import login_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


@pytest.fixture
def caster_deck(transactional_db: Any, make_user: Any) -> int:
    from cards import demo
    from cards.games import games_sync
    from cards.models import Card, Game
    from decks.services import deck_create

    games_sync()
    demo.load(io.StringIO())
    alice = make_user("alice")
    game = Game.objects.get(slug="caster")
    aria = Card.objects.create(game=game, external_id="Aria Lv2", identity="Aria|Lv2", name="Aria", level=2,
                               search_name="aria", card_type="caster")  # fmt: skip
    # Five copies of one caster level: over the copy limit of four, so a violation names "Aria Lv2".
    deck = deck_create(
        owner=alice, game=game, name="Levels", format_slug="standard", sections={"main": [(aria, 5)]}
    )
    return deck.pk


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}])
def test_a_casters_level_reads_in_russian_and_its_violation_stays_on_its_row(
    caster_deck, page, viewport
) -> None:
    page.set_viewport_size(viewport)
    login_in_browser(page, "alice")
    page.context.add_cookies([{"name": "django_language", "value": "ru", "url": page.base_url}])
    page.goto(page.base_url + f"/decks/{caster_deck}/edit/")
    page.wait_for_selector("html[lang=ru]")
    page.wait_for_function("document.getElementById('legal-status').textContent === 'Нелегальна'")
    row = page.locator("li.deck-row[data-section=main]")
    assert row.locator("span.name").text_content() == "Aria ур. 2"
    assert row.get_attribute("aria-label") == "5 × Aria ур. 2"
    # The copy-limit violation is matched to the row by the engine's card reference, not by the words.
    violation = row.locator(".row-violations li.violation")
    violation.first.wait_for()
    assert any("Aria Lv2" in text and "5" in text for text in violation.all_text_contents())
    # Long Russian options (a visibility, "→ Дополнительная колода (Soul Bond)") must not widen the page.
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"builder-caster-level-ru-{viewport['width']}.png"), full_page=True)
