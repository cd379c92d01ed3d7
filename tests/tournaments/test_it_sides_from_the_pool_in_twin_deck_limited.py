"""Twin-deck limited: the additional set is every card of the player's pool the decks do not use (g001 1.5.2), so
a swap between the decks and the additional set is judged against deck + additional set and always stays in the
pool; a card the pool does not hold still cannot come in."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournaments import services
from tournaments.printables.decklists import snapshot_size

from .factories import make_event, twindeck_cards

pytestmark = pytest.mark.django_db


def _lines(cards, copies):  # type: ignore[no-untyped-def]
    return [{"card": c.external_id, "count": copies} for c in cards]


@pytest.fixture
def limited(games, organizer):  # type: ignore[no-untyped-def]
    game = games["twindeck"]
    cards = twindeck_cards(game)
    event = make_event(organizer, game, format_slug="limited", deck_registration=True, rounds=2)
    pool = {"sections": {"main": _lines(cards["creatures"], 2) + _lines(cards["main"], 3)}}  # 16 + 42
    deck = {"sections": {"creatures": _lines(cards["creatures"], 2), "main": _lines(cards["main"][:10], 3)}}
    for i in range(2):
        player = services.player_register(tournament=event, by=organizer, name=f"P{i}")
        services.player_submit_deck(player=player, by=organizer, payload=deck, pool=pool)
    match = services.round_pair_next(tournament=event, by=organizer).matches.get()
    return event, cards, match, match.seats.get(seat=0).player


def test_a_swap_with_the_rest_of_the_pool_is_accepted(limited, organizer):
    _event, cards, match, player = limited
    out_card, in_card = cards["main"][0], cards["main"][12]  # in_card is in the pool, not in the deck
    change = services.match_sideboard(
        match=match, player=player, by=organizer, game_number=2,
        swaps=[{"section": "main", "out": out_card.external_id, "in": in_card.external_id, "count": 2}],
    )  # fmt: skip
    assert change.report["legal"]
    main = {line["external_id"]: line["count"] for line in change.deck["sections"]["main"]}
    assert main[out_card.external_id] == 1 and main[in_card.external_id] == 2
    assert snapshot_size(change.deck)["main"] == 30
    # The options screen offers what is left of the pool to bring in.
    options = services.sideboard_options(match=match, player=player, by=organizer)
    spare = {line["external_id"]: line["count"] for line in options["side"]}
    assert spare[in_card.external_id] == 1 and spare[out_card.external_id] == 2


def test_a_limited_deck_may_grow_from_the_additional_set(limited, organizer):
    _event, cards, match, player = limited
    change = services.match_sideboard(
        match=match, player=player, by=organizer, game_number=2,
        swaps=[{"section": "main", "in": cards["main"][13].external_id, "count": 3}],
    )  # fmt: skip
    assert snapshot_size(change.deck)["main"] == 33  # limited has no maximum (g001 1.3)


def test_a_card_beyond_the_pool_is_still_refused(limited, organizer):
    _event, cards, match, player = limited
    with pytest.raises(ValidationError) as refused:
        services.match_sideboard(
            match=match, player=player, by=organizer, game_number=2,
            swaps=[{"section": "main", "in": cards["main"][12].external_id, "count": 4}],
        )  # fmt: skip
    text = " ".join(refused.value.messages)
    assert "none was given" not in text and "Spell 12" in text
