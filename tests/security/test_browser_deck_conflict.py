"""In Chromium: a builder tab whose deck was saved elsewhere is told so on saving, and can keep its
changes as a new deck or reload the saved one; nothing is overwritten."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import login_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def open_builder(page: Any, make_user: Any) -> Any:
    from cards.games import games_sync
    from cards.models import Game
    from decks.services import deck_create

    games_sync()
    owner = make_user("alice")
    deck = deck_create(owner=owner, game=Game.objects.get(slug="yugioh"), name="Shared deck")
    login_in_browser(page, "alice")
    page.goto(page.base_url + f"/decks/{deck.pk}/edit/")
    page.wait_for_function("document.getElementById('legal-status').textContent !== ''")
    return owner, deck


def _save_in_another_tab(owner: Any, deck: Any) -> None:
    from decks.services import deck_update

    deck_update(deck=deck, by=owner, name="Saved on the phone", base_version=1)


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}])
def test_a_stale_builder_keeps_its_changes_as_a_new_deck(page: Any, open_builder: Any, viewport: Any) -> None:
    from decks.models import Deck

    page.set_viewport_size(viewport)
    owner, deck = open_builder
    _save_in_another_tab(owner, deck)
    page.fill("#deck-name", "Edited on the laptop")
    page.click("[data-testid=save-deck]")
    conflict = page.locator("[data-testid=save-conflict]")
    conflict.wait_for()
    assert "version 2" in conflict.inner_text()
    page.screenshot(path=f"tests/artifacts/deck-conflict-{viewport['width']}.png", full_page=True)
    page.click("[data-testid=conflict-copy]")
    page.wait_for_url(lambda url: f"/decks/{deck.pk}/edit/" not in url and url.endswith("/edit/"))
    assert Deck.objects.get(pk=deck.pk).name == "Saved on the phone"
    copy = Deck.objects.exclude(pk=deck.pk).get()
    assert copy.name == "Edited on the laptop (copy)" and copy.owner == owner


def test_a_stale_builder_can_reload_the_saved_deck(page: Any, open_builder: Any) -> None:
    from decks.models import Deck

    owner, deck = open_builder
    _save_in_another_tab(owner, deck)
    page.fill("#deck-name", "Edited on the laptop")
    page.click("[data-testid=save-deck]")
    page.click("[data-testid=conflict-reload]")
    page.wait_for_function("document.getElementById('deck-name').value === 'Saved on the phone'")
    # Saving again after the reload is based on the current version and goes through.
    page.fill("#deck-name", "Edited after reloading")
    page.click("[data-testid=save-deck]")
    page.wait_for_function("document.getElementById('save-status').textContent.includes('3')")
    assert Deck.objects.get(pk=deck.pk).name == "Edited after reloading"
    assert Deck.objects.count() == 1
