"""Sideboarding between games: validated by the rules engine, recorded per game, restored each match."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournaments import services
from tournaments.models import SideboardChange
from tournaments.printables.decklists import snapshot_size

from .factories import make_event, twindeck_cards, twindeck_payload, ygo_cards, ygo_payload

pytestmark = pytest.mark.django_db


def _event_with_decks(organizer, game, cards_fn, payload_fn, **kw):  # type: ignore[no-untyped-def]
    cards = cards_fn(game)
    event = make_event(organizer, game, deck_registration=True, rounds=3, **kw)
    for i in range(4):
        player = services.player_register(tournament=event, by=organizer, name=f"P{i}")
        services.player_submit_deck(player=player, by=organizer, payload=payload_fn(cards))
    round_ = services.round_pair_next(tournament=event, by=organizer)
    match = round_.matches.order_by("table").first()
    player = match.seats.order_by("seat").first().player
    return event, cards, match, player


def test_yugioh_swaps_one_for_one_and_records_the_game(games, organizer):
    _event, cards, match, player = _event_with_decks(organizer, games["yugioh"], ygo_cards, ygo_payload)
    out_card, in_card = cards["main"][0], cards["side"][0]
    change = services.match_sideboard(
        match=match, player=player, by=organizer, game_number=2,
        swaps=[{"section": "main", "out": out_card.external_id, "in": in_card.external_id, "count": 1}],
    )  # fmt: skip
    sizes = snapshot_size(change.deck)
    assert sizes["main"] == 42 and sizes["side"] == 6
    assert change.game_number == 2 and change.report["legal"]
    main = {line["external_id"]: line["count"] for line in change.deck["sections"]["main"]}
    assert main[out_card.external_id] == 2 and main[in_card.external_id] == 1


def test_yugioh_refuses_a_swap_that_changes_the_side_deck_size(games, organizer):
    _event, cards, match, player = _event_with_decks(organizer, games["yugioh"], ygo_cards, ygo_payload)
    with pytest.raises(ValidationError, match="not allowed"):
        services.match_sideboard(
            match=match, player=player, by=organizer, game_number=2,
            swaps=[{"section": "main", "in": cards["side"][0].external_id, "count": 1}],
        )  # fmt: skip
    assert not SideboardChange.objects.exists()


def test_no_siding_before_game_one(games, organizer):
    _event, cards, match, player = _event_with_decks(organizer, games["yugioh"], ygo_cards, ygo_payload)
    with pytest.raises(ValidationError, match="game 1"):
        services.match_sideboard(
            match=match, player=player, by=organizer, game_number=1,
            swaps=[{"section": "main", "out": cards["main"][0].external_id, "in": cards["side"][0].external_id}],
        )  # fmt: skip


def test_twin_deck_keeps_the_basic_sizes(games, organizer):
    _event, cards, match, player = _event_with_decks(
        organizer, games["twindeck"], twindeck_cards, twindeck_payload
    )
    ok = services.match_sideboard(
        match=match, player=player, by=organizer, game_number=2,
        swaps=[{"section": "main", "out": cards["main"][0].external_id, "in": cards["side"][0].external_id,
                "count": 2}],
    )  # fmt: skip
    assert snapshot_size(ok.deck) == {"creatures": 16, "main": 40, "side": 16}
    with pytest.raises(ValidationError):
        services.match_sideboard(
            match=match, player=player, by=organizer, game_number=3,
            swaps=[{"section": "main", "out": cards["main"][1].external_id, "count": 1}],
        )  # fmt: skip


def test_the_deck_is_restored_to_the_registered_list_at_the_next_match(games, organizer):
    event, cards, match, player = _event_with_decks(organizer, games["yugioh"], ygo_cards, ygo_payload)
    services.match_sideboard(
        match=match, player=player, by=organizer, game_number=2,
        swaps=[{"section": "main", "out": cards["main"][0].external_id, "in": cards["side"][0].external_id}],
    )  # fmt: skip
    assert services.current_deck(match, player) != player.deck
    for m in event.round_set.get(number=1).matches.filter(bye=False):
        services.match_report_result(match=m, by=organizer, wins=[2, 1])
    round2 = services.round_pair_next(tournament=event, by=organizer)
    next_match = round2.matches.get(seats__player=player)
    player.refresh_from_db()
    assert services.current_deck(next_match, player) == player.deck


def test_a_player_sides_only_their_own_deck(games, organizer, user):
    _event, cards, match, player = _event_with_decks(organizer, games["yugioh"], ygo_cards, ygo_payload)
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        services.match_sideboard(
            match=match, player=player, by=user, game_number=2,
            swaps=[{"section": "main", "out": cards["main"][0].external_id, "in": cards["side"][0].external_id}],
        )  # fmt: skip


def test_games_without_a_sideboard_refuse_unless_the_house_rule_allows(games, organizer):
    from tournaments.services import sideboarding_allowed

    plain = make_event(organizer, games["caster"], deck_registration=True)
    house = make_event(organizer, games["caster"], deck_registration=True, allow_sideboard=True)
    assert not sideboarding_allowed(plain)
    assert sideboarding_allowed(house)
