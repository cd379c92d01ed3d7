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

from cardsearch.evaluate import any_of, as_number, contains_any, norm

from .cards import CardInfo
from .errors import RuleSetError

CardPredicate = Callable[[CardInfo], bool]
_COND_KEYS = {"min", "max", "not", "contains", "not_contains"}


# One evaluator: the leaf tests (equals / any of, numbers, contains) are the card search language's own
# (cardsearch.evaluate), so a section's accept rule and a search for the same condition cannot disagree.
_norm = norm
_any_of = any_of
_number = as_number


def _getter(field: str) -> Callable[[CardInfo], Any]:
    if field == "type":
        return lambda c: c.card_type
    if field == "subtype":
        return lambda c: c.subtypes
    if field in ("level", "cost", "name", "text"):
        return lambda c: getattr(c, field)
    return lambda c: c.attributes.get(field)


def _values(field: str, raw: Any) -> frozenset[Any]:
    items = raw if isinstance(raw, list) else [raw]
    for v in items:
        if not isinstance(v, str | int | float | bool):
            raise RuleSetError(
                f"filter field {field!r}: {v!r} is not a text or number value",
                key="filter.bad_value", field=field, value=repr(v),
            )  # fmt: skip
    return frozenset(_norm(v) for v in items)


def _bound(field: str, key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise RuleSetError(
            f"filter field {field!r}: {key} must be a number, got {value!r}",
            key="filter.not_number", field=field, condition=key, value=repr(value),
        )  # fmt: skip
    return value


def _contains(field: str, key: str, raw: Any) -> Callable[[Any], bool]:
    """True when a text value holds any of the given texts (case-insensitive)."""
    needles = [n for n in _values(field, raw) if isinstance(n, str)]
    if not needles:
        raise RuleSetError(
            f"filter field {field!r}: {key} needs a text, got {raw!r}",
            key="filter.needs_text", field=field, condition=key, value=repr(raw),
        )  # fmt: skip
    return contains_any(needles)


def _condition(field: str, cond: Any) -> Callable[[Any], bool]:
    if isinstance(cond, Mapping):
        unknown = set(cond) - _COND_KEYS
        if unknown:
            raise RuleSetError(
                f"filter field {field!r}: unknown condition key(s) {sorted(unknown)}",
                key="filter.unknown_condition", field=field, keys=", ".join(sorted(map(str, unknown))),
            )  # fmt: skip
        checks: list[Callable[[Any], bool]] = []
        if "min" in cond:
            lo = _bound(field, "min", cond["min"])
            checks.append(lambda v: (n := _number(v)) is not None and n >= lo)
        if "max" in cond:
            hi = _bound(field, "max", cond["max"])
            checks.append(lambda v: (n := _number(v)) is not None and n <= hi)
        if "not" in cond:
            excluded = _any_of(_values(field, cond["not"]))
            checks.append(lambda v: v is None or not excluded(v))
        if "contains" in cond:
            # "A deck can have any number of cards named ..." is printed on the card, not a field of it.
            has = _contains(field, "contains", cond["contains"])
            checks.append(has)
        if "not_contains" in cond:
            lacks = _contains(field, "not_contains", cond["not_contains"])
            checks.append(lambda v: not lacks(v))
        return lambda v: all(check(v) for check in checks)
    return _any_of(_values(field, cond))


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
    return _memoized(_compile(spec))


def _compile(spec: Any) -> CardPredicate:
    if isinstance(spec, list):
        alternatives = [_compile(item) for item in spec]
        return lambda card: any(alt(card) for alt in alternatives)
    if not isinstance(spec, Mapping):
        raise RuleSetError(
            f"a filter must be an object of field -> condition, got {spec!r}",
            key="filter.not_object",
            spec=repr(spec),
        )
    parts = [(_getter(str(field)), _condition(str(field), cond)) for field, cond in spec.items()]
    if len(parts) == 1:
        (get, test) = parts[0]
        return lambda card: test(get(card))
    return lambda card: all(test(get(card)) for get, test in parts)


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
