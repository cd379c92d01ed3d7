"""An in-process index of one game's cards: rows in name order; word postings for names and rules text
(word -> rows, the distinct words joined so a piece of a word is one ``str.find`` over the vocabulary);
posting sets by attribute value, type-line word and colour letter; sorted arrays for numbers; the ban
list's entries for legality; the folded rules text as one corpus in which a phrase is checked.

The query tree is evaluated over row numbers: a term narrows the candidates the terms before it left
(``and``), alternatives are unions (``or``), ``-`` takes away from the candidates. A term with no shortcut
is tested row by row with the evaluator's leaf (``evaluate._leaf``), the one a typed search and a rule
set's FILTER both compile to; tests check every shortcut against that leaf on the real databases.

Why this and not the database's full-text index (FTS5 on SQLite, tsvector/pg_trgm on PostgreSQL): measured
side by side (bench/bench_search_language.py prints both), matching here is faster than a bare FTS5 table
on every query kind — name words ~0.02 ms against 0.07, a rules-text phrase ~0.15 against 0.25, and
attributes, negation, ``or`` and legality 10-100 times faster, since FTS5 indexes words only and scans the
rest. The language's word semantics (a piece inside a word: "lim" finds "Lím-Dûl", "eyes" finds
"Blue-Eyes") are neither FTS5's token prefixes nor tsvector's stemmed lexemes, so a database index would
answer differently on SQLite and PostgreSQL and need a second evaluator in SQL for everything else.
"""

from __future__ import annotations

import threading
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from .evaluate import (
    Context,
    _leaf,
    as_number,
    color_letters,
    compile_query,
    norm,
    parse_number,
    resolve,
    typeline_text,
)
from .fields import FieldTable
from .query import And, Not, Or, Term
from .text import fold


@dataclass(slots=True)
class Row:
    """One card as the index keeps it (what the evaluator reads, nothing more)."""

    pk: int
    external_id: str
    identity: str
    name: str
    card_type: str
    subtypes: list[str]
    level: int | None
    cost: int | None
    attributes: dict[str, Any]
    text: str
    deck_buildable: bool
    is_token: bool
    printings: list[tuple[str, str, str]] = field(default_factory=list)
    folded: dict[str, str] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return self.external_id


