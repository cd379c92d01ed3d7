"""The card page's hero restrictions, worded as the deck builder words them. Installed on the card page
from ``DecksConfig.ready()`` (cards stands below decks, see cards/facts.py)."""

from __future__ import annotations

from cards.models import Card

from .gamerules import describe_restriction, filter_labels, game_formats


def hero_restrictions(card: Card, lang: str) -> list[str]:
    """A hero's deck-building restrictions in words (Everseal), as the deck builder shows them."""
    restrictions = (card.attributes or {}).get("restrictions")
    if not isinstance(restrictions, list) or not restrictions:
        return []
    titles = {s.slug: s.title(lang) for f in game_formats(card.game.slug) for s in f.sections}
    labels = filter_labels(card.game.slug, lang)
    return [describe_restriction(item, lang, titles, labels=labels) for item in restrictions]
