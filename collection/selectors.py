"""Reads: what a player owns, which built deck holds which copies, what a deck lacks."""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Q, QuerySet

from cards.models import Card, Game
from decks.maybe import MAYBE
from decks.models import Deck, DeckCard
from decks.ownership import DeckOwnership, LineOwnership

from .allocation import BuiltNeed, Holding, Key, allocate, deck_lines, missing_count
from .models import BuiltDeck, CollectionEntry, CollectionSettings


def tracks_printings(*, user: Any, game: Game | int) -> bool:
    game_id = game if isinstance(game, int) else game.pk
    return CollectionSettings.objects.filter(owner=user, game_id=game_id, track_printings=True).exists()


def _key(card_id: int, identity: str, track: bool) -> Key:
    return card_id if track else identity


@dataclass(frozen=True)
class Holdings:
    """A player's copies of one game, counted by key, and the built decks holding them."""

    track: bool
    owned: dict[Key, int]
    held: dict[Key, list[Holding]]
    built_ids: frozenset[int]
    rows: int = 0  # rows of the collection (printing details apart)
    copies: int = 0
    # Every row as (entry id, card's search name, card id of the game) in the collection's order: a page
    # or a name search of a 10,000-row collection is then a slice in memory and one read of its rows.
    index: tuple[tuple[int, str, str], ...] = ()

    def key(self, card: Card) -> Key:
        return _key(card.pk, card.identity, self.track)


ENTRY_ORDER = ("card__name", "card__external_id", "set_code", "number", "foil", "id")

# A cached read lives at most this long even if nothing is written (a card's identity changed by a card-data
# update is the one change no collection version sees).
HOLDINGS_SECONDS = 6 * 3600


def _state(user: Any, game_id: int) -> tuple[str | None, bool, list[tuple[int, str, Any]]]:
    """Two small reads that name the player's holdings as they are now: the collection's version (None when
    the player has never written a collection of the game) and the built decks, in building order, each
    with its name and last change (a built deck's edited list changes what it holds)."""
    settings = (
        CollectionSettings.objects.filter(owner=user, game_id=game_id)
        .values_list("version", "track_printings")
        .first()
    )
    built = list(
        BuiltDeck.objects.filter(owner=user, game_id=game_id)
        .order_by("built_at", "id")
        .values_list("deck_id", "deck__name", "deck__updated_at")
    )
    if settings is None:
        return None, False, built
    version, track = settings
    fingerprint = hashlib.sha1(
        repr([(deck_id, updated.isoformat()) for deck_id, _, updated in built]).encode(),
        usedforsecurity=False,
    ).hexdigest()[:20]
    return f"collection:{user.pk}:{game_id}:{version}:{int(track)}:{fingerprint}", track, built


def _holdings_read(user: Any, game_id: int, track: bool, built: list[tuple[int, str, Any]]) -> Holdings:
    """The whole collection of the game and the built decks' lines: two queries, counted in Python."""
    owned: dict[Key, int] = defaultdict(int)
    copies = 0
    index = []
    entries = CollectionEntry.objects.filter(owner=user, game_id=game_id).order_by(*ENTRY_ORDER)
    for pk, card_id, identity, count, search_name, external_id in entries.values_list(
        "id", "card_id", "card__identity", "count", "card__search_name", "card__external_id"
    ):
        owned[_key(card_id, identity, track)] += count
        copies += count
        index.append((pk, search_name, external_id))
    needs: dict[int, dict[Key, int]] = {deck_id: defaultdict(int) for deck_id, _, _ in built}
    if built:
        lines = DeckCard.objects.filter(deck_id__in=list(needs)).exclude(section=MAYBE)
        for deck_id, card_id, identity, count in lines.values_list(
            "deck_id", "card_id", "card__identity", "count"
        ):
            needs[deck_id][_key(card_id, identity, track)] += count
    held = allocate(owned, [BuiltNeed(deck_id, name, dict(needs[deck_id])) for deck_id, name, _ in built])
    return Holdings(
        track=track,
        owned=dict(owned),
        held=held,
        built_ids=frozenset(needs),
        rows=len(index),
        copies=copies,
        index=tuple(index),
    )


