"""Print for play: a deck as card-size pages (63 × 88 mm, 3 × 3 on A4 or Letter, with cut marks), each copy
its uploaded picture where the game's editors gave one (cards.CardPicture) and a clean text card otherwise.

Pictures are read from the site's own storage and inlined as data: URLs: the PDF renderer fetches nothing
(decks.exporting.safe_url_fetcher). A picture URL on another host is never fetched: that card prints as text.
"""

from __future__ import annotations

import base64
import mimetypes
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string

from cards.models import Card, CardPicture

from .deckhash import deck_hash_of
from .exporting import pdf_from_html
from .gamerules import format_info
from .models import Deck
from .selectors import deck_sections

CARD_W, CARD_H = 63.0, 88.0
COLUMNS, ROWS = 3, 3
PER_PAGE = COLUMNS * ROWS
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARK = 5.0  # length of a cut mark, in mm, drawn in the margin only
MAX_CARDS = 400


@dataclass(frozen=True)
class PrintCard:
    card: Card
    picture: str  # a data: URL, or "" for a text card
    section: str
    facts: list[str]


def _facts(card: Card) -> list[str]:
    facts = [card.card_type.replace("_", " ").capitalize()] if card.card_type else []
    if card.subtypes:
        facts.append(" / ".join(str(s) for s in card.subtypes[:4]))
    if card.level is not None:
        facts.append(f"★ {card.level}")
    if card.cost is not None:
        facts.append(f"◆ {card.cost}")
    attributes = card.attributes or {}
    for key in ("attribute", "race", "atk", "def", "power", "toughness", "manacost", "color"):
        value = attributes.get(key)
        if value not in (None, "", []):
            facts.append(f"{key.upper() if key in {'atk', 'def'} else key}: {value}")
    return facts


def _pictures(cards: list[Card]) -> dict[int, str]:
    urls = {}
    for picture in CardPicture.objects.filter(card__in=cards):
        try:
            with picture.image.open("rb") as handle:
                raw = handle.read()
        except (OSError, ValueError):
            continue  # a missing file prints as a text card, never a broken page
        kind = mimetypes.guess_type(picture.image.name)[0] or "image/jpeg"
        urls[picture.card_id] = f"data:{kind};base64,{base64.b64encode(raw).decode('ascii')}"
    return urls


def print_cards(deck: Deck) -> list[PrintCard]:
    """One entry per copy to print: the hero first, then the sections in the game's order."""
    sections = deck_sections(deck)
    fmt = format_info(deck.game.slug, deck.format_slug)
    titles = {s.slug: s.name for s in fmt.sections}
    heroes = [deck.hero, *deck.co_heroes.all()] if deck.hero else []
    everything = [*heroes, *(card for lines in sections.values() for card, _ in lines)]
    pictures = _pictures(everything)
    out = [PrintCard(h, pictures.get(h.pk, ""), fmt.hero_label, _facts(h)) for h in heroes]
    for slug, lines in sections.items():
        for card, count in lines:
            entry = PrintCard(card, pictures.get(card.pk, ""), titles.get(slug, slug), _facts(card))
            out.extend([entry] * count)
    return out[:MAX_CARDS]


def print_context(deck: Deck, *, paper: str = "a4") -> dict[str, Any]:
    width, height = PAPERS.get(paper, PAPERS["a4"])
    grid_w, grid_h = COLUMNS * CARD_W, ROWS * CARD_H
    left, top = (width - grid_w) / 2, (height - grid_h) / 2
    cards = print_cards(deck)
    pages = [cards[i : i + PER_PAGE] for i in range(0, len(cards), PER_PAGE)] or [[]]
    xs = [left + i * CARD_W for i in range(COLUMNS + 1)]
    ys = [top + i * CARD_H for i in range(ROWS + 1)]
    # Cut marks sit in the margin, never over a card: short lines at each cut line, outside the grid.
    marks = [
        *({"x": x, "y": top - MARK - 1, "w": 0, "h": MARK} for x in xs),
        *({"x": x, "y": top + grid_h + 1, "w": 0, "h": MARK} for x in xs),
        *({"x": left - MARK - 1, "y": y, "w": MARK, "h": 0} for y in ys),
        *({"x": left + grid_w + 1, "y": y, "w": MARK, "h": 0} for y in ys),
    ]
    return {
        "deck": deck,
        "paper": {"name": paper if paper in PAPERS else "a4", "w": width, "h": height},
        "grid": {"left": left, "top": top},
        "card": {"w": CARD_W, "h": CARD_H},
        "pages": [
            [
                {"entry": c, "x": left + (i % COLUMNS) * CARD_W, "y": top + (i // COLUMNS) * CARD_H}
                for i, c in enumerate(page)
            ]
            for page in pages
        ],
        "marks": marks,
        "deck_hash": deck_hash_of(game_slug=deck.game.slug, sections=deck_sections(deck)),
    }


def render_print_pdf(deck: Deck, *, paper: str = "a4") -> bytes:
    return pdf_from_html(render_to_string("decks/print_cards.html", print_context(deck, paper=paper)))
