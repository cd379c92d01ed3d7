"""The collection's pages: import a CSV, see the collection, a deck's owned/missing lines with the built deck
that holds a card, mark built, the wants list, the deck list's badge and the deck page's hash — in English and
Russian."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.collection.test_collection_api import DECKBOX, decks  # noqa: F401


def test_a_player_imports_marks_built_and_reads_where_a_card_is(client, decks, user) -> None:  # noqa: F811
    blue_eyes, second = decks
    client.force_login(user)
    upload = SimpleUploadedFile("inventory.csv", DECKBOX.encode(), content_type="text/csv")
    page = client.post(reverse("collection:import"), {"game": "yugioh", "file": upload, "mode": "replace"})
    text = page.content.decode()
    assert "6 copies read from 3 rows (deckbox)" in text
    assert "line 5" in text and "Not A Real Card" in text

    listing = client.get(reverse("collection:page"), {"game": "yugioh"}).content.decode()
    assert "6 copies in 3 rows" in listing and "Blue-Eyes White Dragon" in listing

    built = client.post(reverse("collection:built", args=[blue_eyes.pk]), {"built": "1"}, follow=True)
    assert "Marked built" in built.content.decode()

    other = client.get(reverse("collection:deck", args=[second.pk])).content.decode()
    assert "2 of 3 are in Blue-Eyes" in other
    assert "missing 3" in other
    assert "2 Blue-Eyes White Dragon\n1 Dark Magician" in other

    refused = client.post(
        reverse("collection:built", args=[second.pk]), {"built": "1"}, follow=True
    ).content.decode()
    assert "3 copies are missing to build this deck" in refused

    decks_page = client.get(reverse("decks:list")).content.decode()
    assert 'data-testid="buildable-badge"' in decks_page and 'data-testid="missing-badge"' in decks_page
    detail = client.get(reverse("decks:detail", args=[second.pk])).content.decode()
    assert 'data-testid="deck-hash"' in detail and "missing 3" in detail
    assert "owned 1 · <strong>missing 2</strong>" in " ".join(detail.split())
    assert '<span data-testid="line-held-by">2 of 3 are in Blue-Eyes</span>' in detail

    wants = client.get(reverse("collection:wants", args=[second.pk, "csv"]))
    assert wants["Content-Type"].startswith("text/csv")


def test_the_pages_speak_russian(client, decks, user) -> None:  # noqa: F811
    blue_eyes, second = decks
    client.force_login(user)
    client.cookies["django_language"] = "ru"
    upload = SimpleUploadedFile("inventory.csv", DECKBOX.encode(), content_type="text/csv")
    text = client.post(reverse("collection:import"), {"game": "yugioh", "file": upload}).content.decode()
    assert "Импорт коллекции" in text and "строка 5" in text
    client.post(reverse("collection:built", args=[blue_eyes.pk]), {"built": "1"})
    other = client.get(reverse("collection:deck", args=[second.pk])).content.decode()
    assert "2 из 3 — в колоде Blue-Eyes" in other and "не хватает 3" in other
    assert "Моя коллекция" in client.get(reverse("collection:page"), {"game": "yugioh"}).content.decode()
