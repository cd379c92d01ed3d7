"""The second look at deck lines no exact name matched: the spellings other tools write (decks/spelling.py)
against every card of the game by folded name and front face. Only the unmatched lines pay for it; the
game's name index is kept per process until a card of the game changes.

A line none of that finds may still be a near miss ("Ash Blosom"): ``near_misses`` offers the one card it
is clearly closest to, or nothing when two cards are about as close (a guess would be worse than none)."""

from __future__ import annotations

import difflib
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Max

from cards.models import Card, Game

from .choice import Match, choose
from .formats import ParsedEntry
from .spelling import card_keys, fold, spellings, undecorated

# At most this many unknown lines of one import get a "did you mean": each costs a scan of the game's
# names, and a hostile paste of thousands of junk lines must stay cheap.
MAX_SUGGESTIONS = 10
# How alike (difflib's ratio) a name must be to be offered, and by how much it must beat the next one.
SUGGEST_CUTOFF = 0.8
SUGGEST_MARGIN = 0.04
MAX_SUGGEST_LENGTH = 150


@dataclass(frozen=True)
class NameIndex:
    """Folded full names and, apart, the front faces of multi-face cards, each → ids of the cards so known.
    A full name outranks a front face: "Sol Ring" is the card, not the art-series "Sol Ring // Sol Ring"."""

    full: dict[str, tuple[int, ...]]
    front: dict[str, tuple[int, ...]]
    # Full keys by length, for near-miss lookups that only compare names of about the right length.
    by_length: dict[int, tuple[str, ...]]

    def get(self, key: str) -> tuple[int, ...] | None:
        return self.full.get(key) or self.front.get(key)


# (game id, card count, last change) -> index; one entry per game is enough.
_INDEX: dict[int, tuple[tuple[int, object], NameIndex]] = {}


def name_index(game: Game) -> NameIndex:
    stamp = Card.objects.filter(game=game).aggregate(n=Count("pk"), last=Max("updated_at"))
    version = (stamp["n"], stamp["last"])
    cached = _INDEX.get(game.pk)
    if cached is not None and cached[0] == version:
        return cached[1]
    full: dict[str, list[int]] = defaultdict(list)
    front: dict[str, list[int]] = defaultdict(list)
    rows = Card.objects.filter(game=game).values_list("pk", "name")
    for pk, name in rows.iterator(chunk_size=5000):
        keys = card_keys(name)
        full[keys[0]].append(pk)
        for key in keys[1:]:
            front[key].append(pk)
    lengths: dict[int, list[str]] = defaultdict(list)
    for key in full:
        lengths[len(key)].append(key)
    index = NameIndex(
        {key: tuple(ids) for key, ids in full.items()},
        {key: tuple(ids) for key, ids in front.items()},
        {length: tuple(keys) for length, keys in lengths.items()},
    )
    _INDEX[game.pk] = (version, index)
    return index


def respelled_matches(game: Game, unmatched: dict[int, ParsedEntry]) -> dict[int, Match]:
    """For each unmatched line (by its position) that a spelling resolves: the card, or the ambiguity
    naming every card the spelling could mean. Lines no spelling resolves are left out."""
    texts = _texts(unmatched)
    if not texts:
        return {}
    index = name_index(game)
    wanted: dict[int, tuple[str, tuple[int, ...]]] = {}
    for position, candidates in texts.items():
        hit = _lookup(index, candidates)
        if hit:
            wanted[position] = hit
    if not wanted:
        return {}
    cards = Card.objects.select_related("game").in_bulk({pk for _text, ids in wanted.values() for pk in ids})
    return {
        position: choose(text, [cards[pk] for pk in ids if pk in cards])
        for position, (text, ids) in wanted.items()
    }


def _texts(unmatched: dict[int, ParsedEntry]) -> dict[int, list[str]]:
    texts: dict[int, list[str]] = {}
    for position, entry in unmatched.items():
        # An id line's own ref is a passcode, not a spelling; its readable name may be one.
        found = [text for text in ((entry.ref, entry.name) if entry.by == "name" else (entry.name,)) if text]
        if found:
            texts[position] = found
    return texts


def _lookup(index: NameIndex, candidates: list[str]) -> tuple[str, tuple[int, ...]] | None:
    # Every spelling by full name first, then by front face: a decorated "Sol Ring (C21) 263 *F*" is the
    # card named "Sol Ring" even though an art-series card's front face reads the same.
    keyed = [(text, spellings(text)) for text in candidates]
    for table in (index.full, index.front):
        for text, keys in keyed:
            hit = next((table[key] for key in keys if key in table), None)
            if hit:
                return text, hit
    return None


def near_misses(game: Game, unknown: dict[int, ParsedEntry]) -> dict[int, str]:
    """For unknown name lines (by position): the one card name each is clearly a misspelling of. Lines with
    no close name, or with two names about as close, get none."""
    texts = {position: words[0] for position, words in _texts(unknown).items()}
    if not texts:
        return {}
    index = name_index(game)
    found: dict[int, int] = {}
    for position, text in list(texts.items())[:MAX_SUGGESTIONS]:
        key = fold(undecorated(text))
        if not key or len(key) > MAX_SUGGEST_LENGTH:
            continue
        best = _closest(index, key)
        if best is not None:
            found[position] = best
    names = dict(Card.objects.filter(pk__in=set(found.values())).values_list("pk", "name"))
    return {position: names[pk] for position, pk in found.items() if pk in names}


def _closest(index: NameIndex, key: str) -> int | None:
    spread = max(2, len(key) // 5)
    pool = [
        k
        for length in range(len(key) - spread, len(key) + spread + 1)
        for k in index.by_length.get(length, ())
    ]
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(key)
    scored: list[tuple[float, str]] = []
    for candidate in pool:
        matcher.set_seq1(candidate)
        if matcher.real_quick_ratio() < SUGGEST_CUTOFF or matcher.quick_ratio() < SUGGEST_CUTOFF:
            continue
        ratio = matcher.ratio()
        if ratio >= SUGGEST_CUTOFF:
            scored.append((ratio, candidate))
    if not scored:
        return None
    scored.sort(reverse=True)
    if len(scored) > 1 and scored[0][0] - scored[1][0] < SUGGEST_MARGIN:
        return None  # two names about as close: no guess
    ids = index.full[scored[0][1]]
    return min(ids)
