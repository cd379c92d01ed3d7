"""Plain data shapes shared by the deck-list parsers and serializers (no Django here)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .problems import render

RefKind = Literal["id", "name"]
# How many left-out lines an import reports: enough to see what happened, bounded for hostile input.
MAX_SKIPPED = 200


class DeckFormatError(ValueError):
    """A deck cannot be written in the asked format (e.g. a Caster deck as .ydk): a problem ``code`` with
    named ``params`` (decks/messages.py has the words); ``str()`` words it in the active language."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return render(self.code, self.params)


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
    """A line the parser could not read: a problem ``code`` with named ``params`` (decks/messages.py has
    the words); ``message`` and ``str()`` word it in the active language."""

    line: int
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return render(self.code, self.params)

    def render(self, lang: str | None = None) -> str:
        """The problem with its line ("line 3: …") in ``lang`` (None: the active language)."""
        message = render(self.code, self.params, lang)
        return render("line", {"line": self.line, "detail": message}, lang) if self.line else message

    def as_param(self) -> dict[str, Any]:
        """The problem as a report parameter, worded where the report is shown."""
        return {"problem": self.code, "params": dict(self.params), "line": self.line}

    def __str__(self) -> str:
        return self.render()


@dataclass(frozen=True)
class SkippedLine:
    """A line the parser read and deliberately left out of the deck (not an error): a group heading of a
    list site ("Monster Cards (20)"), a client's metadata ("NAME:", "LAYOUT MAIN:…", Forge's "Name="),
    or a comment. The import answer lists them so the player sees that nothing was lost silently."""

    line: int
    text: str
    reason: str  # "group", "metadata", "layout", "comment"

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "text": self.text, "reason": self.reason}


@dataclass(frozen=True)
class LayoutLine:
    """One line of an imported file exactly as written: its text and line ending ("\r\n", "\n", "\r",
    or "" for a last line without one). A card line also names its section and card (``ref``)."""

    text: str
    ending: str
    section: str = ""
    ref: str = ""


@dataclass(frozen=True)
class FileLayout:
    """What a deck file said besides its cards (the author's header, comments, line endings) and where
    each card stood, so an export can give the author's file back (see write.to_ydk)."""

    format: str
    lines: tuple[LayoutLine, ...]
    bom: bool = False

    def as_json(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "bom": self.bom,
            "lines": [[line.text, line.ending, line.section, line.ref] for line in self.lines],
        }

    @classmethod
    def from_json(cls, data: Any) -> FileLayout | None:
        """The layout stored with a deck, or None when there is none or it is not one we wrote."""
        if not isinstance(data, dict) or not isinstance(data.get("lines"), list):
            return None
        lines = []
        for item in data["lines"]:
            if not (isinstance(item, list) and len(item) == 4 and all(isinstance(v, str) for v in item)):
                return None
            lines.append(LayoutLine(*item))
        return cls(str(data.get("format", "")), tuple(lines), bool(data.get("bom")))


@dataclass
class ParsedDeck:
    sections: dict[str, list[ParsedEntry]] = field(default_factory=dict)
    hero: ParsedEntry | None = None
    name: str = ""
    errors: list[ParseError] = field(default_factory=list)
    # Hero lines after the first (a second hero, or one hero given twice): the rules report counts them.
    extra_heroes: list[ParsedEntry] = field(default_factory=list)
    # Cards a Cockatrice file names as its commanders while keeping them in "main" (``<bannerCard>``,
    # "CDR:" / "Commander:" comment lines): the resolver moves them out when the format has a hero.
    commanders: list[str] = field(default_factory=list)
    source_format: str = ""
    # Only the Deckhall JSON format carries these; the others leave them empty.
    game: str = ""
    format_slug: str = ""
    notes: str = ""
    # The file's own lines (.ydk only), kept so exporting the unedited deck gives the same file back.
    layout: FileLayout | None = None
    # Lines read and left out on purpose (group headings, metadata, comments), at most MAX_SKIPPED.
    skipped: list[SkippedLine] = field(default_factory=list)

    def skip(self, line: int, text: str, reason: str) -> None:
        if len(self.skipped) < MAX_SKIPPED:
            self.skipped.append(SkippedLine(line, text.strip()[:80], reason))

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
    # A printing as "SET:NUMBER" (XMage's "[SET:NUMBER]"), for the writers of clients that need one.
    printing: str = ""


@dataclass
class DeckList:
    sections: dict[str, list[DeckLine]] = field(default_factory=dict)
    hero: DeckLine | None = None
    # Heroes after the first: a Commander deck's partner, background or companion Doctor.
    extra_heroes: list[DeckLine] = field(default_factory=list)
    name: str = ""
    game: str = ""
    format_slug: str = ""
    notes: str = ""
    layout: FileLayout | None = None
