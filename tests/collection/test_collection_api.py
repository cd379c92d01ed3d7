"""The collection over the API: import, read, owned/missing per deck line, built decks holding copies, where a
card's copies are, the wants list."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from decks.services import deck_create

DECKBOX = (
    "Count,Tradelist Count,Name,Edition,Card Number,Condition,Language,Foil,Signed,Artist Proof,Altered Art,"
    "Misprint,Promo,Textless,My Price\n"
    "3,0,Blue-Eyes White Dragon,Legend of Blue Eyes White Dragon,LOB-001,Near Mint,English,,,,,,,,\n"
    "2,0,Dark Magician,Legend of Blue Eyes White Dragon,LOB-005,Near Mint,English,,,,,,,,\n"
    "1,0,Pot of Greed,Legend of Blue Eyes White Dragon,LOB-119,Near Mint,English,,,,,,,,\n"
    "1,0,Not A Real Card,Nowhere,X-1,Near Mint,English,,,,,,,,\n"
    "x,0,Raigeki,Legend of Blue Eyes White Dragon,LOB-053,Near Mint,English,,,,,,,,\n"
)


@pytest.fixture
def decks(sample_cards, user, card):  # type: ignore[no-untyped-def]
    game = sample_cards["yugioh"]
    blue_eyes = deck_create(
        owner=user, game=game, name="Blue-Eyes", format_slug="advanced",
        sections={"main": [(card("yugioh", "Blue-Eyes White Dragon"), 2), (card("yugioh", "Pot of Greed"), 1)]},
    )  # fmt: skip
    # Needs 3 Blue-Eyes and 3 Dark Magician, one of them the alternate artwork: the same card for the collection.
    second = deck_create(
        owner=user, game=game, name="Magicians", format_slug="advanced",
        sections={"main": [(card("yugioh", "Blue-Eyes White Dragon"), 3), (card("yugioh", "46986414"), 2),
                           (card("yugioh", "46986415"), 1)]},
    )  # fmt: skip
    return blue_eyes, second


def _import(client, text, **extra):  # type: ignore[no-untyped-def]
    upload = SimpleUploadedFile("inventory.csv", text.encode(), content_type="text/csv")
    return client.post(
        reverse("api-collection-import"), {"game": "yugioh", "file": upload, **extra}, format="multipart"
    )


def test_it_imports_counts_and_lists_unknown_lines(sample_cards, user, api_client_for) -> None:
    client = api_client_for(user)
    body = _import(client, DECKBOX).json()
    assert (body["layout"], body["rows_read"], body["copies_read"]) == ("deckbox", 3, 6)
    assert [(u["line"], u["reason"]) for u in body["unknown"]] == [(5, "unknown_card"), (6, "bad_count")]
    # The file is the whole collection: importing it again doubles nothing; "add" does add.
    _import(client, DECKBOX)
    listed = client.get(reverse("api-collection"), {"game": "yugioh"}).json()
    assert (listed["rows"], listed["copies"]) == (3, 6)
    assert {r["name"]: r["count"] for r in listed["results"]} == {
        "Blue-Eyes White Dragon": 3, "Dark Magician": 2, "Pot of Greed": 1,
    }  # fmt: skip
    _import(client, DECKBOX, mode="add")
    assert client.get(reverse("api-collection"), {"game": "yugioh"}).json()["copies"] == 12


def test_it_refuses_bad_input_clearly(sample_cards, user, api_client_for, api_client) -> None:
    client = api_client_for(user)
    assert "no collection header" in _import(client, "Card,Qty\nRaigeki,1\n").json()["file"][0]
    assert (
        client.post(
            reverse("api-collection-import"), {"game": "nope", "data": DECKBOX}, format="multipart"
        ).status_code
        == 400
    )
    assert client.get(reverse("api-collection"), {"game": "yugioh"}).json()["copies"] == 0
    assert client.get(reverse("api-collection-where"), {"card": "abc"}).status_code == 400
    assert client.get(reverse("api-collection-where"), {"card": "99999999"}).status_code == 404
    assert api_client.get(reverse("api-collection"), {"game": "yugioh"}).status_code in (401, 403)


def test_a_deck_shows_owned_and_missing_per_line_and_built_decks_hold_copies(
    decks, user, api_client_for, card
) -> None:
    blue_eyes, second = decks
    client = api_client_for(user)
    _import(client, DECKBOX)
    first = client.get(reverse("api-deck-detail", args=[blue_eyes.pk])).json()
    assert first["buildable"] is True and first["built"] is False
    assert [(e["name"], e["owned"], e["missing"]) for e in first["sections"]["main"]] == [
        ("Blue-Eyes White Dragon", 2, 0), ("Pot of Greed", 1, 0),
    ]  # fmt: skip
    assert len(first["hash"]) == 8

    built = client.post(reverse("api-deck-built", args=[blue_eyes.pk]), {"built": True}, format="json")
    assert built.json() == {"deck": blue_eyes.pk, "built": True}

    other = client.get(reverse("api-deck-detail", args=[second.pk])).json()
    assert other["buildable"] is False
    lines = [(e["external_id"], e["owned"], e["missing"], e["held_by"]) for e in other["sections"]["main"]]
    blue = {"deck": blue_eyes.pk, "name": "Blue-Eyes", "count": 2}
    # 3 owned, 2 sleeved in Blue-Eyes: 1 free, "2 of 3 are in Blue-Eyes"; Dark Magician: 2 owned for 3 copies
    # (the alternate artwork is the same card), nothing holds the third.
    assert lines == [("89631139", 1, 2, [blue]), ("46986414", 2, 0, []), ("46986415", 0, 1, [])]

    where = client.get(
        reverse("api-collection-where"), {"card": card("yugioh", "Blue-Eyes White Dragon").pk}
    ).json()
    assert (where["owned"], where["free"], where["held_by"]) == (3, 1, [blue])

    refused = client.post(reverse("api-deck-built", args=[second.pk]), {"built": True}, format="json")
    assert refused.status_code == 409
    assert refused.json()["missing"][0] == {"name": "Blue-Eyes White Dragon", "missing": 2, "held_by": [blue]}

    wants = client.get(reverse("api-collection-wants", args=[second.pk]), {"fmt": "text"})
    assert wants.content.decode() == "2 Blue-Eyes White Dragon\n1 Dark Magician\n"
    wants_csv = client.get(reverse("api-collection-wants", args=[second.pk]), {"fmt": "csv"}).content.decode()
    assert wants_csv.splitlines()[:2] == ["Count,Name,Card ID", "2,Blue-Eyes White Dragon,89631139"]

    client.post(reverse("api-deck-built", args=[blue_eyes.pk]), {"built": False}, format="json")
    again = client.get(reverse("api-deck-detail", args=[second.pk])).json()
    assert [e["missing"] for e in again["sections"]["main"]] == [0, 0, 1]


def test_only_the_owner_marks_a_deck_built_and_others_see_their_own_collection(
    decks, user, other_user, api_client_for, api_client
) -> None:
    from decks.models import Deck

    blue_eyes, _ = decks
    Deck.objects.filter(pk=blue_eyes.pk).update(visibility="public")
    _import(api_client_for(user), DECKBOX)
    stranger = api_client_for(other_user)
    assert stranger.post(reverse("api-deck-built", args=[blue_eyes.pk]), {}, format="json").status_code == 403
    seen = stranger.get(reverse("api-deck-detail", args=[blue_eyes.pk])).json()
    assert (seen["buildable"], seen["built"], seen["sections"]["main"][0]["missing"]) == (False, None, 2)
    anonymous = api_client.get(reverse("api-deck-detail", args=[blue_eyes.pk])).json()
    assert (anonymous["buildable"], anonymous["sections"]["main"][0]["owned"]) == (None, None)


def test_a_player_who_tracks_printings_counts_alternate_artworks_apart(decks, user, api_client_for) -> None:
    from collection.services import collection_settings_set

    _, second = decks
    client = api_client_for(user)
    _import(client, DECKBOX)
    collection_settings_set(owner=user, game=second.game, track_printings=True)
    lines = client.get(reverse("api-deck-detail", args=[second.pk])).json()["sections"]["main"]
    assert [(e["external_id"], e["missing"]) for e in lines] == [
        ("89631139", 0),
        ("46986414", 0),
        ("46986415", 1),
    ]


def test_it_edits_a_card_by_hand_and_exports(decks, user, api_client_for, card) -> None:
    client = api_client_for(user)
    pot = card("yugioh", "Pot of Greed")
    answer = client.post(reverse("api-collection"), {"card": pot.pk, "count": 3}, format="json")
    assert (answer.status_code, answer.json()["count"]) == (200, 3)
    exported = client.get(reverse("api-collection-export"), {"game": "yugioh"}).content.decode()
    assert exported.splitlines()[1] == "3,Pot of Greed,55144522,,,,,"
    assert (
        client.post(reverse("api-collection"), {"card": pot.pk, "count": 0}, format="json").status_code == 204
    )
    assert client.get(reverse("api-collection"), {"game": "yugioh"}).json()["rows"] == 0
    assert (
        client.post(reverse("api-collection"), {"card": pot.pk, "count": -1}, format="json").status_code
        == 400
    )


@pytest.mark.parametrize("game_slug", ["everseal", "twindeck", "caster", "yugioh"])
def test_it_works_for_every_game_by_the_identity_its_copy_limits_count(sample_cards, user, game_slug) -> None:
    from cards.models import Card
    from collection.exporting import collection_csv
    from collection.selectors import deck_ownership_for
    from collection.services import collection_import
    from decks.selectors import deck_sections

    game = sample_cards[game_slug]
    card = Card.objects.filter(game=game, deck_buildable=True, is_token=False).order_by("external_id").first()
    text = f"Count,Name,Card ID,Set Code,Collector Number,Foil,Condition,Language\n2,{card.name},{card.external_id},,,,,\n"
    assert collection_import(owner=user, game=game, data=text).copies_read == 2
    assert collection_csv(user, game).splitlines()[1].startswith("2,")
    deck = deck_create(owner=user, game=game, name="Any", sections={"main": [(card, 3)]}, format_slug="")
    line = deck_ownership_for(deck, user, deck_sections(deck)).lines[("main", card.pk)]
    assert (line.owned, line.missing) == (2, 1)


def test_a_considered_card_is_never_needed_nor_held(decks, user, api_client_for, card) -> None:
    from decks.models import DeckCard

    blue_eyes, _ = decks
    client = api_client_for(user)
    _import(client, DECKBOX)
    # The builder's maybeboard: written as the deck service would, the section validation ignores.
    DeckCard.objects.create(
        deck=blue_eyes, section="maybe", card=card("yugioh", "Raigeki"), count=2, position=9
    )
    DeckCard.objects.create(
        deck=blue_eyes, section="maybe", card=card("yugioh", "Blue-Eyes White Dragon"), count=1
    )
    body = client.get(reverse("api-deck-detail", args=[blue_eyes.pk])).json()
    assert body["buildable"] is True
    maybe = {e["name"]: (e["owned"], e["missing"]) for e in body["sections"]["maybe"]}
    assert maybe == {"Raigeki": (0, 2), "Blue-Eyes White Dragon": (1, 0)}  # 3 owned, 2 in the deck: 1 left
    assert client.post(reverse("api-deck-built", args=[blue_eyes.pk]), {}, format="json").status_code == 200
    where = client.get(
        reverse("api-collection-where"), {"card": card("yugioh", "Blue-Eyes White Dragon").pk}
    ).json()
    assert (where["free"], where["held_by"][0]["count"]) == (1, 2)
    assert client.get(reverse("api-collection-wants", args=[blue_eyes.pk])).content == b""
