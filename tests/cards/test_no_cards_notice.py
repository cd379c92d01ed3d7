"""A game with no cards yet says so on the card browser and in the deck builder, and who can import them."""

from __future__ import annotations

import pytest
from django.test import Client

from cards.models import Card
from decks.services import deck_create

pytestmark = pytest.mark.django_db


def test_it_tells_a_visitor_who_can_import_a_games_cards(games):
    page = Client().get("/cards/?game=mtg").content.decode()
    assert 'data-testid="no-cards-notice"' in page
    assert "Magic: The Gathering has no cards yet." in page
    assert "card editor" in page and "/cards/import/" in page
    assert 'data-testid="no-cards-import"' not in page  # a visitor cannot import: no button


def test_it_offers_a_card_editor_the_import_page_for_that_game(games, organizer):
    client = Client()
    client.force_login(organizer)
    page = client.get("/cards/?game=mtg").content.decode()
    assert 'href="/cards/import/?game=mtg"' in page


def test_it_says_nothing_once_the_game_has_cards(games):
    Card.objects.create(game=games["mtg"], external_id="Opt", identity="Opt", name="Opt", search_name="opt")
    page = Client().get("/cards/?game=mtg").content.decode()
    assert 'data-testid="no-cards-notice"' not in page


def test_it_tells_the_builder_of_an_empty_game_in_russian(games, user):
    deck = deck_create(owner=user, game=games["mtg"], name="Mono red")
    client = Client()
    client.force_login(user)
    page = client.get(f"/decks/{deck.pk}/edit/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "пока нет карт" in page
    assert "Игры → редакторы карт" in page
