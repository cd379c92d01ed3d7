"""Files a collection gives: its Deckhall CSV and a deck's wants list (text or CSV)."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.http import HttpResponse

from cards.models import Game
from decks.models import Deck

from .csvformats import CollectionRow, write_collection_csv
from .selectors import WantedCard, collection_entries

WANTS_TYPES = {"text": ("text/plain; charset=utf-8", "txt"), "csv": ("text/csv; charset=utf-8", "csv")}


def _safe(name: str, fallback: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name)[:60] or fallback


def wants_text(wants: list[WantedCard]) -> str:
    return "".join(f"{w.missing} {w.card}\n" for w in wants)


def wants_csv(wants: list[WantedCard]) -> str:
    """Count,Name first (what Moxfield's and Deckbox's list imports read), then the card's id in the game."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["Count", "Name", "Card ID"])
    for want in wants:
        writer.writerow([want.missing, str(want.card), want.card.external_id])
    return out.getvalue()


def wants_response(deck: Deck, wants: list[WantedCard], fmt: str) -> HttpResponse:
    content_type, extension = WANTS_TYPES[fmt]
    body = wants_text(wants) if fmt == "text" else wants_csv(wants)
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = (
        f'attachment; filename="wants-{_safe(deck.name, str(deck.pk))}.{extension}"'
    )
    return response


def collection_csv(user: Any, game: Game) -> str:
    rows = [
        CollectionRow(
            line=0, count=e.count, name=str(e.card), card_id=e.card.external_id, set_code=e.set_code,
            number=e.number, foil=e.foil, condition=e.condition, language=e.language,
        )
        for e in collection_entries(user=user, game=game)
    ]  # fmt: skip
    return write_collection_csv(rows)


def collection_response(user: Any, game: Game) -> HttpResponse:
    response = HttpResponse(collection_csv(user, game), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="collection-{game.slug}.csv"'
    return response
