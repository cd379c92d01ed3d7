"""Writes for decks. Every save creates a DeckVersion; imports are atomic (all or nothing)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User
from cards.models import Card, Game
from rules.messages import error_message
from rules.models import BanList

from .formats import MAX_COUNT, DeckFormatError, SkippedLine, parse_deck
from .gamerules import FormatInfo, format_info
from .maybe import MAYBE
from .models import Deck, DeckCard, DeckVersion
from .resolve import ResolvedDeck, UnresolvedLine, deck_resolve
from .tags import LineTags, check_folder, check_tags, current_tags, tags_from_snapshot, tags_snapshot

Sections = dict[str, list[tuple[Card, int]]]
_UNSET: Any = object()


# --- helpers --------------------------------------------------------------------------------------


def _format_or_error(game: Game, format_slug: str) -> FormatInfo:
    if not game.has_decks:
        raise ValidationError({"game": f"{game.name} has no player decks"})
    try:
        return format_info(game.slug, format_slug)
    except KeyError as error:
        raise ValidationError({"format_slug": error_message(error)}) from None


def _clean_sections(*, game: Game, fmt: FormatInfo, sections: Sections) -> Sections:
    """Merge repeats and check every line, naming the section and card of any mistake."""
    errors: list[str] = []
    clean: Sections = {}
    for slug, lines in sections.items():
        if slug not in fmt.section_slugs and slug != MAYBE:
            errors.append(
                f"section {slug!r} is not part of {game.slug}/{fmt.slug} (its sections: "
                f"{', '.join([*fmt.section_slugs, MAYBE])})"
            )
            continue
        merged: dict[int, list[Any]] = {}
        for card, count in lines:
            if card.game_id != game.pk:
                errors.append(f"{slug}: {card} is a card of another game")
                continue
            if not isinstance(count, int) or isinstance(count, bool) or count < 1 or count > MAX_COUNT:
                errors.append(f"{slug}: the count of {card} must be between 1 and {MAX_COUNT}, not {count!r}")
                continue
            slot = merged.setdefault(card.pk, [card, 0])
            slot[1] += count
            if slot[1] > MAX_COUNT:
                errors.append(f"{slug}: {card} has more than {MAX_COUNT} copies")
        if merged:
            clean[slug] = [(card, count) for card, count in merged.values()]
    if errors:
        raise ValidationError({"sections": errors})
    # Keep the rule set's section order whatever order the caller used; the maybeboard last.
    return {slug: clean[slug] for slug in [*fmt.section_slugs, MAYBE] if slug in clean}


def _check_hero(*, game: Game, fmt: FormatInfo, hero: Card | None) -> None:
    if hero is None:
        return
    if not fmt.has_hero:
        raise ValidationError({"hero": f"{game.slug}/{fmt.slug} decks have no hero"})
    if hero.game_id != game.pk:
        raise ValidationError({"hero": f"{hero} is a card of another game"})


def _write_entries(deck: Deck, sections: Sections, tags: LineTags | None = None) -> None:
    DeckCard.objects.filter(deck=deck).delete()
    DeckCard.objects.bulk_create(
        DeckCard(
            deck=deck,
            section=slug,
            card=card,
            count=count,
            position=position,
            tags=list((tags or {}).get((slug, card.pk), [])),
        )
        for slug, lines in sections.items()
        for position, (card, count) in enumerate(lines)
    )


def snapshot_of(
    *,
    hero: Card | None,
    sections: Sections,
    co_heroes: list[Card] = (),  # type: ignore[assignment]
    tags: LineTags | None = None,
) -> dict[str, Any]:
    snapshot: dict[str, Any] = {
        "hero": [hero.pk, str(hero)] if hero else None,
        "sections": {
            slug: [[card.pk, count, str(card)] for card, count in lines] for slug, lines in sections.items()
        },
    }
    if co_heroes:
        snapshot["co_heroes"] = [[card.pk, str(card)] for card in co_heroes]
    kept = tags_snapshot(sections, tags or {})
    if kept:
        snapshot["tags"] = kept
    return snapshot


def _set_co_heroes(deck: Deck, co_heroes: list[Card]) -> None:
    if co_heroes and deck.hero is None:
        raise ValidationError(
            {"co_heroes": gettext("a partner needs a hero beside it: choose the hero first")}
        )
    fmt = _format_or_error(deck.game, deck.format_slug)
    for card in co_heroes:
        _check_hero(game=deck.game, fmt=fmt, hero=card)
    deck.co_heroes.set(co_heroes)


def _add_version(
    deck: Deck, *, by: User | None, message: str, sections: Sections, tags: LineTags | None = None
) -> DeckVersion:
    deck.current_version += 1
    deck.save(update_fields=["current_version", "updated_at"])
    return DeckVersion.objects.create(
        deck=deck,
        number=deck.current_version,
        created_by=by,
        message=message[:200],
        format_slug=deck.format_slug,
        snapshot=snapshot_of(
            hero=deck.hero, sections=sections, co_heroes=list(deck.co_heroes.all()), tags=tags
        ),
    )


def _guard_owner(deck: Deck, by: User | None) -> None:
    # Views check first; this is the backstop so no caller can write someone else's deck.
    if not deck.editable_by(by):
        raise PermissionDenied("only the deck's owner may change it")


def _check_text(field: str, value: str) -> str:
    # NUL is no character a person types, and PostgreSQL text columns cannot store it.
    if "\x00" in value:
        raise ValidationError({field: f"the {field} contains a NUL character"})
    return value


def _check_name(name: str) -> str:
    name = _check_text("name", (name or "").strip())
    if not name:
        raise ValidationError({"name": "a deck needs a name"})
    if len(name) > 200:
        raise ValidationError({"name": "a deck name has at most 200 characters"})
    return name


def _check_banlist(game: Game, banlist: BanList | None) -> BanList | None:
    if banlist is not None and banlist.game_id != game.pk:
        raise ValidationError({"banlist": f"{banlist} is a ban list of another game"})
    return banlist


def _check_visibility(visibility: str) -> str:
    if visibility not in Deck.Visibility.values:
        raise ValidationError(
            {"visibility": f"visibility must be one of {', '.join(Deck.Visibility.values)}"}
        )
    return visibility


class DeckVersionConflict(Exception):
    """A save based on an older version than the deck's current one; ``deck`` is the deck as it is now."""

    def __init__(self, deck: Deck, base_version: int) -> None:
        self.deck = deck
        super().__init__(
            f"the deck was saved elsewhere since version {base_version} (it is now at version "
            f"{deck.current_version}): reload it, or save your changes as a copy"
        )


