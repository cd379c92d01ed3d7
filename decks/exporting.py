"""Deck → file: the neutral DeckList for the text formats and the printable registration sheet (PDF)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.models import OfficialId
from cards.models import Card, Printing

from .deckhash import deck_hash_of
from .formats import WRITERS, DeckFormatError, DeckLine, DeckList, FileLayout
from .gamerules import format_info
from .maybe import without_maybe
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
        return WRITERS["ydke"](deck_list_of(deck, without_maybe(sections or deck_sections(deck))))
    except DeckFormatError:
        return ""


# Deckhall's own formats have a place for the maybeboard; play formats (.ydk, ydke, text for MTGO/Arena,
# Cockatrice) would make it part of the deck a client or a judge loads, so it is left out of them.
FORMATS_WITH_MAYBE = frozenset({"json", "csv"})


def render_export(
    deck_list: DeckList, fmt: str, *, deck: Deck, player_name: str = "", event: str = "", player_id: str = ""
) -> bytes:
    if fmt == "pdf":
        return render_registration_pdf(deck, player_name=player_name, event=event, player_id=player_id)
    if fmt not in FORMATS_WITH_MAYBE:
        deck_list = replace(deck_list, sections=without_maybe(deck_list.sections))
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


def registration_context(
    deck: Deck, *, player_name: str = "", event: str = "", player_id: str = ""
) -> dict[str, Any]:
    sections = deck_sections(deck)
    fmt = format_info(deck.game.slug, deck.format_slug)
    # The owner's saved ID for the game's sanctioned play when the sheet is not given one.
    player_id = player_id or (
        OfficialId.objects.filter(user_id=deck.owner_id, game_slug=deck.game.slug)
        .values_list("value", flat=True)
        .first()
        or ""
    )
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
                "slug": section.slug,
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
        "player_id": player_id,
        # Konami's sheet: the player's ID one digit per box (10 boxes; longer IDs get more).
        "player_id_boxes": list(player_id.ljust(10)) if len(player_id) <= 10 else list(player_id),
        "deck_hash": deck_hash_of(game_slug=deck.game.slug, sections=sections),
        "by_type": {block["slug"]: _group_by_type(block["lines"]) for block in blocks},
        **_two_column_main(blocks),
        "last_initial": (player_name or deck.owner.last_name or deck.owner.username or " ")
        .split()[-1][:1]
        .upper(),
        "co_heroes": list(deck.co_heroes.all()) if deck.hero else [],
    }


def _two_column_main(blocks: list[dict[str, Any]]) -> dict[str, Any]:
    """Magic's sheet: the main deck down two columns (up to 36 lines each), the sideboard beside them."""
    main = next((b for b in blocks if b["slug"] == "main"), {"lines": [], "total": 0})
    side = next((b for b in blocks if b["slug"] == "side"), {"lines": [], "total": 0})
    half = max(36, (len(main["lines"]) + 1) // 2)
    columns = [main["lines"][:half], main["lines"][half:]]
    return {"main_columns": [c for c in columns if c] or [[]], "side_lines": side["lines"],
            "main_total": main["total"], "side_total": side["total"]}  # fmt: skip


def _group_by_type(lines: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Lines of a section by card type ("monster", "spell", "trap"…) with each group's total."""
    groups: dict[str, dict[str, Any]] = {}
    for line in lines:
        group = groups.setdefault(line["type"] or "other", {"lines": [], "total": 0})
        group["lines"].append(line)
        group["total"] += line["count"]
    return groups


def pdf_from_html(html: str) -> bytes:
    """A PDF of our own HTML: fonts from the system, pictures only inlined or from our static files."""
    from weasyprint import HTML

    return HTML(string=html, url_fetcher=safe_url_fetcher(), base_url=str(_static_roots()[0])).write_pdf()


# The games whose organisers print their own sheet: the layout follows it (decks/registration/<game>.html).
SHEET_LAYOUTS = ("yugioh", "mtg")


def render_registration_pdf(
    deck: Deck, *, player_name: str = "", event: str = "", player_id: str = ""
) -> bytes:
    context = registration_context(deck, player_name=player_name, event=event, player_id=player_id)
    template = (
        f"decks/registration/{deck.game.slug}.html"
        if deck.game.slug in SHEET_LAYOUTS
        else "decks/registration_sheet.html"
    )
    return pdf_from_html(render_to_string(template, context))
