"""In Chromium, on a desktop and at 390 px: a Commander deck of 98 cards, Frodo chosen as the commander
(Shift+Enter in the search) — the partner picker offers only Sam; choosing Sam makes the deck legal live, and
the save keeps both commanders. Screenshots: tests/artifacts/partners/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import login_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "partners"

FRODO = "Frodo, Adventurous Hobbit"
SAM = "Sam, Loyal Attendant"


@pytest.fixture
def fellowship(transactional_db: Any, make_user: Any) -> int:
    from cards.games import games_sync
    from cards.models import Card, Game
    from decks.services import deck_create

    games_sync()
    alice = make_user("alice")
    game = Game.objects.get(slug="mtg")

    def card(name: str, text: str = "", colors: str = "", kind: str = "creature") -> Card:
        attrs = {
            "color": list(colors),
            "manacost": "".join(f"{{{c}}}" for c in colors),
            "supertypes": ["legendary"],
        }
        return Card.objects.create(game=game, external_id=name, identity=name, name=name,
                                   search_name=name.casefold(), card_type=kind, attributes=attrs, text=text)  # fmt: skip

    card(FRODO, f"Partner with {SAM}\nVigilance", "WB")
    card(SAM, f"Partner with {FRODO}", "G")
    card("Tymna the Weaver", "Lifelink\nPartner", "WB")
    spells = [card(f"Spell {i}", "", "WBG"[i % 3], kind="instant") for i in range(98)]
    deck = deck_create(owner=alice, game=game, name="Fellowship", format_slug="commander",
                       sections={"main": [(c, 1) for c in spells]})  # fmt: skip
    return deck.pk


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}])
def test_pick_frodo_then_sam_and_the_deck_is_legal(fellowship, page, viewport) -> None:
    from decks.models import Deck

    page.set_viewport_size(viewport)
    login_in_browser(page, "alice")
    page.goto(page.base_url + f"/decks/{fellowship}/edit/")
    page.wait_for_function("document.getElementById('legal-status').textContent === 'Not legal'")
    assert page.locator("[data-testid=partner-box]").is_hidden()
    page.fill("[data-testid=search-q]", "Frodo")
    page.wait_for_function(
        "q => document.getElementById('search-results').dataset.query === q && "
        "document.querySelector('#search-results li.result')",
        arg="Frodo",
    )
    page.press("[data-testid=search-q]", "Shift+Enter")
    box = page.locator("[data-testid=partner-box]")
    box.wait_for(state="visible")
    options = page.locator("[data-testid=partner-select] option").all_text_contents()
    assert options == ["— no partner —", SAM]  # Tymna has Partner, not "Partner with Frodo"
    page.select_option("[data-testid=partner-select]", label=SAM)
    page.wait_for_function("document.getElementById('legal-status').textContent === 'Legal'")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.locator("[data-testid=hero-panel]").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"builder-frodo-sam-{viewport['width']}.png"), full_page=False)
    page.click("[data-testid=save-deck]")
    page.wait_for_function("/version/.test(document.getElementById('save-status').textContent)")
    deck = Deck.objects.get(pk=fellowship)
    assert deck.hero.name == FRODO and [c.name for c in deck.co_heroes.all()] == [SAM]
    # Opened again, the builder shows the saved partner chosen.
    page.reload()
    page.wait_for_function("document.getElementById('legal-status').textContent === 'Legal'")
    page.locator("[data-testid=partner-box]").wait_for(state="visible")
    assert page.locator("[data-testid=partner-select] option:checked").text_content() == SAM