# --- services -------------------------------------------------------------------------------------


@transaction.atomic
def deck_create(
    *,
    owner: User,
    game: Game,
    name: str,
    format_slug: str = "",
    sections: Sections | None = None,
    hero: Card | None = None,
    co_heroes: list[Card] = (),  # type: ignore[assignment]
    notes: str = "",
    visibility: str = Deck.Visibility.PRIVATE,
    banlist: BanList | None = None,
    on_date: dt.date | None = None,
    message: str = "",
    tags: LineTags | None = None,
    folder: str = "",
) -> Deck:
    fmt = _format_or_error(game, format_slug)
    clean = _clean_sections(game=game, fmt=fmt, sections=sections or {})
    _check_hero(game=game, fmt=fmt, hero=hero)
    deck = Deck.objects.create(
        owner=owner,
        game=game,
        format_slug=fmt.slug,
        name=_check_name(name),
        notes=_check_text("notes", notes or ""),
        visibility=_check_visibility(visibility),
        hero=hero,
        banlist=_check_banlist(game, banlist),
        on_date=on_date,
        folder=check_folder(folder),
    )
    clean_tags = check_tags(tags or {})
    _write_entries(deck, clean, clean_tags)
    if co_heroes:
        _set_co_heroes(deck, list(co_heroes))
    _add_version(deck, by=owner, message=message or "created", sections=clean, tags=clean_tags)
    return deck


