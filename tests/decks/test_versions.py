"""Every save is a version; versions diff and restore; public decks copy into private ones."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from decks.models import Deck, DeckVersion
from decks.selectors import deck_sections, deck_version_diff
from decks.services import deck_copy, deck_restore_version, deck_update

pytestmark = pytest.mark.django_db


def test_it_keeps_a_version_per_save_and_diffs_them(ygo_deck, user, card) -> None:
    deck_update(
        deck=ygo_deck,
        by=user,
        sections={
            "main": [(card("yugioh", "46986414"), 2), (card("yugioh", "Raigeki"), 1)],
            "extra": [(card("yugioh", "Stardust Dragon"), 2)],
        },
        message="tuning",
    )
    ygo_deck.refresh_from_db()
    assert ygo_deck.current_version == 2
    assert list(DeckVersion.objects.filter(deck=ygo_deck).values_list("number", flat=True)) == [2, 1]
    diff = deck_version_diff(deck=ygo_deck, old=1, new=2)
    main = diff["sections"]["main"]
    assert [c["name"] for c in main["added"]] == ["Raigeki"]
    assert [c["name"] for c in main["removed"]] == ["Pot of Greed"]
    assert [(c["name"], c["from"], c["to"]) for c in main["changed"]] == [("Dark Magician", 3, 2)]
    assert [c["name"] for c in diff["sections"]["side"]["removed"]] == ["Mirror Force"]
    assert "extra" not in diff["sections"]


def test_it_restores_an_old_version_as_a_new_one(ygo_deck, user, card) -> None:
    before = deck_sections(ygo_deck)
    deck_update(deck=ygo_deck, by=user, sections={"main": [(card("yugioh", "Raigeki"), 1)]})
    deck = deck_restore_version(deck=ygo_deck, number=1, by=user)
    assert deck.current_version == 3
    assert deck_sections(deck) == before
    assert DeckVersion.objects.get(deck=deck, number=3).message == "restored version 1"


def test_it_refuses_bad_sections_and_writes_nothing(ygo_deck, user, card) -> None:
    with pytest.raises(ValidationError) as error:
        deck_update(deck=ygo_deck, by=user, sections={"creatures": [(card("yugioh", "Raigeki"), 1)]})
    assert "creatures" in str(error.value)
    with pytest.raises(ValidationError):
        deck_update(deck=ygo_deck, by=user, sections={"main": [(card("everseal", "Кракен"), 1)]})
    ygo_deck.refresh_from_db()
    assert ygo_deck.current_version == 1


def test_only_the_owner_updates_and_private_decks_do_not_copy(ygo_deck, other_user) -> None:
    with pytest.raises(PermissionDenied):
        deck_update(deck=ygo_deck, by=other_user, name="mine now")
    with pytest.raises(PermissionDenied):
        deck_copy(deck=ygo_deck, by=other_user)


def test_it_copies_a_public_deck_as_a_private_one(ygo_deck, user, other_user) -> None:
    deck_update(deck=ygo_deck, by=user, visibility=Deck.Visibility.PUBLIC)
    copy = deck_copy(deck=ygo_deck, by=other_user)
    assert (copy.owner, copy.visibility, copy.copied_from) == (other_user, Deck.Visibility.PRIVATE, ygo_deck)
    assert deck_sections(copy) == deck_sections(ygo_deck)
    assert copy.current_version == 1


def test_it_shows_a_version_page_with_section_names_and_messages_in_russian(
    ygo_deck, user, card, client
) -> None:
    from django.urls import reverse

    deck_update(deck=ygo_deck, by=user, sections={"main": [(card("yugioh", "Raigeki"), 1)]})
    deck_restore_version(deck=ygo_deck, number=1, by=user)
    client.force_login(user)
    client.cookies["django_language"] = "ru"
    page = client.get(reverse("decks:version", args=[ygo_deck.pk, 3]) + "?against=2").content.decode()
    assert "восстановлена версия 1" in page
    assert "<h3>Основная колода</h3>" in page and "<h3>Сайд-колода</h3>" in page
    assert "<h3>main</h3>" not in page
    detail = client.get(reverse("decks:detail", args=[ygo_deck.pk])).content.decode()
    versions = detail[detail.index('data-testid="versions"') :]
    assert "<td>колода создана</td>" in versions and "<td>сохранена</td>" in versions, versions[:1500]
    client.cookies["django_language"] = "en"
    page_en = client.get(reverse("decks:version", args=[ygo_deck.pk, 3]) + "?against=2").content.decode()
    assert "restored version 1" in page_en and "<h3>Main deck</h3>" in page_en
