"""A tournament's registered list compares with a deck (`player:<id>` in /api/decks/compare/ and the
compare page) exactly where the event shows that list: the player and the organizer always, others once a
finished event publishes its lists; the maybeboard of the source deck is never part of the registered list."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Tournament

from .factories import make_deck, make_event, ygo_cards, ygo_payload

pytestmark = pytest.mark.django_db


def test_it_compares_a_registered_list_where_the_event_shows_it(
    games, organizer, user, other_user, api_client_for
):
    game = games["yugioh"]
    cards = ygo_cards(game)
    event = make_event(organizer, game, deck_registration=True, rounds=1, publish_decklists=True)
    deck = make_deck(user, game, ygo_payload(cards))
    player = services.player_register(tournament=event, by=user, deck=deck)
    url = reverse("api-deck-compare")

    mine = api_client_for(user).get(url, {"a": f"player:{player.pk}", "b": deck.pk})
    assert mine.status_code == 200, mine.json()
    body = mine.json()
    assert body["a"]["ref"] == f"player:{player.pk}" and body["b"]["ref"] == str(deck.pk)
    # The registered list is the deck: every card in both, nothing only on one side.
    assert all(not part["only_a"] and not part["only_b"] for part in body["sections"].values())
    assert sum(line["count"] for line in body["sections"]["main"]["both"]) == sum(
        line["count"] for line in ygo_payload(cards)["sections"]["main"]
    )

    other = api_client_for(other_user)
    both_lists = {"a": f"player:{player.pk}", "b": f"player:{player.pk}"}
    assert other.get(url, both_lists).status_code == 404  # not published yet
    assert api_client_for(organizer).get(url, both_lists).status_code == 200  # the organizer sees every list
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.FINISHED)
    assert other.get(url, both_lists).status_code == 200  # a finished event publishes its lists
    assert (
        other.get(url, {"a": f"player:{player.pk}", "b": deck.pk}).status_code == 404
    )  # the deck stays private
    assert other.get(url, {"a": "player:x", "b": "1"}).status_code == 400
    page = other.get(reverse("decks:compare"), both_lists)
    assert page.status_code == 200 and b'data-testid="compare-main"' in page.content
