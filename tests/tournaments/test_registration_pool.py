"""Limited formats through the pages: register the pool (pasted or uploaded), then a deck built from it."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournaments import services
from tournaments.models import Player

from .factories import make_event, twindeck_cards

pytestmark = pytest.mark.django_db


def _text(sections: dict[str, list[tuple[int, str]]]) -> str:
    return "\n".join(
        f"{title}:\n" + "\n".join(f"{count} {name}" for count, name in lines)
        for title, lines in sections.items()
    )


@pytest.fixture
def limited(games, organizer):  # type: ignore[no-untyped-def]
    game = games["twindeck"]
    cards = twindeck_cards(game)
    event = make_event(organizer, game, format_slug="limited", deck_registration=True)
    pool = _text(
        {
            "Creatures": [(2, c.name) for c in cards["creatures"]],
            "Main": [(3, c.name) for c in cards["main"]],
        }
    )
    deck = _text(
        {
            "Creatures": [(2, c.name) for c in cards["creatures"][:6]],
            "Main": [(3, c.name) for c in cards["main"][:10]],
        }
    )
    return event, cards, pool, deck


def test_the_service_registers_a_pasted_pool_and_a_deck_built_from_it(limited, user, other_user):
    event, cards, pool, deck = limited
    player = services.player_register(tournament=event, by=user)
    # Without a pool the rules engine refuses the deck (not_in_pool).
    with pytest.raises(ValidationError, match="pool"):
        services.player_submit_deck(player=player, by=user, text=deck)
    with pytest.raises(PermissionDenied):
        services.player_submit_pool(player=player, by=other_user, text=pool)
    services.player_submit_pool(player=player, by=user, text=pool)
    services.player_submit_deck(player=player, by=user, text=deck)
    player.refresh_from_db()
    assert sum(line["count"] for lines in player.pool["sections"].values() for line in lines) == 16 + 42
    assert sum(line["count"] for line in player.deck["sections"]["main"]) == 30
    # Four copies of a card the pool holds three of: not in the pool.
    greedy = deck.replace(f"3 {cards['main'][0].name}\n", f"4 {cards['main'][0].name}\n", 1)
    with pytest.raises(ValidationError, match="not legal"):
        services.player_submit_deck(player=player, by=user, text=greedy)


def test_an_unknown_card_in_the_pool_is_named(limited, user):
    event, _cards, pool, _deck = limited
    player = services.player_register(tournament=event, by=user)
    with pytest.raises(ValidationError, match="No Such Card"):
        services.player_submit_pool(player=player, by=user, text=pool + "\n1 No Such Card")
    assert Player.objects.get(pk=player.pk).pool is None


def test_a_new_pool_that_no_longer_holds_the_deck_removes_it(limited, user):
    event, cards, pool, deck = limited
    player = services.player_register(tournament=event, by=user)
    services.player_submit_pool(player=player, by=user, text=pool)
    services.player_submit_deck(player=player, by=user, text=deck)
    smaller = _text({"Creatures": [(1, c.name) for c in cards["creatures"]]})
    services.player_submit_pool(player=player, by=user, text=smaller)
    player.refresh_from_db()
    assert player.deck is None and player.pool is not None


def test_a_format_without_a_pool_refuses_one(games, organizer, user):
    event = make_event(organizer, games["twindeck"], deck_registration=True)
    player = services.player_register(tournament=event, by=user)
    with pytest.raises(ValidationError, match="pool"):
        services.player_submit_pool(player=player, by=user, text="1 Creature 0")


def test_a_player_pastes_the_pool_uploads_the_deck_and_sees_both(limited, client, user, other_user):
    event, _cards, pool, deck = limited
    player = services.player_register(tournament=event, by=user)
    url = reverse("tournaments:player_registration", args=[event.pk, player.pk])
    client.force_login(other_user)
    assert client.get(url).status_code == 403
    client.force_login(user)
    detail = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert url in detail
    page = client.get(url).content.decode()
    assert 'name="pool_text"' in page and 'name="deck_text"' not in page  # the deck comes after the pool
    response = client.post(url, {"action": "pool", "pool_text": pool}, follow=True)
    assert "Pool registered." in response.content.decode()
    upload = SimpleUploadedFile("deck.txt", deck.encode(), content_type="text/plain")
    response = client.post(url, {"action": "deck", "deck_file": upload}, follow=True)
    html = response.content.decode()
    assert "Deck registered." in html, html
    player.refresh_from_db()
    assert player.deck is not None and player.pool is not None
    assert "Creature 0" in html and 'data-testid="registered-pool"' in html


def test_a_deck_outside_the_pool_is_refused_on_the_page_with_the_reason(limited, client, user):
    event, cards, pool, _deck = limited
    player = services.player_register(tournament=event, by=user)
    client.force_login(user)
    url = reverse("tournaments:player_registration", args=[event.pk, player.pk])
    client.post(url, {"action": "pool", "pool_text": pool})
    outside = _text(
        {
            "Creatures": [(2, c.name) for c in cards["creatures"][:6]],
            "Main": [(3, c.name) for c in cards["side"][:8]] + [(3, c.name) for c in cards["main"][:2]],
        }
    )
    html = client.post(url, {"action": "deck", "deck_text": outside}, follow=True).content.decode()
    assert "not legal" in html and "registered pool holds" in html
    assert Player.objects.get(pk=player.pk).deck is None


def test_an_organizer_registers_a_guest_pool_and_deck(limited, client, organizer):
    event, _cards, pool, deck = limited
    guest = services.player_register(tournament=event, by=organizer, name="Guest")
    client.force_login(organizer)
    url = reverse("tournaments:player_registration", args=[event.pk, guest.pk])
    client.post(url, {"action": "pool", "pool_file": SimpleUploadedFile("pool.txt", pool.encode())})
    client.post(url, {"action": "deck", "deck_text": deck})
    guest.refresh_from_db()
    assert guest.pool is not None and guest.deck is not None
