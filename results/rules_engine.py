"""Archetype rules as data (pure: no Django): ``[[archetypes]]`` in a TOML file per game, shipped in
``results/archetypes/<game>.toml`` or added by a store (``settings.DECKHALL_ARCHETYPE_DIRS``).

    [[archetypes]]
    name = "Blackwing"
    when = [                                   # all must hold
      { at_least = 6, of = { name = { contains = "Blackwing" } } },        # copies in the main deck
      { none_of = { name = "Raigeki" }, section = "side" },                 # main (default) | side | any
    ]
    [[archetypes.variants]]                    # checked only after the parent matched; the first that holds
    name = "Blackwing Zoo"
    when = [{ at_least = 3, of = { name = ["Gold Sarcophagus", "Rescue Rabbit"] } }]

    [[references]]                             # the fallback: overlap with reference lists
    name = "Normal Beatdown"
    cards = { "Gene-Warped Warwolf" = 3, "Alexandrite Dragon" = 3 }

``of`` / ``none_of`` are FILTERs of the rule sets' language (rules/README.md "FILTER language", compiled by
``games.filters.compile_filter``). A deck two top-level rules catch is not labelled (review queue); a
deck no rule catches takes the reference list it overlaps most, when the overlap is at least
MIN_OVERLAP — the label then says the percentage.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from games.cards import CardInfo
from games.errors import RuleSetError
from games.filters import compile_filter

from .archetypes import Label

MIN_OVERLAP = 0.5
SECTIONS = ("main", "side", "any")
Lines = list[tuple[CardInfo, int, str]]  # card, copies, section


@dataclass(frozen=True)
class Condition:
    text: str
    test: Callable[[Lines], bool]


@dataclass(frozen=True)
class Rule:
    name: str
    conditions: tuple[Condition, ...]
    variants: tuple[Rule, ...] = ()

    def holds(self, lines: Lines) -> bool:
        return all(c.test(lines) for c in self.conditions)

    def words(self) -> str:
        return "; ".join(c.text for c in self.conditions)


@dataclass(frozen=True)
class RuleBook:
    rules: tuple[Rule, ...]
    references: tuple[tuple[str, Mapping[str, int]], ...]


def _copies(lines: Lines, predicate: Callable[[CardInfo], bool], section: str) -> int:
    return sum(n for card, n, where in lines if (section == "any" or where == section) and predicate(card))


def _condition(where: str, raw: Any) -> Condition:
    if not isinstance(raw, Mapping):
        raise RuleSetError(f"{where}: a condition is a table like {{ at_least = 3, of = {{...}} }}")
    section = raw.get("section", "main")
    if section not in SECTIONS:
        raise RuleSetError(f"{where}.section: {section!r} is not one of {', '.join(SECTIONS)}")
    if "none_of" in raw:
        predicate = compile_filter(raw["none_of"])
        return Condition(
            f"none of {raw['none_of']} ({section})", lambda lines: _copies(lines, predicate, section) == 0
        )
    if "of" not in raw:
        raise RuleSetError(f"{where}: give `of` (with at_least / at_most) or `none_of`")
    predicate = compile_filter(raw["of"])
    low, high = raw.get("at_least", 1), raw.get("at_most")
    if not isinstance(low, int) or (high is not None and not isinstance(high, int)):
        raise RuleSetError(f"{where}: at_least / at_most are whole numbers of copies")
    text = f"at least {low} of {raw['of']} ({section})" + (f", at most {high}" if high is not None else "")
    return Condition(
        text, lambda lines: low <= _copies(lines, predicate, section) <= (high if high is not None else 10**9)
    )


def _rule(where: str, raw: Any) -> Rule:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("name"), str) or not raw["name"].strip():
        raise RuleSetError(f"{where}: an archetype needs a name")
    when = raw.get("when", [])
    if not isinstance(when, list) or not when:
        raise RuleSetError(f"{where}.when: give a list of conditions")
    variants = tuple(_rule(f"{where}.variants[{i}]", v) for i, v in enumerate(raw.get("variants", [])))
    return Rule(
        raw["name"].strip(), tuple(_condition(f"{where}.when[{i}]", c) for i, c in enumerate(when)), variants
    )


def load_rulebook(text: str, source: str = "archetypes") -> RuleBook:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RuleSetError(f"{source}: not valid TOML: {error}") from None
    rules = tuple(
        _rule(f"{source}: archetypes[{i}]", raw) for i, raw in enumerate(data.get("archetypes", []))
    )
    references = []
    for i, raw in enumerate(data.get("references", [])):
        cards = raw.get("cards") if isinstance(raw, Mapping) else None
        if not isinstance(raw.get("name"), str) or not isinstance(cards, Mapping) or not cards:
            raise RuleSetError(f"{source}: references[{i}] needs a name and cards = {{ name = copies }}")
        references.append((raw["name"], {str(k).casefold(): int(v) for k, v in cards.items()}))
    return RuleBook(rules, tuple(references))


def merge(books: Iterable[RuleBook]) -> RuleBook:
    books = list(books)
    return RuleBook(tuple(r for b in books for r in b.rules), tuple(x for b in books for x in b.references))


def classify(book: RuleBook, lines: Lines) -> Label | None:
    """The matching rule (then its first matching variant), or the best reference overlap, or None."""
    matched = [rule for rule in book.rules if rule.holds(lines)]
    names = sorted({rule.name for rule in matched})
    if len(names) > 1:
        return Label("", "", tuple(names))
    if matched:
        rule = matched[0]
        for variant in rule.variants:
            if variant.holds(lines):
                return Label(
                    variant.name,
                    f"rule {rule.name}: {rule.words()}; variant {variant.name}: {variant.words()}",
                )
        return Label(rule.name, f"rule {rule.name}: {rule.words()}")
    mine: dict[str, int] = {}
    for card, n, where in lines:
        if where == "main":
            mine[card.name.casefold()] = mine.get(card.name.casefold(), 0) + n
    best: tuple[float, str] | None = None
    for name, cards in book.references:
        overlap = sum(min(mine.get(card, 0), n) for card, n in cards.items()) / sum(cards.values())
        if best is None or overlap > best[0]:
            best = (overlap, name)
    if best is not None and best[0] >= MIN_OVERLAP:
        return Label(best[1], f"overlap {best[0] * 100:.0f}% with the reference list {best[1]}")
    return None
