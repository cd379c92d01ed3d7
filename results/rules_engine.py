"""Archetype rules as data (pure: no Django): ``[[archetypes]]`` in a game's rule set
(``games/rulesets/<game>.toml``), and a store's own file that adds rules or replaces one of the same name
(``<game>.toml`` / ``<game>-*.toml`` in ``settings.DECKHALL_ARCHETYPE_DIRS``, e.g. what ``import_archetypes``
writes). The tables are declared in ``games/schema.py`` (rules/README.md's reference is generated from them):

    [[archetypes]]
    name = "Blackwing"
    when = [                                   # all must hold
      { at_least = 6, of = { name = { contains = "Blackwing" } } },        # copies in the main deck
      { none_of = { name = "Raigeki" }, section = "side" },                 # main (default) | side | any
      { at_least = 2, of = { name = ["A", "B", "C"] }, count = "cards" },  # two different cards of these
    ]
    [[archetypes.variants]]                    # checked only after the parent matched; the first that holds
    name = "Blackwing Zoo"
    when = [{ at_least = 3, of = { name = ["Gold Sarcophagus", "Rescue Rabbit"] } }]

    [[archetype_references]]                   # the fallback: overlap with reference lists
    name = "Normal Beatdown"
    cards = { "Gene-Warped Warwolf" = 3, "Alexandrite Dragon" = 3 }

A deck two top-level rules of different names catch is not labelled (review queue); a deck no rule catches
takes the reference it overlaps most, when the overlap reaches the reference's bar — the label says the %.

Speed: a rule book is compiled once per file version (``compile_book``); for an event, every distinct card
is matched once against every condition (``Classifier``: a FILTER that only names cards is a set lookup),
then each deck is a sum over its lines plus integer comparisons — no FILTER runs per deck.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from games.cards import CardInfo
from games.errors import RuleSetError
from games.filters import CardPredicate, compile_filter
from games.schema import (
    ArchetypeConditionTable,
    ArchetypeFile,
    ArchetypeReferenceTable,
    ArchetypeVariantTable,
    validate_archetype_file,
)

from .archetypes import Label

MIN_OVERLAP = 0.5  # a reference list with copies
MIN_COMMON = 0.1  # common cards: MTGOArchetypeParser's minSimiliarity (weight per card line, above 0.1)
RULE_TEXT_LIMIT = 300  # DeckArchetype.rule's length
Lines = list[tuple[CardInfo, int, str]]  # card, copies, section ("main" | "side")


@dataclass(frozen=True, slots=True)
class Test:
    """One shared test (FILTER × section × what is counted); rules refer to it by index."""

    names: frozenset[str] | None  # a FILTER that only names cards: their casefolded names
    predicate: CardPredicate | None
    section: str
    cards: bool  # count different cards, not copies


@dataclass(frozen=True, slots=True)
class Check:
    test: int
    low: int
    high: int
    text: str
    excluded: str = ""  # a "none of": the cards' words
    section: str = "main"


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    checks: tuple[Check, ...]
    variants: tuple[Rule, ...] = ()
    source: str = ""
    formats: frozenset[str] = frozenset()

    def words(self) -> str:
        """The conditions in words; the "none of" ones after the others, one clause per section (a rule
        from MTGOFormatData often lists ten cards it must not have, one condition each)."""
        shown = [c.text for c in self.checks if not c.excluded]
        excluded: dict[str, list[str]] = {}
        for check in self.checks:
            if check.excluded:
                excluded.setdefault(check.section, []).append(check.excluded)
        shown += [f"none of {' / '.join(names)} ({section})" for section, names in excluded.items()]
        return "; ".join(shown)


@dataclass(frozen=True, slots=True)
class Reference:
    name: str
    cards: Mapping[str, int] | None  # casefolded name → copies
    common: frozenset[str] | None  # casefolded names
    min_overlap: float
    source: str = ""
    formats: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class RuleBook:
    rules: tuple[Rule, ...]
    references: tuple[Reference, ...]
    tests: tuple[Test, ...] = ()

    def for_format(self, format_slug: str) -> RuleBook:
        """The rules and references that apply to an event of ``format_slug``."""
        return RuleBook(
            tuple(r for r in self.rules if not r.formats or format_slug in r.formats),
            tuple(r for r in self.references if not r.formats or format_slug in r.formats),
            self.tests,
        )


def _name_set(spec: Any) -> frozenset[str] | None:
    """``{ name = "X" }`` / ``{ name = ["X", "Y"] }`` → their casefolded names; None for any other FILTER."""
    if isinstance(spec, Mapping) and set(spec) == {"name"}:
        value = spec["name"]
        items = value if isinstance(value, list) else [value]
        if items and all(isinstance(v, str) for v in items):
            return frozenset(v.casefold() for v in items)
    return None


def _spec_words(spec: Any) -> str:
    names = _name_set(spec)
    if names is not None:
        value = spec["name"]
        return " / ".join(value if isinstance(value, list) else [value])
    return str(spec)


class _Compiler:
    def __init__(self) -> None:
        self.tests: list[Test] = []
        self.index: dict[tuple[str, str, bool], int] = {}

    def test(self, spec: Any, section: str, cards: bool) -> int:
        key = (json.dumps(spec, sort_keys=True, default=str), section, cards)
        if key not in self.index:
            names = _name_set(spec)
            predicate = None if names is not None else compile_filter(spec)
            self.index[key] = len(self.tests)
            self.tests.append(Test(names, predicate, section, cards))
        return self.index[key]

    def check(self, raw: ArchetypeConditionTable) -> Check:
        cards = raw.count == "cards"
        unit = " different" if cards else ""
        if raw.none_of is not None:
            index = self.test(raw.none_of, raw.section, cards)
            words = _spec_words(raw.none_of)
            return Check(index, 0, 0, f"none of {words} ({raw.section})", words, raw.section)
        low = 1 if raw.at_least is None else raw.at_least
        high = 10**9 if raw.at_most is None else raw.at_most
        text = f"at least {low}{unit} of {_spec_words(raw.of)} ({raw.section})"
        if raw.at_most is not None:
            text += f", at most {high}"
        return Check(self.test(raw.of, raw.section, cards), low, high, text)

    def rule(self, raw: ArchetypeVariantTable) -> Rule:
        variants = tuple(self.rule(v) for v in getattr(raw, "variants", ()))
        return Rule(
            raw.name.strip(),
            tuple(self.check(c) for c in raw.when),
            variants,
            raw.source,
            frozenset(getattr(raw, "formats", ())),
        )


def _reference(raw: ArchetypeReferenceTable) -> Reference:
    if raw.cards is not None:
        cards = {name.casefold(): n for name, n in raw.cards.items()}
        return Reference(
            raw.name, cards, None, raw.min_overlap or MIN_OVERLAP, raw.source, frozenset(raw.formats)
        )
    common = frozenset(name.casefold() for name in raw.common or ())
    return Reference(
        raw.name, None, common, raw.min_overlap or MIN_COMMON, raw.source, frozenset(raw.formats)
    )


def parse_file(text: str, source: str = "archetypes") -> ArchetypeFile:
    """A store's archetype file → its validated tables; RuleSetError names the file, key and line."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RuleSetError(f"{source}: not valid TOML: {error}") from None
    return validate_archetype_file(source, text, data)