# This process's last few holdings, by the same key: a key names one state of the database, so a copy kept
# here is as right as the shared cache's and saves unpickling a 10,000-card map on every read.
_LOCAL: OrderedDict[str, Holdings] = OrderedDict()
_LOCAL_SIZE = 32
_LOCAL_LOCK = threading.Lock()


def _holdings_and_key(user: Any, game_id: int) -> tuple[Holdings, str | None]:
    key, track, built = _state(user, game_id)
    if key is not None:
        with _LOCAL_LOCK:
            have = _LOCAL.get(key)
            if have is not None:
                _LOCAL.move_to_end(key)
                return have, key
        have = cache.get(key)
        if have is None:
            have = _holdings_read(user, game_id, track, built)
            cache.set(key, have, HOLDINGS_SECONDS)
        with _LOCAL_LOCK:
            _LOCAL[key] = have
            while len(_LOCAL) > _LOCAL_SIZE:
                _LOCAL.popitem(last=False)
        return have, key
    return _holdings_read(user, game_id, track, built), key


def holdings(*, user: Any, game_id: int) -> Holdings:
    """The player's copies of a game and the built decks holding them. Read whole once per collection
    version and kept in the cache (shared by the web nodes when Redis is configured; a per-process cache is
    still never stale, as the key is the version read from the database on every call): a warm read is
    two small queries whatever the size of the collection and however many decks are built."""
    return _holdings_and_key(user, game_id)[0]


def deck_ownership_for(deck: Deck, user: Any, sections: dict[str, list[tuple[Card, int]]]) -> DeckOwnership:
    """decks.ownership's provider: each line of the deck against the reader's collection."""
    have = holdings(user=user, game_id=deck.game_id)
    order = [(slug, card, count) for slug, lines in sections.items() for card, count in lines]
    needed = [(i, row) for i, row in enumerate(order) if row[0] != MAYBE]
    considered = [(i, row) for i, row in enumerate(order) if row[0] == MAYBE]
    # Needed lines first, so a considered (maybeboard) card gets only what the deck itself leaves free.
    ordered = needed + considered
    results = deck_lines(
        deck_id=deck.pk,
        lines=[(have.key(card), count) for _, (_, card, count) in ordered],
        owned=have.owned,
        held=have.held,
    )
    shares = {i: share for (i, _), share in zip(ordered, results, strict=True)}
    lines = {
        (slug, card.pk): LineOwnership(
            owned=shares[i].owned,
            missing=shares[i].missing,
            held_by=tuple((h.deck_id, h.name, h.count) for h in shares[i].held_by),
            copies=have.owned.get(have.key(card), 0),
        )
        for i, (slug, card, _) in enumerate(order)
    }
    return DeckOwnership(
        lines=lines,
        missing=sum(shares[i].missing for i, _ in needed),
        built=deck.pk in have.built_ids if deck.owner_id == user.pk else False,
    )


