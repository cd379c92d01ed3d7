"""Writes: import a collection file, set a card's copies by hand, mark a deck built."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext

from cards.models import Card, Game
from cards.selectors import canonical_order
from config.api import Unprocessable
from decks.maybe import MAYBE
from decks.models import Deck
from decks.selectors import deck_sections

from .csvformats import MAX_COPIES, CollectionFileError, CollectionRow, parse_collection_csv
from .models import BuiltDeck, CollectionEntry, CollectionSettings, fresh_version
from .selectors import deck_ownership_for

MAX_BYTES = 10 * 1024 * 1024
IMPORT_MODES = ("replace", "add")


def collection_version_bump(*, owner: Any, game: Game | int) -> None:
    """Every write to a player's collection of a game calls this inside its transaction: reads cached under
    the old version (collection.selectors) are then never served again, on any web node. The version is a
    fresh random number rather than a counter, so it never repeats, not even for a reused user id."""
    key = {"owner_id": getattr(owner, "pk", owner), "game_id": game if isinstance(game, int) else game.pk}
    CollectionSettings.objects.update_or_create(**key, defaults={"version": fresh_version()})


def file_error_message(error: CollectionFileError) -> str:
    messages = {
        "not_text": gettext("the file is not text (UTF-8 or Windows-1252)"),
        "empty": gettext("the file is empty"),
        "unknown_header": gettext(
            "the first line “%(header)s” is no collection header Deckhall knows "
            "(Moxfield, Deckbox, ManaBox, Dragon Shield or Deckhall CSV)"
        ),
        "too_many_rows": gettext("the file has more than %(limit)s rows"),
        "bad_csv": gettext("line %(line)s is not valid CSV: %(error)s"),
    }
    return messages[error.code] % error.params if error.params else messages[error.code]


def problem_message(code: str, params: dict[str, Any]) -> str:
    messages = {
        "bad_count": gettext("“%(count)s” is no number of copies"),
        "no_name": gettext("no card name"),
        "unknown_card": gettext("no card of %(game)s is named “%(name)s”"),
    }
    return messages[code] % params


@dataclass
class ImportResult:
    layout: str
    rows_read: int = 0
    copies_read: int = 0
    cards: int = 0
    unknown: list[dict[str, Any]] = field(default_factory=list)


def _front_face(name: str) -> str:
    return name.split(" // ", 1)[0].strip()


def _resolve(game: Game, rows: list[CollectionRow]) -> dict[int, Card]:
    """Row line → card: by the card id when the file gives one, else by name (the canonical printing of the
    name; a double-faced "Front // Back" also by its front), two queries for the whole file."""
    ids = {row.card_id for row in rows if row.card_id}
    by_id = (
        {card.external_id: card for card in Card.objects.filter(game=game, external_id__in=ids)}
        if ids
        else {}
    )
    names = set()
    for row in rows:
        names.add(row.name.casefold())
        names.add(_front_face(row.name).casefold())
    by_name: dict[str, Card] = {}
    for card in sorted(
        Card.objects.filter(game=game, search_name__in=names).only(
            "id", "name", "identity", "external_id", "search_name"
        ),
        key=canonical_order,
    ):
        by_name.setdefault(card.search_name, card)
    found = {}
    for row in rows:
        card = (
            by_id.get(row.card_id)
            or by_name.get(row.name.casefold())
            or by_name.get(_front_face(row.name).casefold())
        )
        if card is not None:
            found[row.line] = card
    return found


@transaction.atomic
def collection_import(*, owner: Any, game: Game, data: bytes | str, mode: str = "replace") -> ImportResult:
    """Read a collection file into the owner's collection of ``game``. ``replace``: the file is the whole
    collection of that game (a re-import changes nothing); ``add``: its copies come on top. Lines naming no
    card of the game are listed and skipped; an unreadable file changes nothing (ValidationError)."""
    if mode not in IMPORT_MODES:
        raise ValidationError({"mode": gettext("mode is “replace” or “add”")})
    if len(data) > MAX_BYTES:
        raise ValidationError(
            {"file": gettext("the file is larger than %(limit)s bytes") % {"limit": MAX_BYTES}}
        )
    try:
        parsed = parse_collection_csv(data)
    except CollectionFileError as error:
        # Well-formed request, content no collection layout reads: 422 on the API (config.api).
        raise Unprocessable({"file": file_error_message(error)}) from None
    result = ImportResult(layout=parsed.layout.slug)
    for problem in parsed.problems:
        result.unknown.append(
            {"line": problem.line, "text": problem.text, "reason": problem.code,
             "message": problem_message(problem.code, dict(problem.params))}
        )  # fmt: skip
    cards = _resolve(game, parsed.rows)
    totals: dict[tuple[int, str, str, bool], list[Any]] = defaultdict(lambda: [0, "", ""])
    for row in parsed.rows:
        card = cards.get(row.line)
        if card is None:
            result.unknown.append(
                {"line": row.line, "text": row.name, "reason": "unknown_card",
                 "message": problem_message("unknown_card", {"game": game.name, "name": row.name})}
            )  # fmt: skip
            continue
        result.rows_read += 1
        result.copies_read += row.count
        total = totals[(card.pk, row.set_code, row.number, row.foil)]
        total[0] += row.count
        total[1] = total[1] or row.condition
        total[2] = total[2] or row.language
    result.unknown.sort(key=lambda item: item["line"])
    existing = CollectionEntry.objects.filter(owner=owner, game=game)
    if mode == "replace":
        existing.delete()
        current: dict[tuple[int, str, str, bool], CollectionEntry] = {}
    else:
        current = {(e.card_id, e.set_code, e.number, e.foil): e for e in existing}
    new, changed = [], []
    for key, (count, condition, language) in totals.items():
        entry = current.get(key)
        if entry is not None:
            entry.count = min(entry.count + count, MAX_COPIES * 10)
            changed.append(entry)
        else:
            card_id, set_code, number, foil = key
            new.append(
                CollectionEntry(owner=owner, game=game, card_id=card_id, count=count, set_code=set_code,
                                number=number, foil=foil, condition=condition, language=language)
            )  # fmt: skip
    CollectionEntry.objects.bulk_create(new, batch_size=1000)
    CollectionEntry.objects.bulk_update(changed, ["count"], batch_size=1000)
    collection_version_bump(owner=owner, game=game)
    result.cards = len(totals)
    return result


@transaction.atomic
def collection_card_set(
    *, owner: Any, card: Card, count: int, set_code: str = "", number: str = "", foil: bool = False
) -> CollectionEntry | None:
    """Set by hand how many copies of a card (of one printing detail) the owner has; 0 removes them."""
    if not 0 <= count <= MAX_COPIES:
        raise ValidationError(
            {"count": gettext("copies are a number from 0 to %(max)s") % {"max": MAX_COPIES}}
        )
    lookup = {"owner": owner, "card": card, "set_code": set_code[:40], "number": number[:40], "foil": foil}
    collection_version_bump(owner=owner, game=card.game_id)
    if count == 0:
        CollectionEntry.objects.filter(**lookup).delete()
        return None
    entry, _ = CollectionEntry.objects.update_or_create(
        **lookup, defaults={"count": count, "game_id": card.game_id}
    )
    return entry


@transaction.atomic
def collection_settings_set(*, owner: Any, game: Game, track_printings: bool) -> CollectionSettings:
    settings, _ = CollectionSettings.objects.update_or_create(
        owner=owner,
        game=game,
        defaults={"track_printings": track_printings, "version": fresh_version()},
    )
    return settings


class DeckNotBuildable(ValidationError):
    """Marking built refused: the owner lacks copies (``lines``: [(card name, missing, held by)])."""

    def __init__(self, message: str, lines: list[tuple[str, int, tuple[tuple[int, str, int], ...]]]) -> None:
        super().__init__(message)
        self.lines = lines


@transaction.atomic
def deck_built_set(*, deck: Deck, by: Any, built: bool) -> bool:
    """Mark the owner's deck built (it then holds its copies) or take it apart. A deck is built only from
    copies no other built deck holds: otherwise DeckNotBuildable names what is missing and where it is."""
    if not deck.editable_by(by):
        raise PermissionDenied(gettext("only the deck's owner may mark it built"))
    # Lock the owner's row so two "built" clicks at once cannot both take the same last copies.
    get_user_model().objects.select_for_update().filter(pk=by.pk).first()
    if not built:
        if BuiltDeck.objects.filter(deck=deck).delete()[0]:
            collection_version_bump(owner=deck.owner_id, game=deck.game_id)
        return False
    if BuiltDeck.objects.filter(deck=deck).exists():
        return True
    sections = deck_sections(deck)
    ownership = deck_ownership_for(deck, by, sections)
    if ownership.missing:
        lines = [
            (str(card), ownership.lines[(slug, card.pk)].missing, ownership.lines[(slug, card.pk)].held_by)
            for slug, cards in sections.items()
            for card, _ in cards
            if ownership.lines[(slug, card.pk)].missing and slug != MAYBE
        ]
        raise DeckNotBuildable(
            gettext("%(count)s copies are missing to build this deck") % {"count": ownership.missing}, lines
        )
    BuiltDeck.objects.create(deck=deck, owner=deck.owner, game=deck.game)
    collection_version_bump(owner=deck.owner_id, game=deck.game_id)
    return True
