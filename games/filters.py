"""The card FILTER language shared by section accept rules and hero restrictions (see rules/README.md).

A filter is an object of ``field -> condition``; every field must match (AND). A list of such objects
matches when any of them does (OR). Fields: ``type`` (card_type), ``subtype`` (membership in subtypes),
``level``, ``cost``, ``name``, ``text`` (rules text), or any attribute key. Conditions: a scalar (equals; for
list values: contains), a list (any of), or an object with ``min`` / ``max`` / ``not`` / ``contains`` (a text
appears in the value) / ``not_contains``. Strings compare case-insensitively.

A bad filter raises RuleSetError with a message key and params (rules/messages.py words them where players
read them: a hero restriction typed into card data that cannot be read); its English text is for rule-set
authors and logs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cardsearch.evaluate import compile_query, norm
from cardsearch.query import And, Not, Or, Term

from .cards import CardInfo
from .errors import RuleSetError

CardPredicate = Callable[[CardInfo], bool]
_COND_KEYS = {"min", "max", "not", "contains", "not_contains"}


# One evaluator: a FILTER is compiled into the card search language's own tree (cardsearch.query's And /
# Or / Not / Term) and judged by its one ``compile_query``, so a section's accept rule, a search and an
# archetype rule for the same condition cannot disagree (tests/search check them side by side on the
# real Yu-Gi-Oh! database). A FILTER's term names the card field it reads (``source``) and its typed
# values; a typed search's term names a field of the game's table.


def _source(field: str) -> str:
    if field == "type":
        return "card_type"
    if field == "subtype":
        return "subtypes"
    if field in ("level", "cost", "name", "text"):
        return field
    return f"attr.{field}"


def _values(field: str, raw: Any) -> tuple[Any, ...]:
    items = raw if isinstance(raw, list) else [raw]
    for v in items:
        if not isinstance(v, str | int | float | bool):
            raise RuleSetError(
                f"filter field {field!r}: {v!r} is not a text or number value",
                key="filter.bad_value", field=field, value=repr(v),
            )  # fmt: skip
    return tuple(dict.fromkeys(norm(v) for v in items))


def _bound(field: str, key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RuleSetError(
            f"filter field {field!r}: {key} must be a number, got {value!r}",
            key="filter.not_number", field=field, condition=key, value=repr(value),
        )  # fmt: skip
    return value


def _contains(field: str, key: str, raw: Any) -> Term:
    """A text value holding any of the given texts (case-insensitive)."""
    needles = tuple(n for n in _values(field, raw) if isinstance(n, str))
    if not needles:
        raise RuleSetError(
            f"filter field {field!r}: {key} needs a text, got {raw!r}",
            key="filter.needs_text", field=field, condition=key, value=repr(raw),
        )  # fmt: skip
    return Term(field, ":", "", "contains", typed=field, source=_source(field), values=needles)


def _condition(field: str, cond: Any) -> object:
    source = _source(field)
    if isinstance(cond, Mapping):
        unknown = set(cond) - _COND_KEYS
        if unknown:
            raise RuleSetError(
                f"filter field {field!r}: unknown condition key(s) {sorted(unknown)}",
                key="filter.unknown_condition", field=field, keys=", ".join(sorted(map(str, unknown))),
            )  # fmt: skip
        checks: list[object] = []
        for key, op in (("min", ">="), ("max", "<=")):
            if key in cond:
                bound = _bound(field, key, cond[key])
                checks.append(
                    Term(field, op, str(bound), "number", typed=field, source=source, values=(bound,))
                )
        if "not" in cond:
            # A missing attribute is "none of" them: Not(any of) is true for it, as the README says.
            excluded = _values(field, cond["not"])
            checks.append(Not(Term(field, ":", "", "any", typed=field, source=source, values=excluded)))
        if "contains" in cond:
            # "A deck can have any number of cards named ..." is printed on the card, not a field of it.
            checks.append(_contains(field, "contains", cond["contains"]))
        if "not_contains" in cond:
            checks.append(Not(_contains(field, "not_contains", cond["not_contains"])))
        return And(tuple(checks))
    return Term(field, ":", "", "any", typed=field, source=source, values=_values(field, cond))


def filter_tree(spec: Any) -> object:
    """A FILTER (object, or list of objects for OR) as the search language's tree; bad specs raise
    RuleSetError."""
    if isinstance(spec, list):
        return Or(tuple(filter_tree(item) for item in spec))
    if not isinstance(spec, Mapping):
        raise RuleSetError(
            f"a filter must be an object of field -> condition, got {spec!r}",
            key="filter.not_object",
            spec=repr(spec),
        )
    return And(tuple(_condition(str(field), cond) for field, cond in spec.items()))


_MEMO_LIMIT = 200_000


def _memoized(predicate: CardPredicate) -> CardPredicate:
    """Cache results per card object: cards are frozen, and the same objects are judged again and again
    (every section check, every re-validation after a sideboard swap, the benchmark's hot loop).
    The card is kept in the entry so its id cannot be reused by another object while cached."""
    cache: dict[int, tuple[CardInfo, bool]] = {}

    def match(card: CardInfo) -> bool:
        hit = cache.get(id(card))
        if hit is not None and hit[0] is card:
            return hit[1]
        result = predicate(card)
        if len(cache) >= _MEMO_LIMIT:
            cache.clear()
        cache[id(card)] = (card, result)
        return result

    return match


def compile_filter(spec: Any) -> CardPredicate:
    """Turn a FILTER (object, or list of objects for OR) into a fast predicate; bad specs raise RuleSetError."""
    return _memoized(compile_query(filter_tree(spec), None))


def _describe_values(raw: Any) -> str:
    if isinstance(raw, list):
        return " / ".join(str(v) for v in raw)
    return str(raw)


# The joining words of a filter's reading, per language: %-templates with ``field`` and ``values``. The site
# words them from its catalogues instead (rules/messages.py passes ``phrases``); these serve the engine alone.
# The joining words of a filter's reading when the caller gives none (the engine used on its own, logs):
# the site passes the catalogue's words in the reader's language (rules.messages.filter_phrases).
PLAIN_PHRASES: dict[str, str] = {
    "or": " or ", "not": "%(field)s not %(values)s", "contains": "%(field)s contains “%(values)s”",
    "not_contains": "%(field)s lacks “%(values)s”",
}  # fmt: skip


def describe_filter(
    spec: Any,
    labels: Mapping[str, str] | None = None,
    phrases: Mapping[str, str] | None = None,
) -> str:
    """A short reading of a filter for messages, e.g. ``Size L, Region North / South``.

    ``labels`` maps a field to the name players know it by, in the reader's language (the game's search
    filter labels, rules/README.md "Search filters"); a field without one is shown by its key. ``phrases``
    gives the joining words in that language (keys of PLAIN_PHRASES, which are the default).
    """
    words = phrases or PLAIN_PHRASES
    if isinstance(spec, list):
        return words["or"].join(f"({describe_filter(item, labels, words)})" for item in spec)
    if not isinstance(spec, Mapping):
        return str(spec)
    parts = []
    for key, cond in spec.items():
        field = (labels or {}).get(str(key)) or str(key)
        if isinstance(cond, Mapping):
            bits = []
            if "min" in cond:
                bits.append(f"{field} ≥ {cond['min']}")
            if "max" in cond:
                bits.append(f"{field} ≤ {cond['max']}")
            for word in ("not", "contains", "not_contains"):
                if word in cond:
                    bits.append(words[word] % {"field": field, "values": _describe_values(cond[word])})
            parts.append(", ".join(bits))
        else:
            parts.append(f"{field} {_describe_values(cond)}")
    return ", ".join(parts)
