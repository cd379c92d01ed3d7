"""Deck lines are read in time linear in their length (one line of "a", 56 blanks and "b", sent
anonymously through the join screen, took 22 s in the old backtracking patterns and held the venue's
write lock meanwhile).

Two properties: the scanners answer exactly what the old patterns answered (checked on short lines, where
the patterns are still quick), and no line up to the 500-character limit, of any mix of the characters
those patterns cared about, costs more than a small fraction of a second. The time bound is 100 ms of
CPU per line (the least of a few runs, `tests/cpu_time.py`), 300 times the worst the bench measures, so a
loaded machine cannot make it fail while a return of polynomial backtracking (seconds at 56 blanks) cannot
pass it.
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from decks.formats import parse_deck, section_slug
from decks.formats.parse import MAX_LINE_LENGTH, count_first, count_last
from tests.cpu_time import least_cpu_seconds

# The patterns of the first hardening round, kept here as the oracle of what a line means.
_OLD_SEPARATOR = "[xXхХ×*]"
_OLD_COUNT_FIRST = re.compile(rf"^([+-]?\d+)\s*{_OLD_SEPARATOR}?\s+(\S.*)$")
_OLD_COUNT_LAST = re.compile(rf"^(\S.*?)\s+{_OLD_SEPARATOR}\s*([+-]?\d+)$")
_OLD_DECORATION = re.compile(r"^[\s=#*\-\[]*|[\s=*\-\]]*$")
_OLD_TRAILING_COUNT = re.compile(r"[\s:—–\-]*\(?\s*\d*\s*(cards?|карт[ауы]?)?\s*\)?\s*:?\s*$", re.IGNORECASE)


def _old_section_slug(header: str) -> str | None:
    from decks.formats.sections import _ALIAS_TO_SLUG

    text = _OLD_DECORATION.sub("", header.strip()).casefold()
    text = _OLD_TRAILING_COUNT.sub("", text).strip().rstrip(":").strip()
    text = text.replace("ё", "е").replace("_", " ")
    return _ALIAS_TO_SLUG.get(re.sub(r"\s+", " ", text))


_PIECES = [" ", "\t", "a", "b", "1", "40", "x", "X", "×", "*", "+", "-", "—", ":", "(", ")", "[", "]", "=",
           "#", "cards", "card", "карт", "карты", "side", "main", "сайд", "extra deck", "\u00a0", "²"]  # fmt: skip
_line = st.lists(st.sampled_from(_PIECES), max_size=MAX_LINE_LENGTH).map(
    lambda parts: "".join(parts)[:MAX_LINE_LENGTH]
)
_short_line = st.lists(st.sampled_from(_PIECES), max_size=8).map("".join)


def _old_count(line: str) -> tuple[str, str] | None:
    first = _OLD_COUNT_FIRST.match(line)
    if first:
        return first.group(1), first.group(2)
    last = _OLD_COUNT_LAST.match(line)
    return (last.group(2), last.group(1)) if last else None


@settings(max_examples=600, deadline=None)
@given(_short_line)
@example("3x Dark Magician")
@example("3 x")
@example("Name x x 3")
@example("Side Deck (15 cards):")
@example("== Extra ==")
@example("Основная колода — 40")
@example("x:) :")
def test_it_reads_every_line_as_the_old_patterns_did(line: str) -> None:
    stripped = line.strip()
    assert (count_first(stripped) or count_last(stripped)) == _old_count(stripped)
    assert section_slug(line) == _old_section_slug(line)


def _cpu_ms(line: str) -> float:
    def read() -> None:
        parse_deck(line)
        parse_deck(f"Main\n{line}\n{line}:\n// {line}\nSB: {line}\n")

    return least_cpu_seconds(read, under=0.1) * 1000


def test_it_reads_the_line_that_froze_the_venue_at_once() -> None:
    for blanks in (56, 200, MAX_LINE_LENGTH - 2):
        assert _cpu_ms("a" + " " * blanks + "b") < 100
        assert _cpu_ms("3" + " " * blanks + "x") < 100


@settings(max_examples=150, deadline=None)
@given(_line)
@example("a" + " " * 56 + "b")
@example("(" * 250 + " " * 250)
@example("1" + " " * 498 + "x")
@example("a" + " -" * 249 + "b")
def test_it_reads_any_line_up_to_the_limit_in_linear_time(line: str) -> None:
    assert _cpu_ms(line) < 100