@transaction.atomic
def deck_update(
    *,
    deck: Deck,
    by: User,
    sections: Sections | None = None,
    hero: Card | None = _UNSET,
    co_heroes: list[Card] = _UNSET,
    name: str | None = None,
    notes: str | None = None,
    visibility: str | None = None,
    format_slug: str | None = None,
    banlist: BanList | None = _UNSET,
    on_date: dt.date | None = _UNSET,
    message: str = "",
    base_version: int | None = None,
    tags: LineTags | None = None,
    folder: str | None = None,
) -> Deck:
    """Change a deck; ``sections`` (when given) replaces all of its cards. Every call makes a version.

    ``tags`` (when given) replaces every line's tags; without it a line that stays keeps its tags.
    ``base_version`` is the version the edit started from: if the deck has moved on since (another tab,
    another device), DeckVersionConflict is raised and nothing changes, so no save silently undoes another.
    """
    _guard_owner(deck, by)
    # Lock the row so two saves cannot take the same version number, then work on fresh values in the
    # caller's own instance (callers keep using the object they passed).
    Deck.objects.select_for_update().filter(pk=deck.pk).values_list("pk", flat=True).get()
    deck.refresh_from_db()
    if base_version is not None and base_version != deck.current_version:
        raise DeckVersionConflict(deck, base_version)
    fmt = _format_or_error(deck.game, format_slug if format_slug is not None else deck.format_slug)
    deck.format_slug = fmt.slug
    if name is not None:
        deck.name = _check_name(name)
    if notes is not None:
        deck.notes = _check_text("notes", notes)
    if visibility is not None:
        deck.visibility = _check_visibility(visibility)
    if banlist is not _UNSET:
        deck.banlist = _check_banlist(deck.game, banlist)
    if on_date is not _UNSET:
        deck.on_date = on_date
    if hero is not _UNSET:
        deck.hero = hero
    if folder is not None:
        deck.folder = check_folder(folder)
    _check_hero(game=deck.game, fmt=fmt, hero=deck.hero)
    clean_tags = check_tags(tags) if tags is not None else current_tags(deck)
    if sections is None:
        current: Sections = {}
        for entry in deck.entries.select_related("card"):
            current.setdefault(entry.section, []).append((entry.card, entry.count))
        sections = current
    clean = _clean_sections(game=deck.game, fmt=fmt, sections=sections)
    deck.save()
    _write_entries(deck, clean, clean_tags)
    if co_heroes is not _UNSET:
        _set_co_heroes(deck, list(co_heroes))
    elif hero is not _UNSET and hero is None:
        deck.co_heroes.clear()  # no partner without a commander
    _add_version(deck, by=by, message=message or "saved", sections=clean, tags=clean_tags)
    return deck


@transaction.atomic
def deck_restore_version(*, deck: Deck, number: int, by: User) -> Deck:
    """Bring back an older version's cards as a new version (history is never rewritten)."""
    _guard_owner(deck, by)
    version = DeckVersion.objects.filter(deck=deck, number=number).first()
    if version is None:
        raise ValidationError({"version": f"deck {deck.pk} has no version {number}"})
    snapshot = version.snapshot
    ids = {row[0] for rows in snapshot.get("sections", {}).values() for row in rows}
    if snapshot.get("hero"):
        ids.add(snapshot["hero"][0])
    cards = Card.objects.in_bulk(ids)
    missing = [
        row[2] for rows in snapshot.get("sections", {}).values() for row in rows if row[0] not in cards
    ]
    if missing:
        raise ValidationError({"version": f"these cards are no longer in the database: {', '.join(missing)}"})
    sections = {
        slug: [(cards[row[0]], row[1]) for row in rows] for slug, rows in snapshot.get("sections", {}).items()
    }
    hero = cards.get(snapshot["hero"][0]) if snapshot.get("hero") else None
    co_heroes = list(Card.objects.filter(pk__in=[row[0] for row in snapshot.get("co_heroes", [])]))
    return deck_update(
        deck=deck,
        by=by,
        sections=sections,
        hero=hero,
        co_heroes=co_heroes,
        tags=tags_from_snapshot(snapshot),
        format_slug=version.format_slug or deck.format_slug,
        message=f"restored version {number}",
    )


