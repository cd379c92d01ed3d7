"""The deck list shows a player's own decks a page at a time, each page with its "buildable / missing N" badges."""

from __future__ import annotations

from django.urls import reverse

from collection.services import collection_card_set
from decks.models import Deck, DeckCard


def test_a_collector_with_many_decks_reads_them_a_page_at_a_time(sample_cards, user, card, client) -> None:
    game = sample_cards["yugioh"]
    pot = card("yugioh", "Pot of Greed")
    decks = Deck.objects.bulk_create(
        [
            Deck(owner=user, game=game, format_slug="advanced", name=f"Stack {i:02}", folder="Box")
            for i in range(60)
        ]
    )
    DeckCard.objects.bulk_create([DeckCard(deck=d, section="main", card=pot, count=2) for d in decks])
    collection_card_set(owner=user, card=pot, count=1)
    client.force_login(user)
    first = client.get(reverse("decks:list")).content.decode()
    assert first.count('data-testid="missing-badge"') == 50 and "missing 1" in first
    assert 'data-testid="my-decks-pages"' in first and "1 / 2" in first
    second = client.get(reverse("decks:list"), {"mine_page": 2, "folder": "Box"}).content.decode()
    assert second.count('data-testid="missing-badge"') == 10 and "2 / 2" in second
    assert 'data-testid="folders"' in second
