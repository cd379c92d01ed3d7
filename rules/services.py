"""Rules writes and the Django-facing validation service (Card rows in, engine report out)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q

from cards.models import Card, Game
from games.registry import FormatRules, with_house_sideboard

from .engine import (
    BanListInfo,
    CardInfo,
    Deck,
    Report,
    Swap,
    UnknownCard,
    Violation,
    apply_sideboard,
    validate_deck,
)
from .engine import default_registry as registry
from .lflist import LfIssue, LfList, LflistError, LflistRead, read_lflist
from .messages import KeyedValidationError, refusal
from .models import BanList, BanListEntry
from .namelist import looks_like_namelist, read_namelist
from .selectors import banlist_in_effect, banlist_info


def card_info(card: Card) -> CardInfo:
    """The engine's view of a Card row."""
    return CardInfo(
        key=card.external_id,
        name=card.name,
        identity=card.identity or card.name,
        card_type=card.card_type,
        subtypes=tuple(card.subtypes or ()),
        level=card.level,
        cost=card.cost,
        attributes=card.attributes or {},
        deck_buildable=card.deck_buildable,
        is_token=card.is_token,
        text=card.text or "",
    )


def _content_hash(lst: LfList) -> str:
    body = "\n".join(f"{e.external_id}:{e.limit}" for e in sorted(lst.entries, key=lambda e: e.external_id))
    return hashlib.sha256(f"{lst.whitelist}\n{body}".encode()).hexdigest()


@dataclass(frozen=True)
class ImportedList:
    banlist: BanList
    created: bool
    # Lines the reader skipped or read leniently (as EDOPro does): keys with params, worded at the edge.
    warnings: tuple[LfIssue, ...] = ()


def _read_banlists(text: str) -> tuple[LflistRead, bool]:
    """The lists of an EDOPro lflist.conf or a name-keyed list (rules/namelist.py), and whether by name."""
    by_name = looks_like_namelist(text)
    try:
        return (read_namelist(text) if by_name else read_lflist(text)), by_name
    except LflistError as exc:
        raise refusal(exc) from None


def _cards_for_entries(game: Game, keys: set[str], by_name: bool) -> dict[str, Card]:
    """Cards by passcode (EDOPro) or by case-insensitive name (name-keyed lists), chunked for SQLite."""
    cards: dict[str, Card] = {}
    wanted = sorted(k.casefold() for k in keys) if by_name else sorted(keys)
    for chunk_start in range(0, len(wanted), 900):  # SQLite caps the number of query parameters
        chunk = wanted[chunk_start : chunk_start + 900]
        if by_name:
            rows = Card.objects.filter(game=game, search_name__in=chunk).order_by("external_id")
            for card in rows:
                cards.setdefault(card.search_name, card)
        else:
            cards.update({c.external_id: c for c in Card.objects.filter(game=game, external_id__in=chunk)})
    return cards


def _region_from_name(game: Game, name: str) -> str:
    try:
        return registry().game(game.slug).region_of(name)
    except KeyError:
        return ""


def _undated_dates(lists: Sequence[LfList], base: date) -> dict[int, date]:
    """Dates for the lists that carry none (no ``#date`` line, no date in the name: ``!JTP (Original)``):
    by the file's order, newest first as EDOPro and YGOPro list them, so the first undated list gets
    ``base`` and each next one a day earlier (the format's "list in effect" then prefers the file's first)."""
    undated = [index for index, lst in enumerate(lists) if lst.effective_date is None]
    return {index: base - timedelta(days=step) for step, index in enumerate(undated)}


def _same_list(game: Game, name: str, when: date, digest: str, *, derived: bool) -> BanList | None:
    """A stored version this import repeats: the same name, date and entries; for a date not given by the
    importer (from the name or the file's order), also the name's latest version with the same entries (the
    undated list re-imported on another day, the second source re-imported)."""
    versions = BanList.objects.filter(game=game, name=name)
    same_day = versions.filter(effective_date=when, content_hash=digest).first()
    if same_day is not None or not derived:
        return same_day
    latest = versions.order_by("-effective_date", "-created_at").first()
    return latest if latest is not None and latest.content_hash == digest else None


