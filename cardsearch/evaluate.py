"""Judging cards in memory: the query tree's one compiler, for a typed search and for a rule set's FILTER
(games/filters.py turns a FILTER into the same tree, its conditions as terms naming a card field), and
the leaf matchers both use.

A card is anything with ``name``, ``text``, ``card_type``, ``subtypes``, ``level``, ``cost``, ``attributes``
(``games.cards.CardInfo``, a ``cards.Card`` row); ``key``/``external_id`` and ``deck_buildable`` when
present. Printings and legality come from the caller (``Context``): they live outside the card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .fields import FieldSpec, FieldTable
from .query import And, Not, Or, QueryError, Term
from .text import fold

Predicate = Callable[[Any], bool]

# --- leaf matchers (one code path for FILTER conditions and search terms) ---------------------------


def norm(value: Any) -> Any:
    return value.casefold() if isinstance(value, str) else value


def any_of(wanted: frozenset[Any]) -> Callable[[Any], bool]:
    """Equals one of ``wanted`` (already normalised); a list value matches when one element does."""

    def match(value: Any) -> bool:
        if isinstance(value, list | tuple):
            return any(norm(v) in wanted for v in value)
        return norm(value) in wanted

    return match


def as_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return value
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def contains_any(needles: Iterable[str]) -> Callable[[Any], bool]:
    """A text value holding any of the needles (case-insensitive)."""
    folded = [n.casefold() for n in needles]
    return lambda v: isinstance(v, str) and any(n in v.casefold() for n in folded)


COMPARE: dict[str, Callable[[float, float], bool]] = {
    "=": lambda a, b: a == b,
    ":": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def compare(op: str, bound: float) -> Callable[[Any], bool]:
    test = COMPARE[op]
    return lambda v: (n := as_number(v)) is not None and test(n, bound)


# --- regular expressions, bounded: RE2 runs in time linear in the text, never backtracks ----------------

MAX_REGEX_CHARS = 200


def compile_regex(pattern: str, term: Term) -> Any:
    import re2  # google-re2: linear-time matching, so no pattern can hang a worker

    if len(pattern) > MAX_REGEX_CHARS:
        raise QueryError("regex_too_long", term.start, term.end, token=pattern[:30], max=MAX_REGEX_CHARS)
    options = re2.Options()
    options.case_sensitive = False
    options.max_mem = 1 << 20  # 1 MiB of automaton at most
    options.log_errors = False
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        raise QueryError(
            "bad_regex", term.start, term.end, token=pattern[:30], reason=str(exc)[:80]
        ) from None


# --- the query tree --------------------------------------------------------------------------------


@dataclass
class Context:
    """What the evaluator cannot read off a card: its printings (set, number, rarity) and legality."""

    printings: Callable[[Any], list[tuple[str, str, str]]] = lambda card: []
    # (what: banned / limited / legal, format slug or "") → predicate on a card
    legality: Callable[[str, str, Term], Predicate] | None = None


def value_of(card: Any, source: str) -> Any:
    if source.startswith("attr."):
        return (card.attributes or {}).get(source[5:])
    if source == "external_id":
        return getattr(card, "external_id", None) or getattr(card, "key", None)
    return getattr(card, source, None)


def resolve(term: Term, table: FieldTable) -> FieldSpec:
    """The field a term names (a bare word: the name); unknown fields and operators raise QueryError."""
    if not term.field:
        return table.keywords["name"]
    spec = table.get(term.field)
    if spec is None:
        raise QueryError("unknown_field", term.start, term.start + len(term.typed), token=term.typed,
                         suggestions=table.near(term.field))  # fmt: skip
    if term.op not in spec.operators:
        raise QueryError("bad_operator", term.start, term.end, token=term.typed + term.op, field=spec.name,
                         operators=" ".join(spec.operators))  # fmt: skip
    if not term.value and spec.name not in {"banned", "limited", "legal"}:
        raise QueryError("empty_value", term.start, term.end, token=term.typed + term.op)
    if term.kind == "regex" and spec.kind not in {"name", "text", "typeline", "choice"}:
        raise QueryError("regex_not_here", term.start, term.end, token=term.typed, field=spec.name)
    if spec.kind == "number" and term.kind != "regex" and parse_number(term) is None:
        raise QueryError(
            "not_a_number", term.end - len(term.value), term.end, token=term.value, field=spec.name
        )
    return spec


def parse_number(term: Term) -> float | None:
    raw = term.value.strip()
    if len(raw) > 12:
        return None
    try:
        return float(raw)
    except ValueError:
        return None


def color_letters(value: Any) -> set[str]:
    """A card's colours as letters: "U", ["W", "U"], "WU" all read {"w", "u"}."""
    items = value if isinstance(value, list | tuple) else [value]
    return {ch for item in items if isinstance(item, str) for ch in item.casefold() if ch.isalpha()}


def compile_query(node: object, table: FieldTable | None, context: Context | None = None) -> Predicate:
    """A predicate for the query tree: a search typed by a player (``parse``) or a rule set's FILTER
    (``games.filters.filter_tree``) — one evaluator, so a section's ``accept`` rule and the search for the
    same condition cannot disagree. Every term is checked here, so a bad term raises before any card.
    ``table`` names the fields of typed terms; a tree of FILTER terms alone needs none."""
    context = context or Context()
    if node is None:
        return lambda card: True
    if isinstance(node, And):
        parts = [compile_query(item, table, context) for item in node.items]
        if len(parts) == 1:
            return parts[0]
        return lambda card: all(p(card) for p in parts)
    if isinstance(node, Or):
        parts = [compile_query(item, table, context) for item in node.items]
        return lambda card: any(p(card) for p in parts)
    if isinstance(node, Not):
        inner = compile_query(node.item, table, context)
        return lambda card: not inner(card)
    assert isinstance(node, Term)
    if node.source:
        return _data_leaf(node)
    if table is None:
        raise QueryError("unknown_field", node.start, node.end, token=node.typed, suggestions=[])
    return _leaf(node, resolve(node, table), context)