def decks_missing_for(user: Any, decks: Iterable[Deck]) -> dict[int, int]:
    """decks.ownership's list provider: copies each deck lacks. Per game, the counts are cached under the
    holdings' key beside each deck's last change: a warm deck list of 200 decks reads no deck line at all,
    and an edited deck alone is counted again (one query for the lines of every deck that changed)."""
    by_game: dict[int, list[Deck]] = defaultdict(list)
    for deck in decks:
        by_game[deck.game_id].append(deck)
    result: dict[int, int] = {}
    for game_id, game_decks in by_game.items():
        have, key = _holdings_and_key(user, game_id)
        if not have.rows:
            continue  # no collection of this game: the list says nothing rather than "missing" everywhere
        known: dict[int, tuple[str, int]] = (cache.get(f"{key}:missing") if key else None) or {}
        stale = [deck for deck in game_decks if known.get(deck.pk, ("",))[0] != deck.updated_at.isoformat()]
        if stale:
            lines: dict[int, list[tuple[Key, int]]] = defaultdict(list)
            rows = (
                DeckCard.objects.filter(deck_id__in=[deck.pk for deck in stale])
                .exclude(section=MAYBE)
                .order_by("deck_id", "section", "position", "id")
                .values_list("deck_id", "card_id", "card__identity", "count")
            )
            for deck_id, card_id, identity, count in rows:
                lines[deck_id].append((card_id if have.track else identity, count))
            known = dict(known)
            for deck in stale:
                known[deck.pk] = (
                    deck.updated_at.isoformat(),
                    missing_count(
                        deck_id=deck.pk, lines=lines.get(deck.pk, ()), owned=have.owned, held=have.held
                    ),
                )
            if key:
                cache.set(f"{key}:missing", known, HOLDINGS_SECONDS)
        for deck in game_decks:
            result[deck.pk] = known[deck.pk][1]
    return result


def collection_entries(*, user: Any, game: Game, query: str = "") -> QuerySet[CollectionEntry]:
    entries = CollectionEntry.objects.filter(owner=user, game=game).select_related("card")
    if query:
        entries = entries.filter(Q(card__search_name__contains=query.casefold()) | Q(card__external_id=query))
    return entries.order_by(*ENTRY_ORDER)


def collection_entry_ids(*, have: Holdings, query: str = "") -> list[int]:
    """The rows a page of the collection lists, in order, as ``collection_entries`` would find them (a name
    containing the words, or the card's id in the game), read from the holdings' index."""
    if not query:
        return [pk for pk, _, _ in have.index]
    needle = query.casefold()
    return [pk for pk, name, external_id in have.index if needle in name or external_id == query]


def collection_entries_by_id(ids: Iterable[int]) -> list[CollectionEntry]:
    """One page's rows with their cards, in the order of ``ids``."""
    ids = list(ids)
    found = CollectionEntry.objects.select_related("card").in_bulk(ids)
    return [found[pk] for pk in ids if pk in found]


def collection_totals(*, user: Any, game: Game, have: Holdings | None = None) -> dict[str, int]:
    have = have or holdings(user=user, game_id=game.pk)
    return {"rows": have.rows, "copies": have.copies}


@dataclass(frozen=True)
class CardWhere:
    card: Card
    owned: int
    free: int
    held_by: list[Holding]


def card_where(*, user: Any, card: Card) -> CardWhere:
    have = holdings(user=user, game_id=card.game_id)
    key = have.key(card)
    held = have.held.get(key, [])
    owned = have.owned.get(key, 0)
    return CardWhere(card=card, owned=owned, free=owned - sum(h.count for h in held), held_by=held)


@dataclass(frozen=True)
class WantedCard:
    card: Card
    missing: int
    held_by: tuple[tuple[int, str, int], ...]


def deck_wants(*, deck: Deck, user: Any, sections: dict[str, list[tuple[Card, int]]]) -> list[WantedCard]:
    """The deck's missing copies, one row per card (its lines in every section added up)."""
    ownership = deck_ownership_for(deck, user, sections)
    wants: dict[int, WantedCard] = {}
    for slug, lines in sections.items():
        if slug == MAYBE:
            continue
        for card, _ in lines:
            line = ownership.lines[(slug, card.pk)]
            if line.missing:
                before = wants.get(card.pk)
                wants[card.pk] = WantedCard(
                    card=card, missing=line.missing + (before.missing if before else 0), held_by=line.held_by
                )
    return list(wants.values())


def built_decks(*, user: Any, game: Game) -> QuerySet[BuiltDeck]:
    return BuiltDeck.objects.filter(owner=user, game=game).select_related("deck").order_by("built_at", "id")