@transaction.atomic
def banlist_import(
    *,
    game: Game,
    text: str,
    source: str = "",
    effective_date: date | None = None,
    region: str | None = None,
    names: Sequence[str] | None = None,
    dates: Mapping[str, date] | None = None,
) -> list[ImportedList]:
    """Import every list of an EDOPro lflist.conf or a name-keyed list text, all or nothing.

    A list's effective date is ``dates[its name]`` if given, else ``effective_date`` (every list), else its
    ``#date`` line, else the date in its name (``2020.04 TCG`` → 2020-04-01). A list with none of these
    (``!MDC Season 5``) is dated by the file's order: the first such list today, each next one a day earlier.
    The region is ``region`` if given, else the list's ``#region`` line, else the region the game's rule set
    finds in its name (``[game] banlist_regions`` / ``banlist_region_names``).
    Stored lists never change: the same name and entries as a stored version is recognised and not
    duplicated; the same name with other entries (a second source, an updated community list) becomes a new
    version dated after the name's latest one, so selecting the list by name gives the newest. Only a date
    given by the importer (``dates``, ``effective_date``) already taken by other entries is refused.
    Each result carries the warnings about lines read leniently, as EDOPro reads them.
    """
    read, by_name = _read_banlists(text)
    lists = read.lists
    if names:
        wanted = set(names)
        lists = [lst for lst in lists if lst.name in wanted]
        missing = wanted - {lst.name for lst in lists}
        if missing:
            raise KeyedValidationError(
                "banlist_import.missing_lists",
                names=", ".join(sorted(missing)),
                known=", ".join(lst.name for lst in read.lists),
            )
    dates = dict(dates or {})
    unknown = set(dates) - {lst.name for lst in lists}
    if unknown:
        raise KeyedValidationError(
            "banlist_import.missing_lists",
            names=", ".join(sorted(unknown)),
            known=", ".join(lst.name for lst in read.lists),
        )
    by_order = _undated_dates(lists, date.today())
    cards = _cards_for_entries(game, {e.external_id for lst in lists for e in lst.entries}, by_name)
    results: list[ImportedList] = []
    for position, lst in enumerate(lists):
        # Lines before the first list belong to no list; the first list's report shows them.
        warnings = tuple((read.warnings if position == 0 else []) + lst.warnings)
        explicit = dates.get(lst.name) or effective_date
        when = explicit or lst.effective_date or by_order[position]
        digest = _content_hash(lst)
        existing = _same_list(game, lst.name, when, digest, derived=explicit is None)
        if existing is not None:
            results.append(ImportedList(existing, False, warnings))
            continue
        taken = BanList.objects.filter(game=game, name=lst.name, effective_date__gte=when)
        if explicit is not None and taken.filter(effective_date=when).exists():
            raise KeyedValidationError("banlist_import.immutable", list=lst.name, date=when.isoformat())
        latest = taken.order_by("-effective_date").first()
        if latest is not None and explicit is None:
            # Another source of a list already stored: a new version after the latest, never an edit.
            when = latest.effective_date + timedelta(days=1)
        results.append(
            ImportedList(
                _banlist_create(game, lst, when, region, source, digest, cards, by_name), True, warnings
            )
        )
    return results


def _banlist_create(
    game: Game,
    lst: LfList,
    when: date,
    region: str | None,
    source: str,
    digest: str,
    cards: dict[str, Card],
    by_name: bool,
) -> BanList:
    banlist = BanList.objects.create(
        game=game,
        name=lst.name,
        effective_date=when,
        region=(region or lst.region or _region_from_name(game, lst.name)).casefold(),
        is_whitelist=lst.whitelist,
        source=source[:255],
        content_hash=digest,
    )
    found = [(e, cards.get(e.external_id.casefold() if by_name else e.external_id)) for e in lst.entries]
    BanListEntry.objects.bulk_create(
        BanListEntry(
            banlist=banlist,
            external_id=e.external_id,
            card=card,
            identity=card.identity if card is not None else "",
            name=e.name or (card.name if card is not None else ""),
            limit=e.limit,
        )
        for e, card in found
    )
    return banlist


