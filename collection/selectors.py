"""Reads: what a player owns, which built deck holds which copies, what a deck lacks."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet, Sum

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

    def key(self, card: Card) -> Key:
        return _key(card.pk, card.identity, self.track)


def holdings(
    *,
    user: Any,
    game_id: int,
    cards: Iterable[Card] | None = None,
    only: tuple[set[int], set[str]] | None = None,
) -> Holdings:
    """The player's copies and the built decks holding them: for ``cards`` only when given (a key's copies
    are allocated independently of every other key's, so a deck page never reads the whole collection).
    Three queries, whatever the size of the collection and however many decks are built."""
    track = tracks_printings(user=user, game=game_id)
    entries = CollectionEntry.objects.filter(owner=user, game_id=game_id)
    lines = DeckCard.objects.filter(
        deck__in=BuiltDeck.objects.filter(owner=user, game_id=game_id).values("deck")
    ).exclude(section=MAYBE)
    if cards is not None:
        cards = list(cards)
        only = ({card.pk for card in cards}, {card.identity for card in cards})
    # Past a few thousand keys an IN list costs more than reading the whole collection (and nears SQLite's
    # limit on parameters).
    if only is not None and len(only[0] if track else only[1]) <= 5000:
        ids, identities = only
        if track:
            entries, lines = entries.filter(card_id__in=ids), lines.filter(card_id__in=ids)
        else:
            entries = entries.filter(card__identity__in=identities)
            lines = lines.filter(card__identity__in=identities)
    owned: dict[Key, int] = defaultdict(int)
    for card_id, identity, count in entries.values_list("card_id", "card__identity", "count"):
        owned[_key(card_id, identity, track)] += count
    built = list(
        BuiltDeck.objects.filter(owner=user, game_id=game_id)
        .order_by("built_at", "id")
        .values_list("deck_id", "deck__name")
    )
    needs: dict[int, dict[Key, int]] = {deck_id: defaultdict(int) for deck_id, _ in built}
    for deck_id, card_id, identity, count in lines.values_list(
        "deck_id", "card_id", "card__identity", "count"
    ):
        needs[deck_id][_key(card_id, identity, track)] += count
    held = allocate(owned, [BuiltNeed(deck_id, name, needs[deck_id]) for deck_id, name in built])
    return Holdings(track=track, owned=dict(owned), held=held, built_ids=frozenset(needs))


def deck_ownership_for(deck: Deck, user: Any, sections: dict[str, list[tuple[Card, int]]]) -> DeckOwnership:
    """decks.ownership's provider: each line of the deck against the reader's collection."""
    order_cards = [card for lines in sections.values() for card, _ in lines]
    have = holdings(user=user, game_id=deck.game_id, cards=order_cards)
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
        )
        for i, (slug, card, _) in enumerate(order)
    }
    return DeckOwnership(
        lines=lines,
        missing=sum(shares[i].missing for i, _ in needed),
        built=deck.pk in have.built_ids if deck.owner_id == user.pk else False,
    )


def decks_missing_for(user: Any, decks: Iterable[Deck]) -> dict[int, int]:
    """decks.ownership's list provider: copies each deck lacks, per game one collection read and one read of
    all the decks' lines."""
    by_game: dict[int, list[int]] = defaultdict(list)
    for deck in decks:
        by_game[deck.game_id].append(deck.pk)
    result: dict[int, int] = {}
    for game_id, deck_ids in by_game.items():
        rows = list(
            DeckCard.objects.filter(deck_id__in=deck_ids)
            .exclude(section=MAYBE)
            .order_by("deck_id", "section", "position", "id")
            .values_list("deck_id", "card_id", "card__identity", "count")
        )
        only = ({row[1] for row in rows}, {row[2] for row in rows})
        have = holdings(user=user, game_id=game_id, only=only)
        if not have.owned and not CollectionEntry.objects.filter(owner=user, game_id=game_id).exists():
            continue  # no collection of this game: the list says nothing rather than "missing" everywhere
        lines: dict[int, list[tuple[Key, int]]] = defaultdict(list)
        track = have.track
        for deck_id, card_id, identity, count in rows:
            lines[deck_id].append((card_id if track else identity, count))
        for deck_id in deck_ids:
            result[deck_id] = missing_count(
                deck_id=deck_id, lines=lines.get(deck_id, ()), owned=have.owned, held=have.held
            )
    return result


def collection_entries(*, user: Any, game: Game, query: str = "") -> QuerySet[CollectionEntry]:
    entries = CollectionEntry.objects.filter(owner=user, game=game).select_related("card")
    if query:
        entries = entries.filter(Q(card__search_name__contains=query.casefold()) | Q(card__external_id=query))
    return entries.order_by("card__name", "card__external_id", "set_code", "number", "foil", "id")


def collection_totals(*, user: Any, game: Game) -> dict[str, int]:
    entries = CollectionEntry.objects.filter(owner=user, game=game)
    return {"rows": entries.count(), "copies": entries.aggregate(n=Sum("count"))["n"] or 0}


@dataclass(frozen=True)
class CardWhere:
    card: Card
    owned: int
    free: int
    held_by: list[Holding]


def card_where(*, user: Any, card: Card) -> CardWhere:
    have = holdings(user=user, game_id=card.game_id, cards=[card])
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
