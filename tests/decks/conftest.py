"""Fixtures for the deck tests: the sample card databases loaded through the cards app's own demo."""

from __future__ import annotations

import io
from typing import Any

import pytest


@pytest.fixture
def sample_cards(games: dict[str, Any]) -> dict[str, Any]:
    from cards import demo

    demo.load(io.StringIO())
    return games


@pytest.fixture
def card() -> Any:
    """card("yugioh", "Dark Magician") → the Card (by external id or exact name)."""
    from cards.models import Card

    def get(game: str, ref: str) -> Any:
        found = Card.objects.filter(game__slug=game, external_id=ref).first()
        return found or Card.objects.filter(game__slug=game, name=ref).order_by("external_id").first()

    return get


@pytest.fixture
def ygo_deck(sample_cards: dict[str, Any], user: Any, card: Any) -> Any:
    from decks.services import deck_create

    return deck_create(
        owner=user,
        game=sample_cards["yugioh"],
        name="Magicians",
        format_slug="advanced",
        sections={
            "main": [(card("yugioh", "46986414"), 3), (card("yugioh", "Pot of Greed"), 1)],
            "extra": [(card("yugioh", "Stardust Dragon"), 2)],
            "side": [(card("yugioh", "Mirror Force"), 2)],
        },
    )
