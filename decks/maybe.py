"""The maybeboard ("considering"): a section every deck of every game may have, kept in versions and
copies, never validated, never counted, never frozen into a tournament and never written into a play
format (.ydk, ydke, Cockatrice, MTGO) — only into the formats that have a place for it (Deckhall JSON/CSV)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

MAYBE = "maybe"

T = TypeVar("T")


def without_maybe(sections: Mapping[str, T]) -> dict[str, T]:
    """The sections that make the deck (what validation, statistics, hands and play formats see)."""
    return {slug: lines for slug, lines in sections.items() if slug != MAYBE}
