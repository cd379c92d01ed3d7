"""What a player owns, as the deck pages and API show it: a hook the collection app fills in.

decks/ sits below collection/ in the layer order, so it cannot import it; collection's AppConfig.ready()
registers its provider here. Without one (or for an anonymous reader) nothing is known: ``None``.

The maybeboard (decks.maybe.MAYBE) is shown with what the reader owns, but is never needed to build the deck
and never holds copies of a built deck.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class LineOwnership:
    owned: int
    missing: int
    # Built decks (other than this one) holding copies of the line's card: [(deck id, name, copies)].
    held_by: tuple[tuple[int, str, int], ...] = ()
    # Every copy of the card the reader owns, built decks' included: "2 of 3 are in Blue-Eyes" counts these
    # (a line needing 1 copy whose card has 3 copies, all sleeved, reads "3 of 3", never "3 of 1").
    copies: int = 0


@dataclass(frozen=True)
class DeckOwnership:
    # (section slug, card id) → what the reader owns of that line.
    lines: dict[tuple[str, int], LineOwnership] = field(default_factory=dict)
    missing: int = 0
    built: bool = False

    @property
    def buildable(self) -> bool:
        return self.missing == 0


DeckProvider = Callable[[Any, Any, Any], DeckOwnership | None]
ListProvider = Callable[[Any, Iterable[Any]], dict[int, int]]

_providers: dict[str, Any] = {}


def register(*, deck: DeckProvider, decks_missing: ListProvider) -> None:
    _providers["deck"] = deck
    _providers["decks_missing"] = decks_missing


def deck_ownership(*, deck: Any, user: Any, sections: Any) -> DeckOwnership | None:
    """The reader's ownership of each line of ``deck`` (``sections`` as decks.selectors.deck_sections)."""
    provider = _providers.get("deck")
    if provider is None or user is None or not user.is_authenticated:
        return None
    return provider(deck, user, sections)


def decks_missing(*, user: Any, decks: Iterable[Any]) -> dict[int, int]:
    """Deck id → copies the reader lacks to build it (0: buildable); {} when nothing is known."""
    provider = _providers.get("decks_missing")
    if provider is None or user is None or not user.is_authenticated:
        return {}
    return provider(user, decks)