def banlist_choose(
    *, game: Game, fmt: FormatRules, banlist: BanList | str | None = None, on_date: date | None = None
) -> BanList | None:
    """The explicit list (object or name), else the format's list in effect on ``on_date`` (default today)."""
    if isinstance(banlist, BanList):
        return banlist
    if isinstance(banlist, str) and banlist:
        found = BanList.objects.filter(game=game, name=banlist).order_by("-effective_date").first()
        if found is None:
            raise KeyedValidationError("banlist.unknown_name", name=banlist, game=game.slug)
        return found
    if fmt.banlist is None:
        return None
    return banlist_in_effect(game=game, regions=fmt.banlist.regions, on_date=on_date or date.today())


def _infos(entries: Iterable[tuple[Card, int]]) -> list[tuple[CardInfo, int]]:
    return [(card_info(card), count) for card, count in entries]


def _deck(
    sections: dict[str, list[tuple[Card, int]]],
    hero: Card | None,
    pool: list[tuple[Card, int]] | None,
    unknown: Iterable[UnknownCard] = (),
    extra_heroes: Iterable[Card] = (),
) -> Deck:
    return Deck(
        sections={slug: _infos(entries) for slug, entries in sections.items()},
        hero=card_info(hero) if hero is not None else None,
        pool=_infos(pool) if pool is not None else None,
        unknown=list(unknown),
        extra_heroes=[card_info(c) for c in extra_heroes],
    )


def _format(
    game: Game, format_slug: str, on_date: date | None = None, *, house_sideboard: bool = False
) -> FormatRules:
    """The format's version in force on ``on_date`` (today when not given): rules change on dates too.
    ``house_sideboard``: an event allows a sideboard as a house rule, so a format without one gains it."""
    try:
        fmt = registry().format(game.slug, format_slug, on_date or date.today())
    except KeyError as exc:
        raise refusal(exc) from None
    return with_house_sideboard(fmt) if house_sideboard else fmt


def _banlist_context(
    game: Game, fmt: FormatRules, banlist: BanList | str | None, on_date: date | None, report: Report
) -> BanListInfo | None:
    chosen = banlist_choose(game=game, fmt=fmt, banlist=banlist, on_date=on_date)
    if chosen is None and fmt.banlist is not None and not fmt.banlist.whitelist:
        when = on_date or date.today()
        report.warnings.append(
            Violation(
                "banlist_limit",
                "banlist_limit.no_list",
                {"format": fmt.words(), "date": when.isoformat()},
            )
        )
    return banlist_info(chosen) if chosen is not None else None


def deck_validate(
    *,
    game: Game,
    format_slug: str,
    sections: dict[str, list[tuple[Card, int]]],
    hero: Card | None = None,
    pool: list[tuple[Card, int]] | None = None,
    banlist: BanList | str | None = None,
    on_date: date | None = None,
    unknown: Iterable[UnknownCard] = (),
    extra_violations: Iterable[Violation] = (),
    extra_heroes: Iterable[Card] = (),
    house_sideboard: bool = False,
) -> Report:
    """Validate a deck of Card rows on ``on_date`` (today when not given): the format's version and the ban
    list in force then. ``pool`` is the registered pool of a limited event; ``extra_heroes`` are hero cards
    given beyond the first; ``house_sideboard``: the event allows a sideboard as a house rule
    (``with_house_sideboard``). Raises ValidationError only for an unknown format or ban list name."""
    fmt = _format(game, format_slug, on_date, house_sideboard=house_sideboard)
    report = Report()
    report.violations.extend(extra_violations)
    info = _banlist_context(game, fmt, banlist, on_date, report) if fmt.has_decks else None
    try:
        deck = _deck(sections, hero, pool, unknown, extra_heroes)
        report.extend(validate_deck(deck, fmt, banlist=info))
    except ValueError as exc:  # NoDecksError / RulesError: nothing to judge, say why
        raise refusal(exc) from None
    return report


