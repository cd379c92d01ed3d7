"""The phone and the API agree on the number of games: a best of three ends after three games whatever their
results (1-1-1 is a drawn match, reported at once); a fourth game is refused with a clear reason. In the top cut a
drawn game does not use up a game, since a cut match must have a winner."""

from __future__ import annotations

import pytest
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


def test_it_refuses_a_fourth_game_after_one_one_one(table, api_client_for, user):
    _event, match, a, b = table
    api = api_client_for(user)
    _game(api, match, 1, a, a)
    _game(api, match, 2, b, b)
    third = _game(api, match, 3, a, None).json()
    assert third["status"] == "reported" and third["wins"] == [1, 1] and third["draws"] == 1
    fourth = _game(api, match, 4, b, a)
    assert fourth.status_code == 400
    assert "a best of 3 ends after 3 games" in str(fourth.json())
    assert Game.objects.filter(match=match).count() == 3


def test_a_whole_result_with_four_games_is_refused(table, organizer):
    from django.core.exceptions import ValidationError

    _event, match, a, b = table
    with pytest.raises(ValidationError, match="There is no game 4"):
        services.match_report_result(
            match=match, by=organizer,
            games=[{"winner": a, "first": a}, {"winner": None, "first": b}, {"winner": b, "first": a},
                   {"winner": a, "first": b}],
        )  # fmt: skip


def test_the_phone_offers_exactly_the_games_the_match_can_have(table, client, user, organizer):
    event, match, a, b = table
    client.force_login(user)
    url = reverse("tournaments:my_event", args=[event.pk])
    services.match_save_game(match=match, by=organizer, number=1, first=a, winner=a)
    services.match_save_game(match=match, by=organizer, number=2, first=b, winner=None)
    page = client.get(url).content.decode()
    assert 'data-testid="game-form-3"' in page  # game 3 is the last one
    services.match_save_game(match=match, by=user, number=3, first=b, winner=b)
    page = client.get(url).content.decode()
    assert 'data-testid="game-form-4"' not in page
    assert 'data-testid="waiting-confirm"' in page  # 1-1-1 is reported at once; the opponent confirms
    match.refresh_from_db()
    assert match.status == "reported"


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
