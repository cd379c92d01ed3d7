"""What every deck-list reader shares: the counts in front of or behind a name, the per-line checks, and
how a read card enters a ParsedDeck. Pure Python, no Django.

Deck lines are read by scanning, never by backtracking patterns: a line is user text of up to 500
characters and arrives anonymously (the join screen), so its cost must grow linearly with its length.
"""

from __future__ import annotations

import re
from typing import Any

from .model import ParsedDeck, ParsedEntry, ParseError

MAX_LINE_LENGTH = 500
MAX_COUNT = 999
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

# What may stand between a count and a name: "3x Name", "3 × Name", "Name x3" (the writer avoids it too).
COUNT_SEPARATORS = "xXхХ×*"
COUNT_SEPARATOR = f"[{COUNT_SEPARATORS}]"  # the same set as a pattern, for the writer's fixed-size checks


def blank_end(text: str, start: int) -> int:
    while start < len(text) and text[start].isspace():
        start += 1
    return start


def blank_start(text: str, end: int) -> int:
    while end > 0 and text[end - 1].isspace():
        end -= 1
    return end


def count_first(line: str) -> tuple[str, str] | None:
    """(count, name) of "3 Name", "3x Name", "-1 × Name"; None when the line does not start with a count."""
    digits = 1 if line[:1] in ("+", "-") else 0
    end = digits
    while end < len(line) and line[end].isdecimal():
        end += 1
    if end == digits:
        return None
    after = blank_end(line, end)
    if after < len(line) and line[after] in COUNT_SEPARATORS:
        name = blank_end(line, after + 1)
        if name > after + 1 and name < len(line):  # a separator needs a blank after it: "3x Name"
            return line[:end], line[name:]
    # No separator: the count and the name are split by blanks ("3 Name"; "3 xyz" is 3 × "xyz").
    if after > end and after < len(line):
        return line[:end], line[after:]
    return None


def count_last(line: str) -> tuple[str, str] | None:
    """(count, name) of "Name x3", "Name × 3"; None when the line does not end like that."""
    end = len(line)
    while end > 0 and line[end - 1].isdecimal():
        end -= 1
    if end == len(line):
        return None
    count_start = end - 1 if end and line[end - 1] in ("+", "-") else end
    separator = blank_start(line, count_start) - 1
    if separator < 0 or line[separator] not in COUNT_SEPARATORS:
        return None
    name_end = blank_start(line, separator)
    if name_end == separator or name_end == 0 or line[0].isspace():
        return None
    return line[count_start:], line[:name_end]


def check_count(raw: Any, line: int, deck: ParsedDeck, what: str) -> int | None:
    try:
        count = int(str(raw).strip().lstrip("+"))
        if isinstance(raw, (bool, float)):
            raise ValueError
    except (TypeError, ValueError):
        deck.errors.append(ParseError(line, "quantity_not_number", {"quantity": str(raw)[:20], "what": what}))
        return None
    if count <= 0 or count > MAX_COUNT:
        deck.errors.append(
            ParseError(line, "quantity_range", {"quantity": count, "what": what, "max": MAX_COUNT})
        )
        return None
    return count


def check_line(raw: str, number: int, deck: ParsedDeck) -> str | None:
    if len(raw) > MAX_LINE_LENGTH:
        deck.errors.append(ParseError(number, "line_too_long", {"limit": MAX_LINE_LENGTH}))
        return None
    if CONTROL_CHARACTERS.search(raw):
        deck.errors.append(ParseError(number, "control_characters"))
        return None
    return raw.strip()


def entry_of(ref: tuple[str, str], count: int, line: int) -> ParsedEntry:
    external_id, name = ref
    if external_id:
        return ParsedEntry(external_id, count, line, "id", name)
    return ParsedEntry(name, count, line, "name", name)


def set_hero(deck: ParsedDeck, entry: ParsedEntry) -> None:
    # Heroes beyond the first are kept in extra_heroes so the rules report can say "too many heroes".
    if deck.hero is not None:
        # A second hero is no error of the file: Magic's partner commanders are two, and the rules report
        # says "too many heroes" when the format has no pair for them.
        deck.extra_heroes.append(entry)
        return
    if entry.count != 1:
        deck.errors.append(ParseError(entry.line, "hero_count", {"count": entry.count}))
        if entry.count > 1:
            deck.extra_heroes.append(
                ParsedEntry(entry.ref, entry.count - 1, entry.line, entry.by, entry.name)
            )
            deck.hero = ParsedEntry(entry.ref, 1, entry.line, entry.by, entry.name)
        return
    deck.hero = entry


def add_entry(deck: ParsedDeck, section: str, entry: ParsedEntry) -> None:
    if section == "hero":
        set_hero(deck, entry)
    else:
        deck.add(section, entry)
