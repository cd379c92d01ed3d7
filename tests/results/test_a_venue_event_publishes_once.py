"""From the venue to the public site: `publish_event` sends a finished event's public results; twice gives one
copy; only what the timeline and consent made public leaves the laptop."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from accounts.tokens import api_token_create
from results.models import PublishedEvent
from tests.tournaments.factories import finish_round, make_event, ygo_cards, ygo_payload
from tournaments import services

pytestmark = pytest.mark.django_db(transaction=True)


def test_publishing_twice_gives_one_copy_with_only_the_public_lists(
    live_server: Any, games: Any, organizer: Any
) -> None:
    game = games["yugioh"]
    cards = ygo_cards(game)
    event = make_event(organizer, game, deck_registration=True, rounds=1, name="Venue Saturday",
                       decklist_timeline={"finished": "open"})  # fmt: skip
    for i, consent in enumerate([True, False]):
        player = services.player_register(tournament=event, by=organizer, name=f"Duelist {i}")
        services.player_submit_deck(player=player, by=organizer, payload=ygo_payload(cards))
        services.player_consent_set(player=player, by=organizer, consent=consent)  # the desk's paper answer
    token = api_token_create(user=organizer)
    with pytest.raises(CommandError, match="finished"):
        call_command("publish_event", event.pk, site=live_server.url, token=token)
    services.round_pair_next(tournament=event, by=organizer)
    finish_round(event, organizer)
    services.tournament_finish(tournament=event, by=organizer)
    out = StringIO()
    call_command("publish_event", event.pk, site=live_server.url, token=token, stdout=out)
    assert "Venue Saturday: published" in out.getvalue()
    first = PublishedEvent.objects.get()
    again = StringIO()
    call_command("publish_event", event.pk, site=live_server.url, token=token, stdout=again)
    assert "unchanged" in again.getvalue()
    assert (
        PublishedEvent.objects.count() == 1
        and PublishedEvent.objects.get().published_at == first.published_at
    )
    players = {p["name"]: p for p in first.document["players"]}
    assert players["Duelist 0"]["list"] is not None and players["Duelist 1"]["list"] is None
    assert players["Duelist 1"]["list_private"]
    page = Client().get(f"/tournaments/published/{first.pk}/").content.decode()
    assert page.count('data-testid="published-list"') == 1 and "list private" in page
    with pytest.raises(CommandError, match=r"HTTP (401|403)"):
        call_command("publish_event", event.pk, site=live_server.url, token="not-a-token")
