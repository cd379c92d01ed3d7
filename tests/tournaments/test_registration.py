"""Registration: players join, organizers add guests, decks must be legal and are frozen as snapshots."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from tournaments import services
from tournaments.models import Player

from .factories import make_deck, make_event, ygo_cards, ygo_payload

pytestmark = pytest.mark.django_db


@pytest.fixture
def ygo(games):  # type: ignore[no-untyped-def]
    game = games["yugioh"]
    return game, ygo_cards(game)


def test_it_lets_a_player_join_and_an_organizer_add_a_guest(ygo, organizer, user):
    game, _cards = ygo
    event = make_event(organizer, game)
    me = services.player_register(tournament=event, by=user)
    guest = services.player_register(tournament=event, by=organizer, name="Guest Gary")
    assert me.user == user and me.name == "alice"
    assert guest.user is None and guest.name == "Guest Gary"
    with pytest.raises(ValidationError):
        services.player_register(tournament=event, by=user)  # twice


def test_it_refuses_a_player_adding_guests_or_others(ygo, organizer, user, other_user):
    game, _cards = ygo
    event = make_event(organizer, game)
    with pytest.raises(PermissionDenied):
        services.player_register(tournament=event, by=user, user=other_user)


def test_it_registers_a_legal_deck_as_a_snapshot_that_later_edits_never_change(ygo, organizer, user):
    game, cards = ygo
    event = make_event(organizer, game, deck_registration=True)
    deck = make_deck(user, game, ygo_payload(cards))
    player = services.player_register(tournament=event, by=user, deck=deck)
    services.registration_freeze(tournament=event, by=organizer)
    before = Player.objects.get(pk=player.pk).deck
    assert sum(line["count"] for line in before["sections"]["main"]) == 42
    # The owner edits the deck after the freeze: the registered list does not move.
    deck.entries.filter(section="main").delete()
    deck.name = "changed"
    deck.save()
    assert Player.objects.get(pk=player.pk).deck == before
    with pytest.raises(ValidationError, match="frozen"):
        services.player_submit_deck(player=player, by=user, deck=deck)


def test_it_freezes_decks_at_the_registration_deadline(ygo, organizer, user):
    game, cards = ygo
    event = make_event(organizer, game, deck_registration=True)
    player = services.player_register(tournament=event, by=user)
    event.registration_deadline = timezone.now() - timedelta(minutes=1)
    event.save()
    with pytest.raises(ValidationError):
        services.player_submit_deck(player=player, by=user, payload=ygo_payload(cards))


def test_it_refuses_an_illegal_deck_and_writes_nothing(ygo, organizer, user):
    game, cards = ygo
    event = make_event(organizer, game, deck_registration=True)
    player = services.player_register(tournament=event, by=user)
    with pytest.raises(ValidationError) as info:
        services.player_submit_deck(player=player, by=user, payload=ygo_payload(cards, main_copies=4))
    assert "not legal" in str(info.value)
    assert Player.objects.get(pk=player.pk).deck is None


def test_it_refuses_someone_elses_deck(ygo, organizer, user, other_user):
    game, cards = ygo
    event = make_event(organizer, game, deck_registration=True)
    deck = make_deck(other_user, game, ygo_payload(cards))
    player = services.player_register(tournament=event, by=user)
    with pytest.raises(PermissionDenied):
        services.player_submit_deck(player=player, by=user, deck=deck)


def test_it_needs_every_deck_before_round_one(ygo, organizer, user):
    game, cards = ygo
    event = make_event(organizer, game, deck_registration=True, rounds=3)
    services.player_register(tournament=event, by=user, deck=make_deck(user, game, ygo_payload(cards)))
    services.player_register(tournament=event, by=organizer, name="No Deck Nick")
    with pytest.raises(ValidationError, match="No Deck Nick"):
        services.round_pair_next(tournament=event, by=organizer)


def test_it_defaults_rounds_from_attendance_also_below_nine(games, organizer):
    small = make_event(organizer, games["caster"], players=8)
    services.round_pair_next(tournament=small, by=organizer)
    small.refresh_from_db()
    assert small.rounds == 3  # enough rounds for one undefeated player among 8
    event = make_event(organizer, games["caster"], players=20)
    services.round_pair_next(tournament=event, by=organizer)
    event.refresh_from_db()
    assert event.rounds == 5
    top8 = make_event(organizer, games["caster"], players=12, top_cut=8)
    services.round_pair_next(tournament=top8, by=organizer)
    top8.refresh_from_db()
    assert top8.rounds == 4


def test_deck_check_compares_a_presented_list(ygo, organizer, user):
    from tournaments.printables.decklists import compare_lists, snapshot_from_payload

    game, cards = ygo
    event = make_event(organizer, game, deck_registration=True)
    player = services.player_register(
        tournament=event, by=user, deck=make_deck(user, game, ygo_payload(cards))
    )
    presented = ygo_payload(cards)
    presented["sections"]["main"][0]["count"] = 2
    diffs = compare_lists(player.deck, snapshot_from_payload(game=game, payload=presented))
    assert diffs == [{"section": "main", "card": "Test Monster 0", "registered": 3, "presented": 2}]


def test_limited_registers_the_pool_and_a_deck_built_from_it(games, organizer, user, api_client_for):
    from .factories import twindeck_cards

    game = games["twindeck"]
    cards = twindeck_cards(game)
    event = make_event(organizer, game, format_slug="limited", deck_registration=True)
    pool = {
        "sections": {
            "creatures": [{"card": c.external_id, "count": 2} for c in cards["creatures"]],
            "main": [{"card": c.external_id, "count": 3} for c in cards["main"]],
        }
    }
    deck = {
        "sections": {
            "creatures": [{"card": c.external_id, "count": 2} for c in cards["creatures"][:6]],
            "main": [{"card": c.external_id, "count": 3} for c in cards["main"][:10]],
        }
    }
    response = api_client_for(user).post(
        f"/api/tournaments/{event.pk}/players/",
        {"deck": deck, "pool": pool, "code": event.join_code},
        format="json",
    )
    assert response.status_code == 201, response.content
    player = Player.objects.get(pk=response.json()["id"])
    assert player.pool is not None and player.deck is not None
    too_many = {
        "sections": {**deck["sections"], "main": [{"card": cards["main"][0].external_id, "count": 30}]}
    }
    with pytest.raises(ValidationError, match="not legal"):
        services.player_submit_deck(player=player, by=user, payload=too_many)
