"""The second look at deck lines no exact name matched: the spellings other tools write (decks/spelling.py)
against every card of the game by folded name and front face. Only the unmatched lines pay for it; the
game's name index is kept per process until a card of the game changes."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count, Max

from cards.models import Card, Game

from .choice import Match, choose
from .formats import ParsedEntry
from .spelling import card_keys, spellings

# (game id, card count, last change) -> folded key -> card ids; one entry per game is enough.
_INDEX: dict[int, tuple[tuple[int, object], dict[str, tuple[int, ...]]]] = {}


def name_index(game: Game) -> dict[str, tuple[int, ...]]:
    """Folded name and front face → ids of the game's cards known by it."""
    stamp = Card.objects.filter(game=game).aggregate(n=Count("pk"), last=Max("updated_at"))
    version = (stamp["n"], stamp["last"])
    cached = _INDEX.get(game.pk)
    if cached is not None and cached[0] == version:
        return cached[1]
    index: dict[str, list[int]] = defaultdict(list)
    for pk, name in Card.objects.filter(game=game).values_list("pk", "name").iterator(chunk_size=5000):
        for key in card_keys(name):
            index[key].append(pk)
    frozen = {key: tuple(ids) for key, ids in index.items()}
    _INDEX[game.pk] = (version, frozen)
    return frozen


def respelled_matches(game: Game, unmatched: dict[int, ParsedEntry]) -> dict[int, Match]:
    """For each unmatched line (by its position) that a spelling resolves: the card, or the ambiguity
    naming every card the spelling could mean. Lines no spelling resolves are left out."""
    texts: dict[int, list[str]] = {}
    for position, entry in unmatched.items():
        # An id line's own ref is a passcode, not a spelling; its readable name may be one.
        found = [text for text in ((entry.ref, entry.name) if entry.by == "name" else (entry.name,)) if text]
        if found:
            texts[position] = found
    if not texts:
        return {}
    index = name_index(game)
    wanted: dict[int, tuple[str, tuple[int, ...]]] = {}
    for position, candidates in texts.items():
        for text in candidates:
            hit = next((index[key] for key in spellings(text) if key in index), None)
            if hit:
                wanted[position] = (text, hit)
                break
    if not wanted:
        return {}
    cards = Card.objects.select_related("game").in_bulk({pk for _text, ids in wanted.values() for pk in ids})
    return {
        position: choose(text, [cards[pk] for pk in ids if pk in cards])
        for position, (text, ids) in wanted.items()
    }
