"""Deck API errors name the game by its display name with a correct article, under the field at fault."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_it_reports_a_hero_of_another_game_under_hero(sample_cards, user, api_client_for, card) -> None:
    from decks.models import Deck

    client = api_client_for(user)
    yugioh_card = card("yugioh", "Dark Magician")
    response = client.post(
        reverse("api-deck-list"),
        {"game": "everseal", "name": "x", "format_slug": "standard", "hero": yugioh_card.pk},
        format="json",
    )
    assert response.status_code == 422
    assert response.json() == {"hero": [f"card id {yugioh_card.pk} is not a card of Everseal"]}
    assert not Deck.objects.exists()


def test_it_reports_section_and_hero_problems_each_under_its_own_key(
    sample_cards, user, api_client_for, card
) -> None:
    client = api_client_for(user)
    stranger, hero_elsewhere = card("yugioh", "Raigeki"), card("yugioh", "Dark Magician")
    everseal_card = card("everseal", "Кракен")
    response = client.post(
        reverse("api-deck-list"),
        {
            "game": "everseal",
            "name": "x",
            "hero": hero_elsewhere.pk,
            "sections": {"main": [{"card": stranger.pk, "count": 1}, {"card": everseal_card.pk, "count": 1}]},
        },
        format="json",
    )
    assert response.status_code == 422
    assert response.json() == {
        "sections": [f"card id {stranger.pk} is not a card of Everseal"],
        "hero": [f"card id {hero_elsewhere.pk} is not a card of Everseal"],
    }
    # A wrong hero while updating an existing deck is reported the same way and changes nothing.
    deck = client.post(
        reverse("api-deck-list"),
        {"game": "everseal", "name": "Mine", "format_slug": "standard"},
        format="json",
    ).json()
    patched = client.patch(
        reverse("api-deck-detail", args=[deck["id"]]), {"hero": hero_elsewhere.pk}, format="json"
    )
    assert patched.status_code == 422
    assert patched.json() == {"hero": [f"card id {hero_elsewhere.pk} is not a card of Everseal"]}


def test_it_names_a_ban_list_of_another_game_without_a_broken_article(
    sample_cards: dict[str, Any], user, api_client_for
) -> None:
    from rules.models import BanList

    other = BanList.objects.create(
        game=sample_cards["everseal"], name="Elsewhere", effective_date=dt.date(2024, 1, 1), content_hash="x"
    )
    response = api_client_for(user).post(
        reverse("api-deck-list"), {"game": "yugioh", "name": "x", "banlist": other.pk}, format="json"
    )
    assert response.status_code == 422
    assert response.json() == {"banlist": [f"ban list {other.pk} is not a ban list of Yu-Gi-Oh! TCG"]}
