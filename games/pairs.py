"""Two heroes in one slot (Magic's partner commanders, CR 702.124 and the later pairings): which rule of
the format's ``hero.pairs`` lets two cards share the slot, if any. Pure Python."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import CardInfo
from .filters import CardPredicate

# Reminder text is in parentheses; it restates a keyword and names no ability of its own.
_REMINDER = re.compile(r"\([^()]*\)")


@dataclass(frozen=True, slots=True)
class PairRule:
    name: str
    keyword: str = ""
    names_other: str = ""
    first: CardPredicate | None = None
    second: CardPredicate | None = None

    def matches(self, a: CardInfo, b: CardInfo) -> bool:
        return self._ordered(a, b) or self._ordered(b, a)

    def _ordered(self, a: CardInfo, b: CardInfo) -> bool:
        if self.keyword and not (has_keyword(a, self.keyword) and has_keyword(b, self.keyword)):
            return False
        if self.names_other and not (
            names_other(a, self.names_other, b.name) and names_other(b, self.names_other, a.name)
        ):
            return False
        if self.first is not None and not self.first(a):
            return False
        return self.second is None or self.second(b)


def ability_lines(card: CardInfo) -> list[str]:
    """The card's rules text line by line, reminder text left out, folded for comparison."""
    text = _REMINDER.sub("", card.text or "")
    return [line.strip().casefold() for line in text.splitlines() if line.strip()]


def has_keyword(card: CardInfo, keyword: str) -> bool:
    """A line of the card's rules text is the keyword, alone or among others ("Flying, partner")."""
    wanted = keyword.casefold()
    return any(item.strip() == wanted for line in ability_lines(card) for item in line.split(","))


def names_other(card: CardInfo, phrase: str, other: str) -> bool:
    """A line of the card's rules text is ``phrase`` followed by the other card's name."""
    wanted = f"{phrase} {other}".casefold()
    return any(line == wanted for line in ability_lines(card))


def pair_rule(rules: tuple[PairRule, ...], a: CardInfo, b: CardInfo) -> PairRule | None:
    return next((rule for rule in rules if rule.matches(a, b)), None)
