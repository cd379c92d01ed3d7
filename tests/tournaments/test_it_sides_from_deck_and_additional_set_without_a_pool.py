"""Twin-deck limited with no pool registered: the list registered with its additional set is the pool (g001
1.5.2: the additional set is every card received but the decks), so swaps are judged against deck + additional
set; a card outside both is refused, naming it."""

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
    cards = twindeck_cards(games["twindeck"])
    event = make_event(organizer, games["twindeck"], format_slug="limited", deck_registration=True, rounds=2)
    deck = {
        "sections": {
            "creatures": _lines(cards["creatures"], 2),
            "main": _lines(cards["main"][:10], 3),
            "side": _lines(cards["main"][10:], 2),  # the additional set: 4 spells × 2
        }
    }
    for i in range(2):
        player = services.player_register(tournament=event, by=organizer, name=f"P{i}")
        services.player_submit_deck(player=player, by=organizer, payload=deck)
        assert player.pool is None
    match = services.round_pair_next(tournament=event, by=organizer).matches.get()
    return cards, match, match.seats.get(seat=0).player


def test_a_swap_with_the_additional_set_is_judged_against_deck_and_additional_set(limited, organizer):
    cards, match, player = limited
    out_card, in_card = cards["main"][0], cards["main"][11]
    change = services.match_sideboard(
        match=match, player=player, by=organizer, game_number=2,
        swaps=[{"section": "main", "out": out_card.external_id, "in": in_card.external_id, "count": 2}],
    )  # fmt: skip
    assert change.report["legal"] and snapshot_size(change.deck)["main"] == 30
    main = {line["external_id"]: line["count"] for line in change.deck["sections"]["main"]}
    assert main[in_card.external_id] == 2 and main[out_card.external_id] == 1


def test_a_card_outside_deck_and_additional_set_is_refused_by_name(limited, organizer):
    cards, match, player = limited
    with pytest.raises(ValidationError) as refused:
        services.match_sideboard(
            match=match, player=player, by=organizer, game_number=2,
            swaps=[{"section": "main", "in": cards["side"][0].external_id, "count": 1}],
        )  # fmt: skip
    assert "Extra 0" in " ".join(refused.value.messages)
    with pytest.raises(ValidationError) as beyond:
        services.match_sideboard(
            match=match, player=player, by=organizer, game_number=2,
            swaps=[{"section": "main", "in": cards["main"][11].external_id, "count": 3}],
        )  # fmt: skip
    assert "Spell 11" in " ".join(beyond.value.messages)
