"""A player's My event page and the judges' deck lists show the hash of the registered (frozen) list: the same
hash the deck page and the registration sheet print, so a deck check compares one short code."""

from __future__ import annotations

import pytest
from django.urls import reverse

from decks.deckhash import deck_hash_of
from decks.selectors import deck_sections
from decks.services import deck_create
from tournaments import services

from .factories import make_event

pytestmark = pytest.mark.django_db

NAMES = ["Summoned Skull", "Celtic Guardian", "Gemini Elf", "Mystical Elf", "Giant Rat", "Mystic Tomato",
         "Marshmallon", "D.D. Warrior Lady", "Spirit Reaper", "Junk Synchron", "Blue-Eyes White Dragon",
         "Dark Magician Girl", "Trap Hole", "Sakuretsu Armor"]  # fmt: skip


def test_my_event_shows_the_hash_of_the_registered_list(games, organizer, user, client) -> None:
    import io

    from cards import demo
    from cards.models import Card

    demo.load(io.StringIO())
    cards = [Card.objects.filter(game=games["yugioh"], name=n).order_by("external_id").first() for n in NAMES]
    main = [(c, 3) for c in cards[:13]] + [(cards[13], 1)]
    deck = deck_create(owner=user, game=games["yugioh"], name="Beatdown", format_slug="advanced",
                       sections={"main": main})  # fmt: skip
    expected = deck_hash_of(game_slug="yugioh", sections=deck_sections(deck))
    event = make_event(organizer, games["yugioh"], rounds=3)
    services.player_register(tournament=event, by=user, deck=deck)
    # A later edit of the deck never changes what the event holds, nor its hash.
    deck_create(
        owner=user, game=games["yugioh"], name="Other", format_slug="advanced", sections={"main": main[:2]}
    )
    client.force_login(user)
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert f'data-testid="my-deck-hash">{expected}<' in page
    client.force_login(organizer)
    lists = client.get(reverse("tournaments:decklists", args=[event.pk])).content.decode()
    assert f'data-testid="decklist-hash">{expected}<' in lists
