"""Sideboard swaps are hidden information: the player and the organizers see them, the opponent never does;
no swap once the match is over or of a card the player does not have; each game records its deck."""

from __future__ import annotations

import json

import pytest

from tournaments import services
from tournaments.models import GameDeck, SideboardChange

from .factories import make_event, ygo_cards, ygo_payload

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(games, organizer, user, other_user, api_client_for):  # type: ignore[no-untyped-def]
    cards = ygo_cards(games["yugioh"])
    event = make_event(organizer, games["yugioh"], deck_registration=True, rounds=1)
    alice = services.player_register(tournament=event, by=user)
    bob = services.player_register(tournament=event, by=other_user)
    for p, by in ((alice, user), (bob, other_user)):
        services.player_submit_deck(player=p, by=by, payload=ygo_payload(cards))
    match = services.round_pair_next(tournament=event, by=organizer).matches.get()
    services.match_save_game(match=match, by=user, number=1, first=alice.pk, winner=bob.pk)
    return {"match": match, "alice": alice, "bob": bob, "cards": cards, "me": api_client_for(user),
            "opponent": api_client_for(other_user), "organizer": api_client_for(organizer)}  # fmt: skip


def _swap(d, out=None, into=None):  # type: ignore[no-untyped-def]
    out = out or d["cards"]["main"][0].external_id
    into = into or d["cards"]["side"][0].external_id
    return d["me"].post(
        f"/api/matches/{d['match'].pk}/sideboard/",
        {
            "player": d["alice"].pk,
            "game_number": 2,
            "swaps": [{"section": "main", "out": out, "in": into, "count": 1}],
        },
        format="json",
    )


def test_the_player_sees_cards_to_click_and_the_opponent_sees_nothing(duel):
    url = f"/api/matches/{duel['match'].pk}/sideboard/?player={duel['alice'].pk}"
    options = duel["me"].get(url).json()
    assert options["allowed"] is True and options["next_game"] == 2
    assert {line["section"] for line in options["deck"]} == {"main", "extra"}
    assert {line["external_id"] for line in options["side"]} == {
        c.external_id for c in duel["cards"]["side"][:3]
    }
    assert _swap(duel).status_code == 201
    assert duel["organizer"].get(url).json()["swaps"][0]["game_number"] == 2
    assert duel["opponent"].get(url).status_code == 403
    side_card = duel["cards"]["side"][0]
    for body in (
        duel["opponent"].get(f"/api/matches/{duel['match'].pk}/").json(),
        duel["opponent"].get(f"/api/tournaments/{duel['match'].round.tournament_id}/rounds/").json(),
    ):
        assert side_card.external_id not in json.dumps(body) and "swaps" not in json.dumps(body)  # fmt: skip


def test_each_game_records_the_deck_it_was_played_with(duel, user):
    assert _swap(duel).status_code == 201
    change = SideboardChange.objects.get()
    services.match_save_game(
        match=duel["match"], by=user, number=2, first=duel["alice"].pk, winner=duel["alice"].pk
    )
    decks = {(d.game.number, d.player_id): d.change_id for d in GameDeck.objects.select_related("game")}
    assert decks[(1, duel["alice"].pk)] is None and decks[(2, duel["alice"].pk)] == change.pk
    assert decks[(2, duel["bob"].pk)] is None


def test_a_card_the_player_does_not_have_is_refused(duel):
    response = _swap(duel, into="999999")
    assert response.status_code == 400 and not SideboardChange.objects.exists()


def test_no_swap_once_the_match_is_confirmed(duel, user, other_user):
    services.match_save_game(
        match=duel["match"], by=user, number=2, first=duel["alice"].pk, winner=duel["bob"].pk
    )
    match = duel["match"]
    match.refresh_from_db()
    services.match_confirm_result(match=match, by=other_user, version=match.version)
    response = _swap(duel)
    assert (
        response.status_code == 409 and not SideboardChange.objects.exists()
    )  # the match's state refuses it
    options = duel["me"].get(f"/api/matches/{match.pk}/sideboard/?player={duel['alice'].pk}").json()
    assert options["allowed"] is False and options["refusal"]
