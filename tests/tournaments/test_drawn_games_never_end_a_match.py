"""Drawn games never end a match: the players go on until one has the wins needed or time is called.

The rules followed:
- MTR 2.1: "The first player to win two games wins the match. [...] If the match time limit is reached before a
  player has won two games, the winner of the match is the player who has won the most games at that point" —
  a drawn game counts for neither player, so at 1-1-1 a fourth game is played while time remains.
- g001 4.1 (the twin-deck game): «побеждает тот, кто первым выиграет две игры» — the first to win two games wins.
- Konami's tournament policy (A-8, match play): after 1-1-1 with time left a fourth duel is played.
The phone, the API, the organizer's whole-result form and sideboarding share one bound, so each offers exactly the
games the match can have; past ``EXTRA_DRAWS`` drawn games the players end it with "time is up"."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tournaments import services
from tournaments.models import Game

from .factories import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(games, organizer, user, other_user):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["caster"], rounds=3)
    alice = services.player_register(tournament=event, by=user)
    bob = services.player_register(tournament=event, by=other_user)
    match = services.round_pair_next(tournament=event, by=organizer).matches.get()
    return event, match, alice.pk, bob.pk


def _game(api, match, number, first, winner):  # type: ignore[no-untyped-def]
    return api.post(
        f"/api/matches/{match.pk}/games/", {"number": number, "first": first, "winner": winner}, format="json"
    )


def test_a_win_and_two_drawn_games_leave_the_match_going(table, api_client_for, user):
    _event, match, a, b = table
    api = api_client_for(user)
    _game(api, match, 1, a, a)
    _game(api, match, 2, b, None)
    third = _game(api, match, 3, a, None).json()
    assert third["status"] == "pending" and third["wins"] == [1, 0] and third["draws"] == 2
    fourth = _game(api, match, 4, b, a).json()
    assert fourth["status"] == "reported" and fourth["wins"] == [2, 0] and fourth["draws"] == 2


def test_one_one_one_plays_a_fourth_game(table, api_client_for, user):
    _event, match, a, b = table
    api = api_client_for(user)
    _game(api, match, 1, a, a)
    _game(api, match, 2, b, b)
    third = _game(api, match, 3, a, None).json()
    assert third["status"] == "pending" and third["wins"] == [1, 1] and third["draws"] == 1
    fourth = _game(api, match, 4, b, b)
    assert fourth.status_code == 200, fourth.content
    assert fourth.json()["status"] == "reported" and fourth.json()["wins"] == [1, 2]
    assert Game.objects.filter(match=match).count() == 4


def test_time_called_at_one_one_one_is_a_drawn_match(table, api_client_for, user):
    _event, match, a, b = table
    api = api_client_for(user)
    _game(api, match, 1, a, a)
    _game(api, match, 2, b, b)
    _game(api, match, 3, a, None)
    ended = api.post(f"/api/matches/{match.pk}/end/", {"how": "time"}, format="json")
    assert ended.status_code == 200, ended.content
    assert ended.json()["status"] == "reported" and ended.json()["wins"] == [1, 1]


def test_time_called_after_a_win_and_two_draws_gives_the_match_to_the_winner_of_more_games(
    table, api_client_for, user
):
    _event, match, a, b = table
    api = api_client_for(user)
    _game(api, match, 1, a, a)
    _game(api, match, 2, b, None)
    _game(api, match, 3, a, None)
    ended = api.post(f"/api/matches/{match.pk}/end/", {"how": "time"}, format="json").json()
    assert ended["status"] == "reported" and ended["wins"] == [1, 0] and ended["draws"] == 2


def test_past_the_drawn_game_allowance_the_players_end_it_with_time(table, api_client_for, user):
    _event, match, a, _b = table
    api = api_client_for(user)
    for number in range(1, 3 + services.EXTRA_DRAWS + 1):  # every game drawn
        assert _game(api, match, number, a, None).status_code == 200
    refused = _game(api, match, 3 + services.EXTRA_DRAWS + 1, a, a)
    assert refused.status_code == 400
    assert "If time is up, end the match with the games played" in str(refused.json())


def test_a_whole_result_past_the_allowance_is_refused(table, organizer):
    _event, match, a, b = table
    games = [{"winner": None, "first": a}] * (3 + services.EXTRA_DRAWS) + [{"winner": a, "first": b}]
    with pytest.raises(ValidationError, match="There is no game"):
        services.match_report_result(match=match, by=organizer, games=games)


def test_a_whole_result_with_a_fourth_game_after_one_one_one_is_taken(table, organizer):
    _event, match, a, b = table
    services.match_report_result(
        match=match, by=organizer,
        games=[{"winner": a, "first": a}, {"winner": b, "first": b}, {"winner": None, "first": a},
               {"winner": a, "first": b}],
    )  # fmt: skip
    assert [s.wins for s in match.seats.order_by("seat")] == [2, 1]


def test_the_phone_offers_the_fourth_game_and_the_time_button_after_one_one_one(
    table, client, user, organizer
):
    event, match, a, b = table
    client.force_login(user)
    url = reverse("tournaments:my_event", args=[event.pk])
    services.match_save_game(match=match, by=organizer, number=1, first=a, winner=a)
    services.match_save_game(match=match, by=organizer, number=2, first=b, winner=b)
    services.match_save_game(match=match, by=user, number=3, first=b, winner=None)
    page = client.get(url).content.decode()
    assert 'data-testid="game-form-4"' in page
    assert 'name="how" value="time"' in page
    assert 'data-testid="waiting-confirm"' not in page
    match.refresh_from_db()
    assert match.status == "pending"


def test_a_yugioh_match_at_one_one_one_plays_a_fourth_duel(games, organizer, user, other_user):
    event = make_event(organizer, games["yugioh"], rounds=3)
    alice = services.player_register(tournament=event, by=user)
    bob = services.player_register(tournament=event, by=other_user)
    match = services.round_pair_next(tournament=event, by=organizer).matches.get()
    a, b = alice.pk, bob.pk
    first = {seat.seat: seat.player_id for seat in match.seats.all()}
    services.match_save_game(match=match, by=organizer, number=1, first=first[0], winner=a, chooser=first[0])
    services.match_save_game(match=match, by=organizer, number=2, first=first[1], winner=b, chooser=first[1])
    services.match_save_game(
        match=match, by=organizer, number=3, first=first[0], winner=None, chooser=first[0]
    )
    services.match_save_game(match=match, by=organizer, number=4, first=first[1], winner=a, chooser=first[1])
    match.refresh_from_db()
    assert match.status != "pending"
    assert sorted(s.wins for s in match.seats.all()) == [1, 2]


def test_a_top_cut_match_goes_on_after_a_drawn_game(games, organizer):
    event = make_event(organizer, games["caster"], players=2, rounds=1, top_cut=2)
    services.round_pair_next(tournament=event, by=organizer)
    swiss = event.round_set.get().matches.get()
    services.match_report_result(match=swiss, by=organizer, wins=[2, 0])
    final = services.topcut_start(tournament=event, by=organizer).matches.get()
    a, b = (s.player_id for s in final.seats.order_by("seat"))
    services.match_save_game(match=final, by=organizer, number=1, first=a, winner=a)
    services.match_save_game(match=final, by=organizer, number=2, first=b, winner=b)
    services.match_save_game(match=final, by=organizer, number=3, first=a, winner=None)
    final.refresh_from_db()
    assert final.status == "pending"  # no winner yet: a fourth game decides it
    services.match_save_game(match=final, by=organizer, number=4, first=a, winner=b)
    final.refresh_from_db()
    assert final.status == "final" and [s.wins for s in final.seats.order_by("seat")] == [1, 2]
