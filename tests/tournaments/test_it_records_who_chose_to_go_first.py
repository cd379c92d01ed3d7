"""Who chose to go first or second is recorded with each game: from the API, the phone's game form and the
organizer's result form; the rule fills in the chooser it determines, a toss winner is whoever reports it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Game

from .factories import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(games, organizer, user, other_user):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["yugioh"], rounds=3)
    alice = services.player_register(tournament=event, by=user)
    bob = services.player_register(tournament=event, by=other_user)
    match = services.round_pair_next(tournament=event, by=organizer).matches.get()
    return event, match, alice, bob


def _chooser(match, number):  # type: ignore[no-untyped-def]
    game = Game.objects.get(match=match, number=number)
    return None if game.chooser_seat is None else match.seats.get(seat=game.chooser_seat).player_id


def test_it_records_the_toss_winner_who_chose_from_the_phone(table, client, user):
    event, match, alice, bob = table
    client.force_login(user)
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert 'data-testid="chooser-1"' in page and "Who chose who goes first?" in page
    client.post(
        reverse("tournaments:match_game", args=[match.pk]),
        {"number": 1, "first": bob.pk, "winner": alice.pk, "chooser": alice.pk},
    )
    assert _chooser(match, 1) == alice.pk  # alice won the toss and chose to go second
    phone = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert f"({alice.name} chose)" in phone


def test_it_fills_in_the_loser_who_chooses_and_shows_it_in_the_audit(table, organizer):
    _event, match, alice, bob = table
    services.match_save_game(match=match, by=organizer, number=1, first=alice.pk, winner=alice.pk)
    assert _chooser(match, 1) is None  # a toss nobody reported
    services.match_save_game(match=match, by=organizer, number=2, first=alice.pk, winner=alice.pk)
    assert _chooser(match, 2) == bob.pk  # the loser of game 1 chose (to go second)
    last = match.result_changes.order_by("-id").first()
    assert last.new["games"][1] == {"winner": alice.pk, "first": alice.pk, "chooser": bob.pk}


def test_the_organizer_form_records_the_chooser_per_game(table, client, organizer):
    _event, match, alice, bob = table
    client.force_login(organizer)
    page = client.get(reverse("tournaments:match", args=[match.pk])).content.decode()
    assert 'name="game1_chooser"' in page
    client.post(
        reverse("tournaments:correct", args=[match.pk]),
        {"mode": "games", "game1_first": bob.pk, "game1_winner": bob.pk, "game1_chooser": alice.pk,
         "game2_first": alice.pk, "game2_winner": bob.pk, "reason": "slip"},
    )  # fmt: skip
    assert (_chooser(match, 1), _chooser(match, 2)) == (alice.pk, alice.pk)


def test_it_refuses_a_chooser_who_is_not_the_loser_of_the_previous_game(table, api_client_for, user):
    _event, match, alice, bob = table
    api = api_client_for(user)
    api.post(
        f"/api/matches/{match.pk}/games/", {"number": 1, "first": alice.pk, "winner": alice.pk}, format="json"
    )
    wrong = api.post(
        f"/api/matches/{match.pk}/games/",
        {"number": 2, "first": alice.pk, "winner": bob.pk, "chooser": alice.pk}, format="json",
    )  # fmt: skip
    assert wrong.status_code == 400 and "loser of the previous game chooses" in str(wrong.json())
    assert not Game.objects.filter(match=match, number=2).exists()


def test_correcting_a_game_moves_the_choice_of_the_next_one(table, organizer):
    _event, match, alice, bob = table
    services.match_save_game(match=match, by=organizer, number=1, first=alice.pk, winner=alice.pk)
    services.match_save_game(match=match, by=organizer, number=2, first=alice.pk, winner=bob.pk)
    assert _chooser(match, 2) == bob.pk
    # Game 1 was won by bob after all: alice lost it, so she chose in game 2.
    services.match_save_game(match=match, by=organizer, number=1, first=alice.pk, winner=bob.pk)
    assert _chooser(match, 2) == alice.pk
