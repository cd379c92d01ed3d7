"""Plain data shapes shared by the deck-list parsers and serializers (no Django here)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

RefKind = Literal["id", "name"]


class DeckFormatError(ValueError):
    """A deck cannot be written in the asked format (e.g. a Caster deck as .ydk)."""


@dataclass(frozen=True)
class ParsedEntry:
    """One card line of an imported deck list.

    ``ref`` is either the card's external id (``by == "id"``) or its printed name (``by == "name"``);
    ``name`` is an optional readable name shipped next to an id (JSON, CSV), used as a fallback.
    """

    ref: str
    count: int
    line: int
    by: RefKind = "name"
    name: str = ""


@dataclass(frozen=True)
class ParseError:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


@dataclass
class ParsedDeck:
    sections: dict[str, list[ParsedEntry]] = field(default_factory=dict)
    hero: ParsedEntry | None = None
    name: str = ""
    errors: list[ParseError] = field(default_factory=list)
    # Hero lines after the first (a second hero, or one hero given twice): the rules report counts them.
    extra_heroes: list[ParsedEntry] = field(default_factory=list)
    source_format: str = ""
    # Only the Deckhall JSON format carries these; the others leave them empty.
    game: str = ""
    format_slug: str = ""
    notes: str = ""

    def add(self, section: str, entry: ParsedEntry) -> None:
        """Add copies, merging repeated refs (a .ydk lists one line per copy) at the first position."""
        entries = self.sections.setdefault(section, [])
        for index, existing in enumerate(entries):
            if existing.ref == entry.ref and existing.by == entry.by:
                entries[index] = ParsedEntry(
                    existing.ref, existing.count + entry.count, existing.line, existing.by, existing.name
                )
                return
        entries.append(entry)

    def counts(self) -> dict[str, list[tuple[str, int]]]:
        """The deck as {section: [(ref, count)]} without empty sections: what round trips compare."""
        return {
            section: [(entry.ref, entry.count) for entry in entries]
            for section, entries in self.sections.items()
            if entries
        }

    @property
    def total(self) -> int:
        return sum(entry.count for entries in self.sections.values() for entry in entries)


@dataclass(frozen=True)
class DeckLine:
    """A resolved card in a deck list being written out: external id, display name, copies."""

    ref: str
    name: str
    count: int


@dataclass
class DeckList:
    sections: dict[str, list[DeckLine]] = field(default_factory=dict)
    hero: DeckLine | None = None
    name: str = ""
    game: str = ""
    format_slug: str = ""
    notes: str = ""
