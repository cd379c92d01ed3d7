"""``{% no_cards_notice game %}``: what the card browser and the deck builder say about a game with no cards
yet — who can import them and where — instead of an empty result list that explains nothing."""

from __future__ import annotations

from typing import Any

from django import template

from cards.models import Card, Game
from cards.permissions import can_edit_card_database

register = template.Library()


@register.inclusion_tag("cards/_no_cards.html", takes_context=True)
def no_cards_notice(context: dict[str, Any], game: Game | None) -> dict[str, Any]:
    if game is None or Card.objects.filter(game=game).exists():
        return {"show": False}
    request = context.get("request")
    user = getattr(request, "user", None)
    return {"show": True, "game": game, "can_import": can_edit_card_database(user=user, game=game)}