@transaction.atomic
def deck_copy(*, deck: Deck, by: User, name: str | None = None) -> Deck:
    """Copy a readable deck into the user's own decks; the copy starts private."""
    if not deck.readable_by(by) or not by.is_authenticated:
        raise PermissionDenied("this deck is private")
    sections: Sections = {}
    for entry in deck.entries.select_related("card").order_by("section", "position"):
        sections.setdefault(entry.section, []).append((entry.card, entry.count))
    copy = deck_create(
        tags=current_tags(deck),
        owner=by,
        game=deck.game,
        name=name or f"{deck.name} (copy)"[:200],
        format_slug=deck.format_slug,
        sections=sections,
        hero=deck.hero,
        co_heroes=list(deck.co_heroes.all()),
        notes=deck.notes,
        banlist=deck.banlist,
        on_date=deck.on_date,
        message=f"copied from deck {deck.pk} v{deck.current_version}",
    )
    copy.copied_from = deck
    copy.save(update_fields=["copied_from"])
    return copy


@transaction.atomic
def deck_delete(*, deck: Deck, by: User) -> None:
    _guard_owner(deck, by)
    deck.delete()


@dataclass
class DeckImportResult:
    deck: Deck | None
    resolved: ResolvedDeck | None
    errors: list[str] = field(default_factory=list)
    unknown: list[UnresolvedLine] = field(default_factory=list)
    # Lines read and left out on purpose: group headings, clients' metadata, comments.
    skipped: list[SkippedLine] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "deck": self.deck.pk if self.deck else None,
            "errors": self.errors,
            "unknown": [line.to_dict() for line in self.unknown],
            "skipped": [line.to_dict() for line in self.skipped],
        }


class DeckImportError(ValidationError):
    """Raised when an import is refused; ``result`` lists every problem (errors and unknown cards)."""

    def __init__(self, result: DeckImportResult) -> None:
        self.result = result
        super().__init__(
            result.errors + [line.message for line in result.unknown] or [gettext("the import failed")]
        )


def deck_import(
    *,
    owner: User,
    game: Game,
    data: str | bytes,
    fmt: str | None = None,
    filename: str | None = None,
    format_slug: str | None = None,
    name: str | None = None,
    visibility: str = Deck.Visibility.PRIVATE,
    allow_unknown: bool = False,
) -> DeckImportResult:
    """Parse and resolve a deck list, then create the deck in one short transaction.

    Parsing and resolving only read, so they run before the transaction opens: on SQLite a transaction holds
    the venue's one write lock from its first statement, and a slow list must not make every writer wait.

    Refused (DeckImportError, nothing written) when the file has errors, or when cards are unknown unless
    ``allow_unknown``: then the deck is created without them and ``result.unknown`` lists them.
    Syntax errors are never skipped: a broken line may hide cards.
    """
    if ("\x00" if isinstance(data, str) else b"\x00") in data:
        # Not a text deck list; and PostgreSQL could not even look the card names up.
        raise DeckImportError(
            DeckImportResult(None, None, [gettext("the file contains NUL characters: not a deck list")])
        )
    parsed = parse_deck(data, fmt=fmt, filename=filename)
    if parsed.game and parsed.game != game.slug:
        result = DeckImportResult(
            None,
            None,
            [
                gettext("the file is a %(file_game)s deck, not %(game)s")
                % {"file_game": parsed.game, "game": game.slug}
            ],
        )
        raise DeckImportError(result)
    if parsed.errors:
        raise DeckImportError(
            DeckImportResult(None, None, [str(error) for error in parsed.errors], skipped=parsed.skipped)
        )
    try:
        resolved = deck_resolve(game=game, parsed=parsed, format_slug=format_slug or None)
    except KeyError as error:
        raise DeckImportError(DeckImportResult(None, None, [error_message(error)])) from None
    result = DeckImportResult(None, resolved, list(resolved.errors), list(resolved.unknown), parsed.skipped)
    if resolved.errors or (resolved.unknown and not allow_unknown):
        raise DeckImportError(result)
    if not resolved.sections and resolved.hero is None:
        result.errors.append(gettext("the deck list holds no cards"))
        raise DeckImportError(result)
    with transaction.atomic():
        result.deck = _deck_create_imported(owner=owner, game=game, name=name, filename=filename,
                                            resolved=resolved, parsed=parsed, visibility=visibility)  # fmt: skip
    return result


