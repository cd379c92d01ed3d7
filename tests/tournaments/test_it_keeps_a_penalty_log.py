"""Judge tools: the penalty log (API and results), per-table extensions, judge calls, the paused clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from tournaments import services
from tournaments.models import Match, MatchSeat, Penalty
from tournaments.reads import selectors

from .factories import make_event

pytestmark = pytest.mark.django_db


def _start(games, organizer, user=None):
    event = make_event(organizer, games["yugioh"], players=3, rounds=3)
    if user is not None:
        services.player_register(tournament=event, by=user)
    round_ = services.round_pair_next(tournament=event, by=organizer)
    return event, round_


def _open_seat(round_, user=None):
    seats = MatchSeat.objects.filter(match__round=round_, match__bye=False).select_related("player", "match")
    if user is not None:
        seats = seats.filter(match__seats__player__user=user)
    return seats.order_by("match__table", "seat").first()


def test_penalties_are_posted_and_listed_through_the_api(games, organizer, user, api_client_for):
    event, round_ = _start(games, organizer)
    seat = _open_seat(round_)
    api = api_client_for(organizer)
    url = f"/api/tournaments/{event.pk}/penalties/"
    body = {
        "player": seat.player_id,
        "round": 1,
        "infraction": "Slow play",
        "penalty": "warning",
        "note": "T1",
    }
    response = api.post(url, body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["penalty"] == "warning" and response.json()["match"] is None
    listed = api.get(url).json()["penalties"]
    assert [(p["player"], p["infraction"], p["round"], p["judge"]) for p in listed] == [
        (seat.player_id, "Slow play", 1, "olga")
    ]
    # Players see nothing of it, and hostile input gets a 4xx naming what is wrong.
    assert api_client_for(user).get(url).status_code == 403
    assert api_client_for(user).post(url, body, format="json").status_code == 403
    assert api.post(url, {**body, "penalty": "banishment"}, format="json").status_code == 400
    assert api.post(url, {**body, "round": 9}, format="json").json()["round"]
    other = make_event(organizer, games["yugioh"], players=2, name="Other")
    stranger = other.players.first().pk
    assert "player" in api.post(url, {**body, "player": stranger}, format="json").json()
    assert (
        api.post("/api/tournaments/99999999999999999999/penalties/", body, format="json").status_code == 404
    )
    assert api.post(url, {**body, "infraction": " "}, format="json").status_code == 400
    assert Penalty.objects.count() == 1


def test_a_game_loss_is_a_game_won_by_the_opponent_and_a_second_one_ends_the_match(games, organizer):
    event, round_ = _start(games, organizer)
    seat = _open_seat(round_)
    match = Match.objects.get(pk=seat.match_id)
    opponent = match.seats.exclude(player=seat.player).get().player_id
    services.match_save_game(match=match, by=organizer, number=1, first=opponent, winner=seat.player_id)
    for _ in range(2):
        services.penalty_add(tournament=event, by=organizer, player=seat.player, round_number=1,
                             infraction="Deck problem", penalty="game_loss")  # fmt: skip
    match = Match.objects.get(pk=seat.match_id)
    wins = {s.player_id: s.wins for s in match.seats.all()}
    assert wins[seat.player_id] == 1 and max(wins.values()) == 2
    assert match.status == "final" and match.ended_by == "penalty"
    assert [c.action for c in match.result_changes.all()] == ["game", "penalty", "penalty"]
    assert services.penalty_counts(event) == {seat.player_id: {"game_loss": 2}}
    # The match is settled now: a third game loss is logged but changes nothing.
    third = services.penalty_add(tournament=event, by=organizer, player=seat.player, round_number=1,
                                 infraction="Deck problem", penalty="game_loss")  # fmt: skip
    assert third.match is None


def test_a_match_loss_sets_the_result_and_a_disqualification_drops_the_player(games, organizer):
    event, round_ = _start(
        games,
        organizer,
    )
    seat = _open_seat(round_)
    row = services.penalty_add(tournament=event, by=organizer, player=seat.player, round_number=1,
                               infraction="Unsporting conduct", penalty="disqualification", note="fight")  # fmt: skip
    assert row.match_id == seat.match_id
    match = Match.objects.get(pk=seat.match_id)
    assert {s.player_id: s.wins for s in match.seats.all()}[seat.player_id] == 0 and match.status == "final"
    seat.player.refresh_from_db()
    assert seat.player.dropped_at_round == 1


def test_a_table_extension_shows_in_the_match_json_and_moves_its_time_up(
    games, organizer, user, api_client_for
):
    _, round_ = _start(games, organizer, user)
    seat = _open_seat(round_, user)
    api = api_client_for(organizer)
    response = api.post(f"/api/matches/{seat.match_id}/extend/", {"minutes": 5}, format="json")
    assert response.status_code == 200 and response.json()["extra_minutes"] == 5
    assert api_client_for(user).post(f"/api/matches/{seat.match_id}/extend/", {"minutes": 5},
                                     format="json").status_code == 403  # fmt: skip
    assert api.post(f"/api/matches/{seat.match_id}/extend/", {"minutes": 0}, format="json").status_code == 400
    assert (
        api.post(f"/api/matches/{seat.match_id}/extend/", {"minutes": "x"}, format="json").status_code == 400
    )
    services.round_timer_start(round_=round_, by=organizer, minutes=1)
    in_90s = timezone.now() + timedelta(seconds=90)
    others = set(round_.matches.filter(bye=False).exclude(pk=seat.match_id).values_list("id", flat=True))
    assert selectors.overtime_matches(round_, in_90s) == others
    assert seat.match_id in selectors.overtime_matches(round_, timezone.now() + timedelta(minutes=7))


def test_a_player_calls_a_judge_and_an_organizer_answers(games, organizer, user, other_user, api_client_for):
    _, round_ = _start(games, organizer, user)
    seat = _open_seat(round_, user)
    assert api_client_for(other_user).post(f"/api/matches/{seat.match_id}/judge/").status_code == 403
    response = api_client_for(user).post(f"/api/matches/{seat.match_id}/judge/")
    assert response.status_code == 200 and response.json()["judge_called"] is True
    api_client_for(user).post(f"/api/matches/{seat.match_id}/judge/")  # a second tap: the same call
    call = Match.objects.get(pk=seat.match_id).judge_calls.get()
    services.judge_call_answer(call=call, by=organizer)
    assert api_client_for(user).get(f"/api/matches/{seat.match_id}/").json()["judge_called"] is False


def test_the_round_clock_pauses_resumes_and_takes_more_time(games, organizer, user):
    _, round_ = _start(games, organizer)
    with pytest.raises(ValidationError, match="not running"):
        services.round_timer_pause(round_=round_, by=organizer)
    services.round_timer_start(round_=round_, by=organizer, minutes=10)
    services.round_timer_pause(round_=round_, by=organizer)
    round_.refresh_from_db()
    assert round_.timer_ends_at is None and 590 <= round_.timer_paused_left <= 600
    services.round_timer_add(round_=round_, by=organizer, minutes=5)
    services.round_timer_resume(round_=round_, by=organizer)
    round_.refresh_from_db()
    left = (round_.timer_ends_at - timezone.now()).total_seconds()
    assert 880 <= left <= 900 and round_.timer_paused_left is None
    with pytest.raises(ValidationError, match="not paused"):
        services.round_timer_resume(round_=round_, by=organizer)
    with pytest.raises(ValidationError, match="from 1 to 60"):
        services.round_timer_add(round_=round_, by=organizer, minutes=0)


def test_mending_the_clock_and_judge_answers_through_the_api(games, organizer, user, api_client_for):
    event, round_ = _start(games, organizer, user)
    seats = list(
        MatchSeat.objects.filter(match__round=round_, match__bye=False).order_by("match__table", "seat")
    )
    api, player = api_client_for(organizer), api_client_for(user)
    url = f"/api/tournaments/{event.pk}/rounds/1/mend/"
    swap = {"kind": "swap", "player": seats[0].player_id, "other": seats[2].player_id}
    assert player.post(url, swap, format="json").status_code == 403
    response = api.post(url, swap, format="json")
    assert response.status_code == 200, response.content
    tables = {m["table"]: m["players"] for m in response.json()["matches"]}
    assert seats[2].player_id in tables[1] and seats[0].player_id in tables[2]
    assert api.post(url, {**swap, "other": seats[0].player_id}, format="json").status_code == 400
    assert "other" in api.post(url, {"kind": "pair", "player": seats[0].player_id}, format="json").json()
    assert api.post(url, {"kind": "teleport", "player": seats[0].player_id}, format="json").status_code == 400
    assert api.post(f"/api/tournaments/{event.pk}/rounds/9/mend/", swap, format="json").status_code == 404
    assert api.post(f"/api/tournaments/{event.pk}/rounds/x/mend/", swap, format="json").status_code == 404
    clock = f"/api/tournaments/{event.pk}/rounds/1/clock/"
    assert api.post(clock, {"action": "pause"}, format="json").status_code == 409  # not running yet
    services.round_timer_start(round_=round_, by=organizer, minutes=20)
    paused = api.post(clock, {"action": "pause"}, format="json").json()
    assert paused["timer_ends_at"] is None and paused["timer_paused_left"] > 1100
    assert api.post(clock, {"action": "add", "minutes": 61}, format="json").status_code == 400
    assert api.post(clock, {"action": "resume"}, format="json").json()["timer_paused_left"] is None
    mine = MatchSeat.objects.filter(match__round=round_, player__user=user).first().match_id
    player.post(f"/api/matches/{mine}/judge/")
    assert player.post(f"/api/matches/{mine}/judge/answer/").status_code == 403
    assert api.post(f"/api/matches/{mine}/judge/answer/").json()["judge_called"] is False


def test_after_a_game_loss_the_players_still_save_their_next_games(games, organizer, user):
    event, round_ = _start(games, organizer, user)
    seat = _open_seat(round_, user)
    match = Match.objects.get(pk=seat.match_id)
    opponent = match.seats.exclude(player=seat.player).get().player_id
    services.penalty_add(tournament=event, by=organizer, player=seat.player, round_number=1,
                         infraction="Tardiness", penalty="game_loss")  # fmt: skip
    decision = services.next_first_player(match)
    first = decision.player if decision.player is not None else seat.player_id
    services.match_save_game(match=match, by=user, number=2, first=first, winner=seat.player_id)
    services.match_save_game(match=match, by=user, number=3, first=opponent, winner=opponent)
    match.refresh_from_db()
    assert match.status == "reported" and [g.winner_seat is not None for g in match.games.all()] == [True] * 3
