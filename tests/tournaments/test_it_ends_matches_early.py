"""Players finish a match before it is decided: on time, by a concession, or with an intentional draw."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournaments import services

from .factories import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(games, organizer, user, other_user):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["caster"], rounds=1, top_cut=2)
    alice = services.player_register(tournament=event, by=user)
    bob = services.player_register(tournament=event, by=other_user)
    match = services.round_pair_next(tournament=event, by=organizer).matches.get()
    return event, match, alice, bob


def test_time_makes_the_games_played_the_result(duel, user):
    _event, match, alice, bob = duel
    services.match_save_game(match=match, by=user, number=1, first=alice.pk, winner=bob.pk)
    match = services.match_finish_early(match=match, by=user, how="time")
    wins = {s.player_id: s.wins for s in match.seats.all()}
    assert match.status == "reported" and match.ended_by == "time" and wins == {alice.pk: 0, bob.pk: 1}


def test_time_needs_the_games_saved_first(duel, user):
    _event, match, *_ = duel
    with pytest.raises(ValidationError, match="Save the games"):
        services.match_finish_early(match=match, by=user, how="time")


def test_a_concession_gives_the_opponent_the_match(duel, user):
    _event, match, alice, bob = duel
    match = services.match_finish_early(match=match, by=user, how="concession", conceded_by=alice.pk)
    wins = {s.player_id: s.wins for s in match.seats.all()}
    assert wins == {alice.pk: 0, bob.pk: 2} and match.ended_by == "concession"


def test_an_intentional_draw_is_zero_zero_three_but_never_in_the_cut(duel, organizer, user, other_user):
    event, match, *_ = duel
    match = services.match_finish_early(match=match, by=user, how="intentional_draw")
    assert match.draws == 3 and all(s.wins == 0 for s in match.seats.all())
    services.match_confirm_result(match=match, by=other_user, version=match.version)
    final = services.topcut_start(tournament=event, by=organizer).matches.get()
    with pytest.raises(ValidationError, match="no intentional draws in the top cut"):
        services.match_finish_early(match=final, by=user, how="intentional_draw")
    assert final.ended_by == "" and final.status == "pending"