def _deck_create_imported(
    *,
    owner: User,
    game: Game,
    name: str | None,
    filename: str | None,
    resolved: Any,
    parsed: Any,
    visibility: str,
) -> Deck:
    deck = deck_create(
        owner=owner,
        game=game,
        name=(name or resolved.name or (filename or "").rsplit(".", 1)[0] or "Imported deck")[:200],
        format_slug=resolved.format.slug,
        sections=resolved.sections,
        hero=resolved.hero,
        co_heroes=resolved.extra_heroes,
        notes=resolved.notes,
        visibility=visibility,
        message=f"imported from {parsed.source_format}"
        + (f" without {len(resolved.unknown)} unknown line(s)" if resolved.unknown else ""),
    )
    if parsed.layout is not None:
        deck.file_layout = parsed.layout.as_json()
        deck.save(update_fields=["file_layout"])
    return deck


@dataclass(frozen=True)
class ExportedDeck:
    content: bytes
    content_type: str
    filename: str


EXPORT_TYPES = {
    "ydk": ("text/plain; charset=utf-8", "ydk"),
    "ydke": ("text/plain; charset=utf-8", "txt"),
    "text": ("text/plain; charset=utf-8", "txt"),
    "csv": ("text/csv; charset=utf-8", "csv"),
    "json": ("application/json", "json"),
    "cod": ("application/xml", "cod"),
    "forge": ("text/plain; charset=utf-8", "dck"),
    "xmage": ("text/plain; charset=utf-8", "dck"),
    "pdf": ("application/pdf", "pdf"),
    # Print for play: card-size pages (decks/printing.py).
    "cards": ("application/pdf", "cards.pdf"),
}


def deck_export(
    *, deck: Deck, fmt: str, player_name: str = "", event: str = "", player_id: str = "", paper: str = "a4"
) -> ExportedDeck:
    """A deck file in one of EXPORT_TYPES. Raises ValidationError for an unknown or impossible format."""
    from .exporting import deck_list_of, render_export
    from .printing import render_print_pdf

    if fmt not in EXPORT_TYPES:
        raise ValidationError(
            {"fmt": gettext("unknown export format '%(format)s'; use one of %(choices)s")
                    % {"format": fmt, "choices": ", ".join(EXPORT_TYPES)}}
        )  # fmt: skip
    if paper not in ("a4", "letter"):
        raise ValidationError({"paper": gettext("paper is “a4” or “letter”")})
    content_type, extension = EXPORT_TYPES[fmt]
    try:
        if fmt == "cards":
            content = render_print_pdf(deck, paper=paper)
        else:
            content = render_export(
                deck_list_of(deck), fmt, deck=deck, player_name=player_name, event=event, player_id=player_id
            )
    except DeckFormatError as error:
        raise ValidationError({"fmt": str(error)}) from None
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in deck.name)[:60] or f"deck-{deck.pk}"
    return ExportedDeck(content, content_type, f"{safe}.{extension}")
