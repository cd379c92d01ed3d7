"""The collection tests use the deck tests' sample cards (loaded through the cards app's own demo)."""

from tests.decks.conftest import card, sample_cards  # noqa: F401