def compile_book(files: Iterable[ArchetypeFile]) -> RuleBook:
    """Validated files, the rule set's first → one rule book. A later file's rules of a name replace every
    earlier file's rule of that name, in place (a store overrides the rule set); other rules are added. In
    one file, several rules may give the same name (two ways to be the same archetype)."""
    rules: dict[str, list[ArchetypeVariantTable]] = {}
    references: dict[str, ArchetypeReferenceTable] = {}
    for file in files:
        own: dict[str, list[ArchetypeVariantTable]] = {}
        for raw in file.archetypes:
            own.setdefault(raw.name.strip(), []).append(raw)
        rules.update(own)
        for ref in file.archetype_references:
            references[ref.name] = ref
    compiler = _Compiler()
    compiled = tuple(compiler.rule(raw) for group in rules.values() for raw in group)
    return RuleBook(compiled, tuple(_reference(r) for r in references.values()), tuple(compiler.tests))


def load_rulebook(text: str, source: str = "archetypes") -> RuleBook:
    return compile_book([parse_file(text, source)])


def _clip(text: str) -> str:
    return text if len(text) <= RULE_TEXT_LIMIT else text[: RULE_TEXT_LIMIT - 1] + "…"


class Classifier:
    """A rule book bound to an event's cards: each distinct card is matched against every test once."""

    def __init__(self, book: RuleBook, cards: Mapping[Hashable, CardInfo]) -> None:
        self.book = book
        by_name: dict[str, list[int]] = {}
        generic: list[int] = []
        for i, test in enumerate(book.tests):
            if test.names is None:
                generic.append(i)
            else:
                for name in test.names:
                    by_name.setdefault(name, []).append(i)
        # Per card: its casefolded name and the tests it counts for in the main deck and in the side, each
        # with 0 (count copies) or 1 (count the card once).
        self.cards: dict[Hashable, tuple[str, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]] = {}
        for key, card in cards.items():
            folded = card.name.casefold()
            hits = list(by_name.get(folded, ()))
            hits += [i for i in generic if book.tests[i].predicate(card)]  # type: ignore[misc]
            tests = book.tests
            in_main = tuple((i, int(tests[i].cards)) for i in hits if tests[i].section in ("main", "any"))
            in_side = tuple((i, int(tests[i].cards)) for i in hits if tests[i].section in ("side", "any"))
            self.cards[key] = (folded, in_main, in_side)
        # Each rule is looked at only when the deck has a card of one test the rule needs at least one of
        # (its anchor): 2,000 decks × 130 rules were 260,000 checks, the anchors leave a few per deck.
        self.anchored: dict[int, list[tuple[int, Rule]]] = {}
        self.always: list[tuple[int, Rule]] = []
        for order, rule in enumerate(book.rules):
            anchor = next((c.test for c in rule.checks if c.low >= 1), None)
            if anchor is None:
                self.always.append((order, rule))
            else:
                self.anchored.setdefault(anchor, []).append((order, rule))

    def label(self, lines: Iterable[tuple[Hashable, int, str]]) -> Label | None:
        """``lines``: (card key, copies, "main" | "side")."""
        counts: dict[int, int] = {}
        known: list[tuple[str, int, str]] = []
        cards = self.cards
        for key, n, where in lines:
            card = cards.get(key)
            if card is None or n <= 0:
                continue
            known.append((card[0], n, where))
            for i, once in card[1] if where == "main" else card[2]:
                counts[i] = counts.get(i, 0) + (once or n)
        return self._decide(counts, known)

    @staticmethod
    def _holds(rule: Rule, counts: Mapping[int, int]) -> bool:
        for check in rule.checks:
            value = counts.get(check.test, 0)
            if value < check.low or value > check.high:
                return False
        return True

    def _decide(self, counts: dict[int, int], known: list[tuple[str, int, str]]) -> Label | None:
        candidates = list(self.always)
        for test in counts:
            candidates += self.anchored.get(test, ())
        candidates.sort(key=lambda pair: pair[0])  # the book's order: the first rule of a name speaks
        matched = [rule for _order, rule in candidates if self._holds(rule, counts)]
        names = sorted({rule.name for rule in matched})
        if len(names) > 1:
            return Label("", "", tuple(names))
        if matched:
            rule = matched[0]
            origin = f" [{rule.source}]" if rule.source else ""
            for variant in rule.variants:
                if self._holds(variant, counts):
                    # The variant first: what tells it from its parent must survive the length limit.
                    return Label(
                        variant.name,
                        _clip(f"rule {rule.name}{origin}; variant {variant.name}: {variant.words()}; "
                              f"{rule.name}: {rule.words()}"),
                    )  # fmt: skip
            return Label(rule.name, _clip(f"rule {rule.name}{origin}: {rule.words()}"))
        if not self.book.references:
            return None
        main: dict[str, int] = {}
        everything: dict[str, int] = {}
        for name, n, where in known:
            if where == "main":
                main[name] = main.get(name, 0) + n
            everything[name] = everything.get(name, 0) + n
        return self._fallback(main, everything, len(known))

    def _fallback(self, main: dict[str, int], everything: dict[str, int], lines: int) -> Label | None:
        best: tuple[float, int, Reference, str] | None = None
        for ref in self.book.references:
            if ref.cards is not None:
                # A reference list: the share of its copies the deck's main deck has.
                score = sum(min(main.get(card, 0), n) for card, n in ref.cards.items()) / sum(
                    ref.cards.values()
                )
                size = len(ref.cards)
                words = f"overlap {score * 100:.0f}% with the reference list {ref.name}"
            else:
                # Common cards, weighed as MTGOArchetypeParser does: the deck's copies of them (main and side),
                # accepted when that weight per distinct card line of the deck is above the bar.
                weight = sum(n for card, n in everything.items() if card in ref.common)  # type: ignore[operator]
                score = weight / lines if lines else 0.0
                size = len(ref.common or ())
                words = (
                    f"overlap with the common cards of {ref.name}: {weight} copies of its {size} cards "
                    f"over {lines} card lines ({score * 100:.0f}%)"
                )
                if weight == 0 or score <= ref.min_overlap:
                    continue
            if score < ref.min_overlap:
                continue
            # The biggest score wins; a tie goes to the shorter reference (MTGOFormatData's tie-break).
            if best is None or (score, -size) > (best[0], -best[1]):
                best = (score, size, ref, words)
        if best is None:
            return None
        _score, _size, ref, words = best
        origin = f" [{ref.source}]" if ref.source else ""
        return Label(ref.name, _clip(words + origin))


def classify(book: RuleBook, lines: Lines) -> Label | None:
    """One deck of CardInfo lines (tests, tools): the matching rule, then its first matching variant, or
    the best reference overlap, or None."""
    cards = {id(card): card for card, _n, _where in lines}
    return Classifier(book, cards).label((id(card), n, where) for card, n, where in lines)