def getter(source: str) -> Callable[[Any], Any]:
    """Reads one field of a card (``value_of`` unrolled once per term instead of once per card)."""
    if source.startswith("attr."):
        key = source[5:]
        return lambda card: (card.attributes or {}).get(key)
    if source == "external_id":
        return lambda card: value_of(card, "external_id")
    return lambda card: getattr(card, source, None)


def _data_leaf(term: Term) -> Predicate:
    """A FILTER condition's test (values already checked and normalised by ``games.filters``)."""
    get = getter(term.source)
    if term.kind == "any":
        match = any_of(frozenset(norm(v) for v in term.values))
        return lambda card: match(get(card))
    if term.kind == "contains":
        has = contains_any(str(v) for v in term.values)
        return lambda card: has(get(card))
    if term.kind == "number":
        test = compare(term.op, term.values[0])  # type: ignore[arg-type]
        return lambda card: test(get(card))
    raise ValueError(f"no such FILTER term kind: {term.kind!r}")


def _folded(card: Any, source: str) -> str:
    cached = getattr(card, "folded", None)  # an index row carries its folded name and text
    if cached is not None and source in cached:
        return cached[source]
    value = value_of(card, source)
    if isinstance(value, list | tuple):
        return " ".join(fold(str(v)) for v in value)
    return fold(value) if isinstance(value, str) else ""


def _leaf(term: Term, spec: FieldSpec, context: Context) -> Predicate:
    kind, source = spec.kind, spec.source
    if term.kind == "regex":
        rx = compile_regex(term.value, term)
        sources = (source,)
        if kind == "typeline":
            sources = ("card_type", "subtypes", *(f"attr.{s}" for s in spec.extra_sources))

        def rx_match(card: Any) -> bool:
            for s in sources:
                value = value_of(card, s)
                items = value if isinstance(value, list | tuple) else [value]
                if any(isinstance(v, str) and rx.search(v) for v in items):
                    return True
            return False

        return rx_match
    if kind in {"name", "text"}:
        if term.kind == "exact" or term.op == "=":
            wanted = fold(term.value)
            return lambda card: _folded(card, source) == wanted
        if term.kind == "phrase":
            phrase = fold(term.value)
            return lambda card: phrase in _folded(card, source)
        pieces = fold(term.value).split()
        if kind == "name" and not term.field:
            # A bare word is a name word, or the card's id typed whole (a passcode).
            raw = term.value.strip()
            return lambda card: (
                all(p in _folded(card, source) for p in pieces)
                or (bool(raw) and value_of(card, "external_id") == raw)
            )
        return lambda card: all(p in _folded(card, source) for p in pieces)
    if kind == "typeline":
        # Scryfall's t:: every word is a word of the type line (card type, subtypes and the attributes the
        # game names in type_sources, e.g. a Yu-Gi-Oh! monster's race).
        # Whole words: t:spell is a Spell card, not a Spellcaster monster.
        if term.op == "=" or term.kind == "phrase":
            whole = f" {fold(term.value)} "
            return lambda card: whole in _typeline(card, spec)
        wanted_words = [f" {w} " for w in fold(term.value).split()]
        return lambda card: all(w in _typeline(card, spec) for w in wanted_words)
    if kind == "choice":
        match = any_of(frozenset({norm(term.value.strip())}))
        if term.op == "!=":
            return lambda card: not match(value_of(card, source))
        return lambda card: match(value_of(card, source))
    if kind == "number":
        op = ":" if term.op == ":" else term.op
        test = compare(op, parse_number(term))  # type: ignore[arg-type]
        return lambda card: test(value_of(card, source))
    if kind == "colors":
        wanted = color_letters(term.value)
        if term.op == "=":
            return lambda card: color_letters(value_of(card, source)) == wanted
        if term.op == "<=":
            return lambda card: color_letters(value_of(card, source)) <= wanted
        return lambda card: wanted <= color_letters(value_of(card, source))
    if kind == "bool":
        want = term.value.strip().casefold() in {"yes", "true", "1", "да", "y"}
        return lambda card: bool(value_of(card, source)) == want
    if kind == "printing":
        index = {"printing.set": 0, "printing.number": 1, "printing.rarity": 2}[source]
        wanted_value = term.value.strip().casefold()
        if index == 2:  # a rarity word: r:mythic is "Mythic" and "Mythic Rare" alike
            return lambda card: any(
                wanted_value in fold(p[2]).split() or p[2].casefold() == wanted_value
                for p in context.printings(card)
            )
        return lambda card: any(p[index].casefold() == wanted_value for p in context.printings(card))
    if kind == "legality":
        if context.legality is None:
            raise QueryError("no_legality", term.start, term.end, token=term.typed)
        return context.legality(spec.name, term.value.strip().casefold(), term)
    raise QueryError("unknown_field", term.start, term.end, token=term.typed, suggestions=[])


def _typeline(card: Any, spec: FieldSpec) -> str:
    cached = getattr(card, "folded", None)
    if cached is not None and "type" in cached:
        return cached["type"]
    return typeline_text(card, spec.extra_sources)


def typeline_text(card: Any, extra_sources: Iterable[str]) -> str:
    parts = [card.card_type or "", *(card.subtypes or ())]
    for key in extra_sources:
        parts.extend(str(v) for v in _items((card.attributes or {}).get(key)))
    return " " + " ".join(fold(str(p)) for p in parts if p) + " "


def _items(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]
