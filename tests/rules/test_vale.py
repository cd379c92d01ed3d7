"""The Vale of Eternity has no player decks: validation says so plainly."""

from __future__ import annotations

import pytest

from rules.engine import Deck, NoDecksError, default_registry, validate_deck


def test_validation_says_plainly_that_vale_has_no_decks():
    vale = default_registry().format("vale", "standard")
    with pytest.raises(NoDecksError, match="without player decks"):
        validate_deck(Deck(), vale)


def test_vale_is_a_pod_game_for_two_to_four_players():
    game = default_registry().game("vale")
    assert (game.has_decks, game.min_players, game.max_players) == (False, 2, 4)
    assert (game.match_format, game.pod_sizes, game.tiebreakers, game.opening_hand) == (
        "pods",
        (2, 4),
        "pods",
        None,
    )
    assert list(game.formats) == ["standard"]
    assert game.formats["standard"].sections == ()
