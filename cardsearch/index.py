"""An in-process index of one game's cards: rows in name order, their folded name / text / type line,
and a joined corpus per text field so a word is found by C-speed ``str.find`` instead of a loop per card.

The query tree is evaluated over row numbers: a term narrows the candidates the terms before it left
(``and``), alternatives are unions (``or``), ``-`` takes away from the candidates. Each term's test per card
is the evaluator's leaf (``evaluate._leaf``), which is also what the FILTER language runs.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .evaluate import Context, _leaf, as_number, color_letters, norm, parse_number, resolve, typeline_text
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
    """Every row's folded text joined by a separator: the rows holding a word are found by ``find``."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.starts: list[int] = []
        pos = 0
        for text in texts:
            self.starts.append(pos)
            pos += len(text) + 1
        self.blob = "\x00".join(texts)

    def rows_with(self, needle: str) -> set[int]:
        found: set[int] = set()
        if not needle or "\x00" in needle:
            return found
        blob, starts, i = self.blob, self.starts, 0
        while (i := blob.find(needle, i)) != -1:
            row = bisect_right(starts, i) - 1
            found.add(row)
            # Go on after this row: one hit per row is enough.
            i = starts[row + 1] if row + 1 < len(starts) else len(blob)
        return found


class CardIndex:
    def __init__(self, rows: list[Row], table: FieldTable) -> None:
        self.rows = rows
        self.table = table
        type_sources = table.keywords["type"].extra_sources
        for row in rows:
            row.folded = {"name": fold(row.name), "type": typeline_text(row, type_sources)}
        self.all = frozenset(range(len(rows)))
        # Rules text folded lives in its corpus only (the largest field: one copy, not two); a row tested
        # on its own folds its text again, which only happens on the few rows other terms left.
        self._corpora: dict[str, _Corpus] = {"text": _Corpus([fold(row.text) for row in rows])}
        # Built on first use, per field: value -> rows (choices, type-line words, colour letters) and
        # (number, row) sorted (numbers). The anchors' way: a term is a dict lookup or a bisection.
        self._postings: dict[str, dict[Any, frozenset[int]]] = {}
        self._numbers: dict[str, tuple[list[float], list[int]]] = {}

    def corpus(self, source: str) -> _Corpus:
        corpus = self._corpora.get(source)
        if corpus is None:
            corpus = self._corpora[source] = _Corpus([row.folded[source] for row in self.rows])
        return corpus

    def search(self, node: object, context: Context) -> list[int]:
        """Row numbers matching, in the index's (name) order."""
        if node is None:
            return list(range(len(self.rows)))
        return sorted(self._eval(node, set(self.all), context))

    def _eval(self, node: object, candidates: set[int], context: Context) -> set[int]:
        if not candidates:
            return candidates
        if isinstance(node, And):
            # Cheap, narrowing terms first: words found in a corpus, then the rest on what is left.
            for item in sorted(node.items, key=_cost):
                candidates = self._eval(item, candidates, context)
                if not candidates:
                    break
            return candidates
        if isinstance(node, Or):
            out: set[int] = set()
            for item in node.items:
                out |= self._eval(item, candidates - out, context)
            return out
        if isinstance(node, Not):
            return candidates - self._eval(node.item, candidates, context)
        assert isinstance(node, Term)
        spec = resolve(node, self.table)
        fast = self._words(node, spec.kind, spec.source, candidates)
        if fast is None:
            fast = self._posted(node, spec, candidates)
        if fast is not None:
            return fast
        test = _leaf(node, spec, context)
        rows = self.rows
        return {i for i in candidates if test(rows[i])}

    def _words(self, term: Term, kind: str, source: str, candidates: set[int]) -> set[int] | None:
        """Words and phrases of a name or rules text looked up in the corpus (None: not such a term)."""
        if kind not in {"name", "text"} or term.kind not in {"word", "phrase"} or term.op != ":":
            return None
        if len(candidates) < len(self.rows) // 8:
            return None  # few rows left: testing them is cheaper than scanning the corpus
        corpus = self.corpus(source)
        pieces = [fold(term.value)] if term.kind == "phrase" else fold(term.value).split()
        found = set(candidates)
        for piece in pieces:
            found &= corpus.rows_with(piece)
        if kind == "name" and not term.field and term.kind == "word":
            raw = term.value.strip()
            found |= {i for i in candidates if self.rows[i].external_id == raw}
        return found

    def _posting(self, name: str, values: Any) -> dict[Any, frozenset[int]]:
        posting = self._postings.get(name)
        if posting is None:
            building: dict[Any, set[int]] = {}
            for i, row in enumerate(self.rows):
                for value in values(row):
                    building.setdefault(value, set()).add(i)
            posting = self._postings[name] = {k: frozenset(v) for k, v in building.items()}
        return posting

    def _posted(self, term: Term, spec: Any, candidates: set[int]) -> set[int] | None:
        """A term answered from a posting list or a sorted array (None: tested row by row instead)."""
        if term.kind not in {"word", "phrase"}:
            return None
        kind, source = spec.kind, spec.source
        if kind == "typeline" and term.op == ":" and term.kind == "word":
            posting = self._posting("type", lambda row: set(row.folded["type"].split()))
            out = set(candidates)
            for word in fold(term.value).split():
                out &= posting.get(word, frozenset())
            return out
        if kind == "choice" and source != "external_id" and term.op in {":", "=", "!="}:
            posting = self._posting(source, lambda row: {norm(v) for v in _items(_value(row, source))})
            hit = candidates & posting.get(norm(term.value.strip()), frozenset())
            return candidates - hit if term.op == "!=" else hit
        if kind == "colors" and term.op in {":", ">="}:
            posting = self._posting(source, lambda row: color_letters(_value(row, source)))
            out = set(candidates)
            for letter in color_letters(term.value):
                out &= posting.get(letter, frozenset())
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
