"""Which card a deck line means among the cards found for it; several different cards are never guessed
between: the line is ambiguous and the problem lists each choice with what tells it apart."""

from __future__ import annotations

from typing import Any, Literal

from cards.models import Card, Printing
from cards.selectors import canonical_order

Reason = Literal["unknown", "ambiguous", "not_buildable", "section", "hero"]
Match = tuple[Card | None, Reason, str, dict[str, Any]]


def choose(text: str, candidates: list[Card]) -> Match:
    """The card ``text`` means among the cards found for it, or the ambiguity listing each choice."""
    buildable = [c for c in candidates if c.deck_buildable and not c.is_token]
    if not buildable:
        # Only a token (or another card no deck may hold) has this name: say so, not "unknown".
        return min(candidates, key=canonical_order), "unknown", "", {}
    identities = {c.identity for c in buildable}
    if len(identities) > 1:
        # An art-series card ("Sol Ring // Sol Ring", a memorabilia set) never competes with the real card.
        real = [c for c in buildable if c.pk not in _art_series(buildable)]
        if real and len(real) < len(buildable):
            buildable = real
            identities = {c.identity for c in buildable}
    if len(identities) > 1:
        return None, "ambiguous", "resolve.ambiguous", _ambiguity_params(text, buildable)
    # Printings of one card (alternate artworks) share a name: the canonical printing stands for them.
    return min(buildable, key=canonical_order), "unknown", "", {}


# Set types of printings that are not game pieces: Scryfall/MTGJSON "memorabilia", Cockatrice's words.
ART_SET_TYPES = frozenset({"memorabilia", "art_series", "art series"})


def _art_series(cards: list[Card]) -> set[int]:
    """Ids of the cards among ``cards`` that are art-series cards: both faces the same name, an
    "art_series" layout, or printed only in memorabilia sets."""
    found = set()
    for card in cards:
        faces = card.name.split(" // ")
        attributes = card.attributes if isinstance(card.attributes, dict) else {}
        layout = str(attributes.get("layout", "")).casefold()
        if (len(faces) == 2 and faces[0] == faces[1]) or layout in ART_SET_TYPES:
            found.add(card.pk)
    set_types: dict[int, set[str]] = {}
    for card_id, set_type in Printing.objects.filter(card__in=cards).values_list(
        "card_id", "card_set__set_type"
    ):
        set_types.setdefault(card_id, set()).add((set_type or "").casefold())
    found |= {card_id for card_id, types in set_types.items() if types and types <= ART_SET_TYPES}
    return found


def _ambiguity_params(text: str, cards: list[Card]) -> dict[str, Any]:
    """Each different card with what tells it apart (id, set, level, type) and the exact line that picks
    it; decks/messages.py words them."""
    firsts: dict[str, Card] = {}
    for card in sorted(cards, key=canonical_order):
        firsts.setdefault(card.identity, card)
    sets = dict(
        Printing.objects.filter(card__in=list(firsts.values()))
        .order_by("card_id", "card_set__code")
        .values_list("card_id", "card_set__code")
    )
    game = cards[0].game.slug
    options = [
        {
            "name": card.name,
            "id": card.external_id,
            "set": sets.get(card.pk, ""),
            "level": card.level,
            "type": {"game": game, "field": "type", "value": card.card_type} if card.card_type else None,
        }
        for card in firsts.values()
    ]
    return {"text": text, "count": len(options), "options": options[:6]}
