"""Collection reads are cached under the collection's version and the built decks' last changes: every write
that changes what a player owns or which copies a built deck holds is seen by the next read, and a write never
has to reach the cache (another web node's cache included) for that to be true."""

from __future__ import annotations

from django.core.cache import cache
from django.urls import reverse

from collection.selectors import _state, decks_missing_for, holdings
from collection.services import (
    collection_card_set,
    collection_import,
    collection_settings_set,
    deck_built_set,
)
from decks.models import Deck
from decks.services import deck_create, deck_update

DECKBOX = (
    "Count,Tradelist Count,Name,Edition,Card Number,Condition,Language,Foil,Signed,Artist Proof,Altered Art,"
    "Misprint,Promo,Textless,My Price\n"
    "3,0,Blue-Eyes White Dragon,Legend of Blue Eyes White Dragon,LOB-001,Near Mint,English,,,,,,,,\n"
    "2,0,Dark Magician,Legend of Blue Eyes White Dragon,LOB-005,Near Mint,English,,,,,,,,\n"
    "1,0,Pot of Greed,Legend of Blue Eyes White Dragon,LOB-119,Near Mint,English,,,,,,,,\n"
)


def _missing(user, *decks):  # type: ignore[no-untyped-def]
    # As the deck list reads them: fresh Deck rows (their last change is part of what is cached).
    fresh = list(Deck.objects.filter(pk__in=[d.pk for d in decks]).order_by("pk"))
    return [decks_missing_for(user, fresh)[d.pk] for d in fresh]


def test_every_write_is_seen_by_the_next_cached_read(sample_cards, user, card, api_client_for) -> None:
    game = sample_cards["yugioh"]
    blue, magician = card("yugioh", "Blue-Eyes White Dragon"), card("yugioh", "Dark Magician")
    first = deck_create(owner=user, game=game, name="Blue-Eyes", format_slug="advanced",
                        sections={"main": [(blue, 2), (card("yugioh", "Pot of Greed"), 1)]})  # fmt: skip
    second = deck_create(owner=user, game=game, name="Magicians", format_slug="advanced",
                         sections={"main": [(blue, 3), (magician, 2), (card("yugioh", "46986415"), 1)]})  # fmt: skip
    collection_import(owner=user, game=game, data=DECKBOX)
    assert _missing(user, first, second) == [0, 1]  # 2 Dark Magicians (either artwork) for 3
    assert _missing(user, first, second) == [0, 1]  # now from the cache
    key_before = _state(user, game.pk)[0]
    assert cache.get(key_before) is not None and cache.get(f"{key_before}:missing") is not None

    deck_built_set(deck=first, by=user, built=True)  # 2 Blue-Eyes sleeved: 1 free for the second deck
    assert _missing(user, first, second) == [0, 3]
    # No write touched the cache: the old entry is still there, unread, as it would be on another web node.
    assert cache.get(key_before) is not None and _state(user, game.pk)[0] != key_before

    first = Deck.objects.get(pk=first.pk)
    deck_update(deck=first, by=user, sections={"main": [(blue, 1)]}, name="Blue-Eyes Lite")
    assert _missing(user, first, second) == [0, 2]  # the built deck now holds one copy
    where = api_client_for(user).get(reverse("api-collection-where"), {"card": blue.pk}).json()
    assert (where["free"], [h["name"] for h in where["held_by"]]) == (2, ["Blue-Eyes Lite"])

    collection_card_set(owner=user, card=magician, count=3, set_code="LOB", number="LOB-005")
    assert _missing(user, first, second) == [0, 1]  # a second Dark Magician row: 5 in all
    assert holdings(user=user, game_id=game.pk).copies == 9

    collection_settings_set(owner=user, game=game, track_printings=True)
    assert _missing(user, first, second) == [0, 2]  # the alternate artwork is no longer a Dark Magician

    deck_built_set(deck=first, by=user, built=False)
    assert _missing(user, first, second) == [0, 1]
    page = api_client_for(user).get(reverse("api-collection"), {"game": "yugioh"}).json()
    assert (page["rows"], page["copies"], page["results"][0]["held_by"]) == (4, 9, [])
    # Pages and searches come from the cached index, in the collection's order: names, then the card's id.
    assert [r["name"] for r in page["results"]] == ["Blue-Eyes White Dragon", "Dark Magician", "Dark Magician",
                                                    "Pot of Greed"]  # fmt: skip
    search = api_client_for(user).get(reverse("api-collection"), {"game": "yugioh", "q": "DARK mag"}).json()
    # The hand-added set "LOB" sorts before the imported "Legend of Blue Eyes White Dragon".
    assert [(r["name"], r["count"]) for r in search["results"]] == [
        ("Dark Magician", 3),
        ("Dark Magician", 2),
    ]
    by_id = api_client_for(user).get(reverse("api-collection"), {"game": "yugioh", "q": "55144522"}).json()
    assert [r["name"] for r in by_id["results"]] == ["Pot of Greed"]
    second_page = api_client_for(user).get(
        reverse("api-collection"), {"game": "yugioh", "page_size": 3, "page": 2}
    )
    assert [r["name"] for r in second_page.json()["results"]] == ["Pot of Greed"]


def test_a_collection_never_written_through_the_app_is_read_uncached(sample_cards, user, card) -> None:
    from collection.models import CollectionEntry

    game = sample_cards["yugioh"]
    deck = deck_create(owner=user, game=game, name="Pot", format_slug="advanced",
                       sections={"main": [(card("yugioh", "Pot of Greed"), 1)]})  # fmt: skip
    pot = card("yugioh", "Pot of Greed")
    assert decks_missing_for(user, [deck]) == {}  # no collection of the game: nothing said
    CollectionEntry.objects.create(owner=user, game=game, card=pot, count=1)
    assert _state(user, game.pk)[0] is None
    assert decks_missing_for(user, [Deck.objects.get(pk=deck.pk)]) == {deck.pk: 0}


def test_the_collection_row_answers_what_its_declared_fields_would(sample_cards, user, card) -> None:
    from rest_framework import serializers

    from collection.api import CollectionRowOutSerializer
    from collection.models import CollectionEntry

    game = sample_cards["yugioh"]
    blue = card("yugioh", "Blue-Eyes White Dragon")
    deck = deck_create(
        owner=user, game=game, name="Blue", format_slug="advanced", sections={"main": [(blue, 2)]}
    )
    collection_card_set(owner=user, card=blue, count=3, set_code="LOB", number="LOB-001", foil=True)
    deck_built_set(deck=deck, by=user, built=True)
    entry = CollectionEntry.objects.select_related("card").get(owner=user)
    row = CollectionRowOutSerializer(entry, context={"holdings": holdings(user=user, game_id=game.pk)})
    generic = serializers.Serializer.to_representation(row, entry)
    assert row.data == generic and row.data["held_by"] == [{"deck": deck.pk, "name": "Blue", "count": 2}]
