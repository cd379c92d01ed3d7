"""A tournament's registered list as one side of a deck comparison (decks/compare.py, "player:<id>"):
readable where the event shows the list to that user (the organizer, the player, everyone once a finished
event publishes its lists). Registered in TournamentsConfig.ready(), so decks never imports tournaments."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from cards.models import Card
from decks.compare import ComparedList, Line
from decks.maybe import MAYBE

from ..models import Player
from ..permissions import can_see_decklist


def registered_list(player_id: int, user: Any) -> ComparedList | None:
    player = Player.objects.select_related("tournament__game").filter(pk=player_id).first()
    if player is None or not player.deck or not can_see_decklist(player.tournament, player, user):
        return None
    snapshot = player.deck
    rows = {slug: lines for slug, lines in (snapshot.get("sections") or {}).items() if slug != MAYBE}
    heroes = [h for h in [snapshot.get("hero"), *(snapshot.get("co_heroes") or [])] if h]
    ids = {line.get("card_id") for lines in rows.values() for line in lines} | {
        h.get("card_id") for h in heroes
    }
    # The snapshot names cards by id and name; the identity (what both sides are matched by) is the card's.
    identities = dict(Card.objects.filter(pk__in=[i for i in ids if i]).values_list("pk", "identity"))

    def line(entry: dict[str, Any], count: int) -> Line:
        card_id = entry.get("card_id") or 0
        return Line(identities.get(card_id) or entry.get("name", ""), card_id, entry.get("name", ""), count)

    sections = {
        slug: [line(entry, int(entry.get("count", 0))) for entry in lines] for slug, lines in rows.items()
    }
    if heroes:
        sections = {"hero": [line(h, 1) for h in heroes], **sections}
    tournament = player.tournament
    return ComparedList(
        ref=f"player:{player.pk}",
        name=f"{player.name} — {tournament.name}",
        owner=player.name,
        game_slug=tournament.game.slug,
        format_slug=tournament.format_slug,
        url=reverse("tournaments:player_deck", args=[tournament.pk, player.pk]),
        sections=sections,
    )