def deck_sideboard(
    *,
    game: Game,
    format_slug: str,
    sections: dict[str, list[tuple[Card, int]]],
    swaps: list[Swap],
    hero: Card | None = None,
    banlist: BanList | str | None = None,
    on_date: date | None = None,
    pool: list[tuple[Card, int]] | None = None,
    house_sideboard: bool = False,
    extra_heroes: Iterable[Card] = (),
) -> tuple[dict[str, list[tuple[str, int]]], Report]:
    """Apply swaps to a registered deck; returns the deck as {section: [(external_id, count)]} and a report.

    A refused request (any ``sideboard_swap`` in the report, which then is not legal) returns the deck
    exactly as given. ``pool``: the player's registered pool in a limited event (a format with ``pool``) —
    pass it, or every limited deck is judged as having none. ``on_date`` picks the format's version and the
    ban list (the tournament's date); ``house_sideboard`` and ``extra_heroes`` (partner commanders) as for
    ``deck_validate``."""
    fmt = _format(game, format_slug, on_date, house_sideboard=house_sideboard)
    report = Report()
    info = _banlist_context(game, fmt, banlist, on_date, report)
    new, swap_report = apply_sideboard(
        _deck(sections, hero, pool, (), extra_heroes), swaps, fmt, banlist=info
    )
    report.extend(swap_report)
    return {slug: [(c.key, n) for c, n in entries if n] for slug, entries in new.sections.items()}, report


def cards_by_refs(*, game: Game, refs: Iterable[str]) -> dict[str, Card]:
    """Cards of ``game`` by database id, external id or exact (casefolded) name, in one query."""
    refs = [str(r) for r in refs]
    ids = [int(r) for r in refs if r.isdecimal() and len(r) < 10]
    folded = [r.casefold() for r in refs]
    found: dict[str, Card] = {}
    rows = list(
        Card.objects.filter(game=game).filter(
            Q(pk__in=ids) | Q(external_id__in=refs) | Q(search_name__in=folded)
        )
    )
    by_ext = {c.external_id: c for c in rows}
    by_pk = {str(c.pk): c for c in rows}
    by_name: dict[str, Card] = {}
    for c in sorted(rows, key=lambda c: (c.external_id != c.identity, c.external_id)):
        by_name.setdefault(c.search_name, c)
    for ref in refs:
        card = by_ext.get(ref) or by_pk.get(ref) or by_name.get(ref.casefold())
        if card is not None:
            found[ref] = card
    return found


# --- ban lists in a card update from the community's files (cards/updates.py calls these) ---------------


def banlist_changes(*, game: Game, text: str) -> list[dict[str, Any]]:
    """What importing a ban-list file would do, list by list: "new" (no stored list of that name),
    "changed" (entries differ from the name's latest version) or "same"; writes nothing."""
    read, _by_name = _read_banlists(text)
    out = []
    for lst in read.lists:
        latest = (
            BanList.objects.filter(game=game, name=lst.name)
            .order_by("-effective_date", "-created_at")
            .first()
        )
        status = (
            "new" if latest is None else ("same" if latest.content_hash == _content_hash(lst) else "changed")
        )
        out.append({"name": lst.name, "status": status, "entries": len(lst.entries)})
    return out


def banlists_from_update(*, game: Game, text: str, source: str) -> list[int]:
    """Import a ban-list file fetched by a card update (after its cards are written, so passcodes resolve);
    the ids of the lists it created, for the update's one-step undo."""
    return [item.banlist.pk for item in banlist_import(game=game, text=text, source=source) if item.created]


def banlists_undo_update(*, game: Game, ids: list[int]) -> None:
    """Remove the lists a card update created (refused with ProtectedError while a tournament uses one)."""
    BanList.objects.filter(game=game, pk__in=ids).delete()
