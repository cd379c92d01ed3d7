"""Deck → file: the neutral DeckList for the text formats and the printable registration sheet (PDF)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone

from cards.models import Card, Printing

from .formats import WRITERS, DeckFormatError, DeckLine, DeckList, FileLayout
from .gamerules import format_info
from .models import Deck
from .selectors import Sections, deck_sections


def _shared_names(game_id: int, cards: list[Card]) -> set[int]:
    """Ids of the deck's cards whose printed name another deck-buildable card of a different identity
    also bears: their name alone would not import back (decks.resolve), so it gets a "(#id)" suffix."""
    names = {card.search_name for card in cards}
    if not names:
        return set()
    others: dict[str, list[Card]] = {}
    for other in Card.objects.filter(
        game_id=game_id, search_name__in=names, deck_buildable=True, is_token=False
    ):
        others.setdefault(str(other).casefold(), []).append(other)
    return {
        card.pk
        for card in cards
        if any(other.identity != card.identity for other in others.get(str(card).casefold(), []))
    }


def _printings(cards: list[Card]) -> dict[int, str]:
    """Card id → "SET:NUMBER" of its first printing that has a collector number (XMage's card key)."""
    found: dict[int, str] = {}
    rows = (
        Printing.objects.filter(card__in=cards)
        .exclude(code="")
        .order_by("card_id", "card_set__release_date", "card_set__code", "code")
        .values_list("card_id", "card_set__code", "code")
    )
    for card_id, set_code, number in rows:
        if (
            set_code
            and card_id not in found
            and ":" not in set_code + number
            and "]" not in set_code + number
        ):
            found[card_id] = f"{set_code}:{number}"
    return found


def deck_list_of(deck: Deck, sections: Sections | None = None) -> DeckList:
    """The deck as a neutral list, sections in the game's order (Main, Extra, Side); ``sections`` when the
    caller has already read them (the deck page)."""
    sections = deck_sections(deck) if sections is None else sections
    co_heroes = list(deck.co_heroes.all()) if deck.pk else []
    cards = [card for lines in sections.values() for card, _count in lines] + (
        [deck.hero, *co_heroes] if deck.hero else []
    )
    shared = _shared_names(deck.game_id, cards)
    # Only XMage needs printings, and XMage plays only Magic: other games' exports skip the query.
    printings = _printings(cards) if deck.game.slug == "mtg" else {}

    def line(card: Card, count: int) -> DeckLine:
        # "(#id)", not "#id": real names end in "#N" ("Jinzo #7"), none in "(#N)".
        name = f"{card} (#{card.external_id})" if card.pk in shared else str(card)
        return DeckLine(card.external_id, name, count, printings.get(card.pk, ""))

    return DeckList(
        sections={slug: [line(card, count) for card, count in lines] for slug, lines in sections.items()},
        hero=line(deck.hero, 1) if deck.hero else None,
        extra_heroes=[line(card, 1) for card in co_heroes] if deck.hero else [],
        name=deck.name,
        game=deck.game.slug,
        format_slug=deck.format_slug,
        notes=deck.notes,
        layout=FileLayout.from_json(deck.file_layout),
    )


def ydke_link(deck: Deck, sections: Sections | None = None) -> str:
    """The deck as a ydke:// link, or "" when the game's cards have no passcodes or the deck has
    sections ydke cannot hold."""
    if deck.game.slug != "yugioh":
        return ""
    try:
        return WRITERS["ydke"](deck_list_of(deck, sections))
    except DeckFormatError:
        return ""


def render_export(
    deck_list: DeckList, fmt: str, *, deck: Deck, player_name: str = "", event: str = ""
) -> bytes:
    if fmt == "pdf":
        return render_registration_pdf(deck, player_name=player_name, event=event)
    return WRITERS[fmt](deck_list).encode("utf-8")


def _static_roots() -> list[Path]:
    roots = [Path(settings.BASE_DIR) / "decks" / "static", *map(Path, settings.STATICFILES_DIRS)]
    return [root.resolve() for root in roots]


def check_pdf_url(url: str) -> None:
    """WeasyPrint may read data: URLs and our own static files, nothing else: a deck name or note cannot
    make the server fetch from the network or read arbitrary local files. Raises ValueError."""
    if url.startswith("data:"):
        return
    if url.startswith("file://"):
        path = Path(url[len("file://") :].split("?")[0]).resolve()
        if any(path.is_relative_to(root) for root in _static_roots()):
            return
    raise ValueError(f"refusing to fetch {url[:80]!r} while rendering a PDF")


def safe_url_fetcher() -> Any:
    from weasyprint.urls import URLFetcher

    class SafeURLFetcher(URLFetcher):
        def fetch(self, url: str, headers: Any = None) -> Any:
            check_pdf_url(url)
            return super().fetch(url, headers)

    return SafeURLFetcher(allowed_protocols=("data", "file"), allow_redirects=False)


def registration_context(deck: Deck, *, player_name: str = "", event: str = "") -> dict[str, Any]:
    sections = deck_sections(deck)
    fmt = format_info(deck.game.slug, deck.format_slug)
    blocks = []
    type_totals: Counter[str] = Counter()
    for section in fmt.sections:
        lines = sections.get(section.slug, [])
        if not lines and not section.counted:
            continue
        for card, count in lines:
            type_totals[card.card_type or "—"] += count
        blocks.append(
            {
                "title": section.name,
                "title_ru": section.name_ru,
                "lines": [
                    {"count": count, "name": str(card), "type": card.card_type} for card, count in lines
                ],
                "total": sum(count for _card, count in lines),
            }
        )
    return {
        "deck": deck,
        "format": fmt,
        "player_name": player_name or deck.owner.get_full_name() or deck.owner.username,
        "event": event,
        "date": (deck.on_date or timezone.localdate()).isoformat(),
        "blocks": blocks,
        "type_totals": sorted(type_totals.items()),
        "grand_total": sum(block["total"] for block in blocks),
    }


def render_registration_pdf(deck: Deck, *, player_name: str = "", event: str = "") -> bytes:
    from weasyprint import HTML

    html = render_to_string(
        "decks/registration_sheet.html", registration_context(deck, player_name=player_name, event=event)
    )
    return HTML(string=html, url_fetcher=safe_url_fetcher(), base_url=str(_static_roots()[0])).write_pdf()