class _Corpus:
    """Every row's folded text joined by a separator: a row's own text is a slice (phrases are checked
    on the few rows the word postings leave)."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.starts: list[int] = []
        pos = 0
        for text in texts:
            self.starts.append(pos)
            pos += len(text) + 1
        self.starts.append(pos)
        self.blob = "\x00".join(texts)

    def text(self, row: int) -> str:
        return self.blob[self.starts[row] : self.starts[row + 1] - 1]


# Pieces of words already looked up, per field: as-you-type asks "b", "bl", "blu", "blue" in a row, and
# a bench or a busy page asks the same pieces again. Bounded: a piece is a few sets of row numbers.
_PIECE_CACHE = 4096


class _Words:
    """One text field's folded words: word -> the rows holding it (a tuple of row numbers: 8 bytes a
    posting, where a set would cost five times more on Magic's rules text), and the distinct words joined
    so the words *containing* a piece are found by one C-speed ``str.find`` over the vocabulary (a few
    hundred kB) instead of over every card's text.

    A name or rules-text word matches where it appears inside a word of the card ("lim" in "Lím-Dûl",
    "eyes" in "Blue-Eyes"): that is "the rows of every vocabulary word containing the piece", exactly
    (a piece holds no space, so it is inside the text only if it is inside one of its words)."""

    def __init__(self, texts: Sequence[str]) -> None:
        building: dict[str, list[int]] = {}
        for i, text in enumerate(texts):
            for word in set(text.split()):
                building.setdefault(word, []).append(i)
        self.words = sorted(building)
        self.postings: dict[str, tuple[int, ...]] = {w: tuple(building[w]) for w in self.words}
        self.starts: list[int] = []
        pos = 0
        for word in self.words:
            self.starts.append(pos)
            pos += len(word) + 1
        self.blob = "\x00".join(self.words)
        self._containing: dict[str, frozenset[int]] = {}

    def exactly(self, word: str) -> frozenset[int]:
        """Rows holding ``word`` whole (cached like pieces: a set answers ``&`` from its smaller side)."""
        key = "\x00" + word  # apart from the piece of the same letters in the cache
        found = self._containing.get(key)
        if found is None:
            found = frozenset(self.postings.get(word, ()))
            if len(self._containing) >= _PIECE_CACHE:
                self._containing.clear()
            self._containing[key] = found
        return found

    def containing(self, piece: str) -> frozenset[int]:
        """Rows with a word containing ``piece`` (one word, folded)."""
        found = self._containing.get(piece)
        if found is not None:
            return found
        rows: set[int] = set()
        if piece and "\x00" not in piece:
            blob, starts, words, postings, i = self.blob, self.starts, self.words, self.postings, 0
            while (i := blob.find(piece, i)) != -1:
                k = bisect_right(starts, i) - 1
                rows.update(postings[words[k]])
                # On to the next word: one hit per word is enough.
                i = starts[k + 1] if k + 1 < len(starts) else len(blob)
        found = frozenset(rows)
        if len(self._containing) >= _PIECE_CACHE:
            self._containing.clear()
        self._containing[piece] = found
        return found

    def phrase_candidates(self, pieces: Sequence[str]) -> AbstractSet[int] | None:
        """Rows that may hold the words ``pieces`` side by side: the inner words whole, the first and the
        last inside a word (the phrase may start in the middle of one). None: no word to narrow by."""
        if not pieces:
            return None
        if len(pieces) == 1:
            return set(self.containing(pieces[0]))
        sets = [self.containing(pieces[0]), self.containing(pieces[-1])]
        sets.extend(self.exactly(w) for w in pieces[1:-1])
        sets.sort(key=len)
        out = sets[0]
        for other in sets[1:]:
            out = out & other
            if not out:
                break
        return set(out)


class CardIndex:
    def __init__(self, rows: list[Row], table: FieldTable, kept: frozenset[str] | None = None) -> None:
        self.rows = rows
        self.table = table
        # The attribute keys the rows keep (None: every one); a FILTER term reading another one is refused
        # rather than answered wrongly.
        self.kept = kept
        type_sources = table.keywords["type"].extra_sources
        for row in rows:
            row.folded = {"name": fold(row.name), "type": typeline_text(row, type_sources)}
        self.all = frozenset(range(len(rows)))
        # Rules text folded lives in its corpus only (the largest field: one copy, not two); a row tested
        # on its own reads its slice of the corpus.
        self._corpora: dict[str, _Corpus] = {"text": _Corpus([fold(row.text) for row in rows])}
        self._words: dict[str, _Words] = {}
        self._exact_names: dict[str, list[int]] = {}
        self._ids: dict[str, list[int]] = {}
        self._identities: dict[str, list[int]] = {}
        for i, row in enumerate(rows):
            self._exact_names.setdefault(row.folded["name"], []).append(i)
            self._ids.setdefault(row.external_id, []).append(i)
            self._identities.setdefault(row.identity, []).append(i)
        # Built on first use, per field: value -> rows (choices, type-line words, colour letters) and
        # (number, row) sorted (numbers). The anchors' way: a term is a dict lookup or a bisection.
        self._postings: dict[str, dict[Any, frozenset[int]]] = {}
        self._numbers: dict[str, tuple[list[float], list[int]]] = {}
        self._lock = threading.Lock()

    def corpus(self, source: str) -> _Corpus:
        corpus = self._corpora.get(source)
        if corpus is None:
            corpus = self._corpora[source] = _Corpus([row.folded[source] for row in self.rows])
        return corpus

    def folded(self, row: int, source: str) -> str:
        if source == "text":
            return self._corpora["text"].text(row)
        return self.rows[row].folded[source]

    def words(self, source: str) -> _Words:
        words = self._words.get(source)
        if words is None:
            with self._lock:  # built once per field even when two requests ask at once
                words = self._words.get(source)
                if words is None:
                    corpus = self.corpus(source)
                    words = self._words[source] = _Words([corpus.text(i) for i in range(len(self.rows))])
        return words

    def with_name(self, name: str) -> list[int]:
        """Rows whose folded name is exactly ``name`` folded (exact matches rank first)."""
        return self._exact_names.get(fold(name), [])

    def printings_of(self, identity: str) -> list[int]:
        """Every row of a card identity (alternate artworks, reprints), in name order."""
        return self._identities.get(identity, [])

    def search(self, node: object, context: Context) -> list[int]:
        """Row numbers matching, in the index's (name) order."""
        if node is None:
            return list(range(len(self.rows)))
        return sorted(self._eval(node, self.all, context))

    def _eval(self, node: object, candidates: AbstractSet[int], context: Context) -> AbstractSet[int]:
        # ``candidates`` starts as the frozen set of every row and is never changed in place: each term
        # makes a new, smaller set (no copy of every row per search).
        if not candidates:
            return candidates
        if isinstance(node, And):
            # Cheap, narrowing terms first: words found in a posting, then the rest on what is left.
            for item in sorted(node.items, key=_cost):
                candidates = self._eval(item, candidates, context)
                if not candidates:
                    break
            return candidates
        if isinstance(node, Or):
            out: AbstractSet[int] = set()
            for item in node.items:
                out |= self._eval(item, candidates - out, context)
            return out
        if isinstance(node, Not):
            return candidates - self._eval(node.item, candidates, context)
        assert isinstance(node, Term)
        if node.source:
            # A FILTER's condition (an accept rule, an archetype rule): its own test on the rows left.
            key = node.source[5:] if node.source.startswith("attr.") else None
            if key is not None and self.kept is not None and key not in self.kept:
                raise ValueError(f"the index keeps no attribute {key!r}: judge this FILTER card by card")
            test = compile_query(node, None)
            rows = self.rows
            return {i for i in candidates if test(rows[i])}
        spec = resolve(node, self.table)
        fast = self._text_words(node, spec.kind, spec.source, candidates)
        if fast is None:
            fast = self._posted(node, spec, candidates)
        if fast is None and spec.kind == "legality":
            fast = self._legal(node, spec, candidates, context)
        if fast is not None:
            return fast
        test = _leaf(node, spec, context)
        rows = self.rows
        return {i for i in candidates if test(rows[i])}

    def _text_words(
        self, term: Term, kind: str, source: str, candidates: AbstractSet[int]
    ) -> AbstractSet[int] | None:
        """Name and rules-text words, phrases and exact names from the word postings (None: not such a
        term). Words need nothing more; a phrase is checked on the rows holding all its words."""
        if kind not in {"name", "text"} or term.kind == "regex":
            return None
        if term.kind == "exact" or term.op == "=":
            if source != "name":
                return None
            return candidates.intersection(self._exact_names.get(fold(term.value), ()))
        if term.op != ":":
            return None
        words = self.words(source)
        folded = fold(term.value)
        pieces = folded.split()
        if term.kind == "phrase":
            found = words.phrase_candidates(pieces)
            if found is None:
                return candidates  # an empty phrase is in every text
            if candidates is not self.all:
                found &= candidates
            if len(pieces) > 1:
                # The words are there; side by side? Found in the row's own stretch of the corpus (no copy).
                corpus = self.corpus(source)
                blob, starts = corpus.blob, corpus.starts
                found = {i for i in found if blob.find(folded, starts[i], starts[i + 1] - 1) != -1}
            return found
        found: AbstractSet[int] = candidates
        for piece in sorted(pieces, key=lambda p: -len(p)):  # longer pieces are rarer: intersect first
            found = words.containing(piece) & found
            if not found:
                break
        if kind == "name" and not term.field and term.kind == "word":
            found = found | candidates.intersection(self._ids.get(term.value.strip(), ()))
        return found

    def _legal(
        self, term: Term, spec: Any, candidates: AbstractSet[int], context: Context
    ) -> AbstractSet[int] | None:
        """banned: / limited: / legal: from the ban list's entries (a few hundred) instead of a test per
        card: the predicate the site builds carries the list (``limits``, ``whitelist``, ``wanted``)."""
        test = _leaf(term, spec, context)
        limits = getattr(test, "limits", None)
        wanted = getattr(test, "wanted", None)
        if limits is None or wanted is None:
            return None
        decided: dict[int, int] = {}
        # A row's own id wins over its identity's entry (the same order as the predicate reads them).
        for key, limit in limits.items():
            for i in self._identities.get(key, ()):
                if self.rows[i].external_id not in limits:
                    decided[i] = limit
        for key, limit in limits.items():
            for i in self._ids.get(key, ()):
                decided[i] = limit
        default = 0 if test.whitelist else 3  # type: ignore[attr-defined]
        out = {i for i, limit in decided.items() if wanted(limit) and i in candidates}
        if wanted(default):
            out |= candidates.difference(decided)
        return out

    def _posting(self, name: str, values: Any) -> dict[Any, frozenset[int]]:
        posting = self._postings.get(name)
        if posting is None:
            building: dict[Any, set[int]] = {}
            for i, row in enumerate(self.rows):
                for value in values(row):
                    building.setdefault(value, set()).add(i)
            posting = self._postings[name] = {k: frozenset(v) for k, v in building.items()}
        return posting

    def _posted(self, term: Term, spec: Any, candidates: AbstractSet[int]) -> AbstractSet[int] | None:
        """A term answered from a posting list or a sorted array (None: tested row by row instead)."""
        if term.kind not in {"word", "phrase"}:
            return None
        kind, source = spec.kind, spec.source
        if kind == "typeline" and term.op == ":" and term.kind == "word":
            posting = self._posting("type", lambda row: set(row.folded["type"].split()))
            out: AbstractSet[int] = candidates
            for word in fold(term.value).split():
                out = posting.get(word, frozenset()) & out
            return out
        if kind == "choice" and source != "external_id" and term.op in {":", "=", "!="}:
            posting = self._posting(source, lambda row: {norm(v) for v in _items(_value(row, source))})
            hit = candidates & posting.get(norm(term.value.strip()), frozenset())
            return candidates - hit if term.op == "!=" else hit
        if kind == "colors" and term.op in {":", ">="}:
            posting = self._posting(source, lambda row: color_letters(_value(row, source)))
            out = candidates
            for letter in color_letters(term.value):
                out = posting.get(letter, frozenset()) & out
            return out
        if kind == "number" and term.op != "!=":
            bound = parse_number(term)
            if bound is None:
                return None
            numbers = self._numbers.get(source)
            if numbers is None:
                pairs = sorted(
                    (n, i)
                    for i, row in enumerate(self.rows)
                    if (n := as_number(_value(row, source))) is not None
                )
                numbers = self._numbers[source] = ([n for n, _i in pairs], [i for _n, i in pairs])
            keys, rows = numbers
            lo, hi = {
                ":": (bisect_left(keys, bound), bisect_right(keys, bound)),
                "=": (bisect_left(keys, bound), bisect_right(keys, bound)),
                ">=": (bisect_left(keys, bound), len(keys)),
                ">": (bisect_right(keys, bound), len(keys)),
                "<=": (0, bisect_right(keys, bound)),
                "<": (0, bisect_left(keys, bound)),
            }[term.op]
            if hi - lo > len(candidates):
                return {i for i in rows[lo:hi] if i in candidates}
            return candidates.intersection(rows[lo:hi])
        return None


def _value(row: Row, source: str) -> Any:
    if source.startswith("attr."):
        return row.attributes.get(source[5:])
    return getattr(row, source, None)


def _items(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


def _cost(node: object) -> int:
    if isinstance(node, Term):
        if not node.field or node.field in {"name", "n", "o", "text", "oracle"}:
            return 0
        return 1
    return 2


def rows_in_order(rows: Iterable[Row]) -> list[Row]:
    return sorted(
        rows, key=lambda r: (r.name.casefold(), r.level if r.level is not None else -1, r.external_id)
    )
