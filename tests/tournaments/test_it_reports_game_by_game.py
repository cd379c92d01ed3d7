"""Each game is saved on its own and never lost; a match is reported only once decided; a confirm names the
version it confirms (409 with the current result when it changed)."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import Match

from .factories import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(games, organizer, user, other_user, api_client_for):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["yugioh"], rounds=3)
    alice = services.player_register(tournament=event, by=user)
    bob = services.player_register(tournament=event, by=other_user)
    match = services.round_pair_next(tournament=event, by=organizer).matches.get()
    return {"match": match, "a": alice.pk, "b": bob.pk, "alice": api_client_for(user), "bob": api_client_for(other_user),
            "event": event}  # fmt: skip


def _game(client, match, number, first, winner):  # type: ignore[no-untyped-def]
    return client.post(
        f"/api/matches/{match.pk}/games/", {"number": number, "first": first, "winner": winner}, format="json"
    )


def test_games_accumulate_and_the_match_is_reported_only_when_decided(table):
    m, a, b = table["match"], table["a"], table["b"]
    one = _game(table["alice"], m, 1, a, a).json()
    assert one["status"] == "pending" and one["wins"] == [1, 0] if one["players"][0] == a else [0, 1]
    assert one["games"] == [{"number": 1, "first": a, "winner": a, "chooser": None}]
    # Yu-Gi-Oh!: the loser of game 1 chooses who goes first in game 2.
    assert one["next_first"] == {"toss": False, "player": b, "action": "chooses"}
    two = _game(table["alice"], m, 2, b, None).json()  # a drawn game
    assert [g["winner"] for g in two["games"]] == [a, None] and two["status"] == "pending"
    assert two["next_first"]["toss"] is True  # after a drawn game: toss again
    three = _game(table["alice"], m, 3, a, a).json()
    assert three["status"] == "reported" and len(three["games"]) == 3
    assert three["version"] > two["version"] > one["version"]


def test_a_game_can_be_corrected_until_the_result_is_confirmed(table):
    m, a, b = table["match"], table["a"], table["b"]
    _game(table["alice"], m, 1, a, a)
    _game(table["alice"], m, 2, b, a)
    corrected = _game(table["alice"], m, 2, b, b).json()  # game 2 was won by bob after all
    assert corrected["status"] == "pending" and [g["winner"] for g in corrected["games"]] == [a, b]
    reported = _game(table["alice"], m, 3, a, a).json()
    confirmed = table["bob"].post(
        f"/api/matches/{m.pk}/confirm/", {"version": reported["version"]}, format="json"
    )
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    again = _game(table["alice"], m, 3, a, b)
    assert again.status_code == 409 and Match.objects.get(pk=m.pk).status == "confirmed"


def test_a_stale_confirm_is_refused_with_the_current_result(table):
    m, a, b = table["match"], table["a"], table["b"]
    _game(table["alice"], m, 1, a, a)
    _game(table["alice"], m, 2, b, b)
    seen = _game(table["alice"], m, 3, a, a).json()  # 2-1, what bob reads
    changed = table["alice"].post(f"/api/matches/{m.pk}/result/", {"wins": [2, 0]}, format="json").json()
    response = table["bob"].post(f"/api/matches/{m.pk}/confirm/", {"version": seen["version"]}, format="json")
    assert response.status_code == 409
    assert response.json()["current"]["version"] == changed["version"]
    assert response.json()["current"]["wins"] == changed["wins"]
    assert Match.objects.get(pk=m.pk).status == "reported"
    ok = table["bob"].post(f"/api/matches/{m.pk}/confirm/", {"version": changed["version"]}, format="json")
    assert ok.status_code == 200 and ok.json()["status"] == "confirmed"


@pytest.mark.parametrize(
    "bad",
    [
        "number 0",
        "number 6",
        "a gap",
        "after decided",
        "stranger",
        "winner not in match",
        "number not a number",
    ],
)
def test_bad_games_are_refused_and_change_nothing(bad, table, make_user, api_client_for):
    m, a, b = table["match"], table["a"], table["b"]
    _game(table["alice"], m, 1, a, a)
    _game(table["alice"], m, 2, b, a)  # alice won 2-0: decided
    client, body = table["alice"], {"number": 3, "first": b, "winner": b}
    if bad == "number 0":
        body["number"] = 0
    elif bad == "number 6":
        body["number"] = 6
    elif bad == "a gap":
        _game(table["alice"], m, 2, b, b)  # 1-1 again
        body["number"] = 4
    elif bad == "stranger":
        client = api_client_for(make_user("mallory"))
        body["number"] = 2
    elif bad == "winner not in match":
        body.update(number=2, winner=999999)
    elif bad == "number not a number":
        body["number"] = "two"
    before = Match.objects.get(pk=m.pk)
    games_before = list(before.games.values_list("number", "winner_seat", "first_seat"))
    response = client.post(f"/api/matches/{m.pk}/games/", body, format="json")
    # 422: a well-formed id that names no player of this match (README "Errors").
    expected = {"stranger": 403, "winner not in match": 422}.get(bad, 400)
    assert response.status_code == expected, response.content
    after = Match.objects.get(pk=m.pk)
    assert (after.version, after.status) == (before.version, before.status)
    assert list(after.games.values_list("number", "winner_seat", "first_seat")) == games_before


def test_the_whole_result_endpoint_still_works(table):
    m = table["match"]
    response = table["alice"].post(
        f"/api/matches/{m.pk}/result/", {"wins": [2, 1], "draws": 0}, format="json"
    )
    assert response.status_code == 200 and response.json()["status"] == "reported"
    assert (
        table["bob"].post(f"/api/matches/{m.pk}/confirm/", {}, format="json").json()["status"] == "confirmed"
    )


def test_options_on_result_and_correct_never_fail(table):
    m = table["match"]
    for path in ("result", "correct", "games", "confirm"):
        assert table["alice"].options(f"/api/matches/{m.pk}/{path}/").status_code == 200
