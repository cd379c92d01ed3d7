"""The builder's import parses and resolves a list before its write transaction opens.

On the venue's SQLite every transaction takes the one write lock at its first statement, so a list
parsed inside it made every other writer of the venue wait for the parse.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.db import connection

import decks.services
from decks.models import Deck

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_parses_and_resolves_outside_the_transaction_and_writes_inside_one(
    sample_cards: Any, user: Any
) -> None:
    steps: list[tuple[str, bool]] = []

    def watch(name: str, real: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            steps.append((name, connection.in_atomic_block))
            return real(*args, **kwargs)

        return wrapper

    with (
        mock.patch.object(decks.services, "parse_deck", watch("parse", decks.services.parse_deck)),
        mock.patch.object(decks.services, "deck_resolve", watch("resolve", decks.services.deck_resolve)),
        mock.patch.object(decks.services, "deck_create", watch("write", decks.services.deck_create)),
    ):
        result = decks.services.deck_import(
            owner=user, game=sample_cards["yugioh"], data="3 Dark Magician\n", fmt="text"
        )
    assert result.deck is not None and Deck.objects.filter(pk=result.deck.pk).exists()
    assert steps == [("parse", False), ("resolve", False), ("write", True)]
