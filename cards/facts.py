"""What the card page shows from the layers above cards: a card's status on the ban lists in effect (rules)
and a hero's deck-building restrictions in the deck builder's words (decks).

cards stands below rules and decks and never imports them, so they hand their fact in from their
``AppConfig.ready()`` (``card_fact_install``); the card page asks for all of them by name
(``card_facts``). A fact not installed is simply not shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .models import Card

CardFact = Callable[[Card, str], Any]

_FACTS: dict[str, CardFact] = {}


def card_fact_install(name: str, fact: CardFact) -> None:
    """Show ``fact(card, lang)`` on the card page as the template's ``name``."""
    _FACTS[name] = fact


def card_facts(card: Card, lang: str) -> dict[str, Any]:
    """Every installed fact about ``card`` in ``lang``, by name."""
    return {name: fact(card, lang) for name, fact in _FACTS.items()}
