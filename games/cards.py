"""The plain data the engine judges: cards, decks and ban lists."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any


@dataclass(frozen=True, slots=True, eq=False)
class CardInfo:
    """A card as the engine sees it, built from a ``cards.Card`` row (or a test helper).

    ``key`` identifies this entry (external id: YGO passcode, Cockatrice name, ...);
    ``identity`` is what copy limits and ban lists count, so alternate artworks share one limit.
    """

    key: str
    name: str
    identity: str = ""
    card_type: str = ""
    subtypes: tuple[str, ...] = ()
    level: int | None = None
    cost: int | None = None
    attributes: Mapping[str, Any] = field(default_factory=dict)
    deck_buildable: bool = True
    is_token: bool = False
    text: str = ""

    def __post_init__(self) -> None:
        if not self.identity:
            object.__setattr__(self, "identity", self.name)

    @property
    def label(self) -> str:
        """How messages name the card: casters carry their level, since each level is its own card."""
        if self.card_type == "caster" and self.level is not None:
            return f"{self.name} Lv{self.level}"
        return self.name

    @property
    def restrictions(self) -> list[Any] | None:
        """A hero's structured deck-building restrictions, or None when none were entered."""
        value = self.attributes.get("restrictions")
        return value if isinstance(value, list) else None


@dataclass(frozen=True, slots=True)
class UnknownCard:
    """A deck line whose card is not in the database: reported, never a crash."""

    section: str
    ref: str
    count: int = 1


@dataclass(slots=True)
class Deck:
    """Named sections of (card, count), an optional hero and pool, and the lines no card matched.

    ``extra_heroes`` are hero cards given beyond the first (a second hero, or the same one twice): the deck
    has too many heroes, which is its own violation (``hero_count``), not an unknown card.
    """

    sections: dict[str, list[tuple[CardInfo, int]]] = field(default_factory=dict)
    hero: CardInfo | None = None
    pool: list[tuple[CardInfo, int]] | None = None
    unknown: list[UnknownCard] = field(default_factory=list)
    extra_heroes: list[CardInfo] = field(default_factory=list)

    def section_total(self, slug: str) -> int:
        return sum(n for _, n in self.sections.get(slug, ()))


@dataclass(frozen=True, slots=True)
class BanListInfo:
    """One immutable ban list version. ``limits`` maps an external id (printing) or an identity to 0–3."""

    name: str
    limits: Mapping[str, int]
    whitelist: bool = False
    effective_date: date | None = None

    def limit_for(self, card: CardInfo) -> int | None:
        # The printing's own entry wins; otherwise the entry of its canonical (alias) identity.
        limit = self.limits.get(card.key)
        if limit is None:
            limit = self.limits.get(card.identity)
        return limit
