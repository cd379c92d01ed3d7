"""Every deck-file reader stays linear on hostile input: 10,000-character lines of the characters each
reader cares about, through XMage/Forge .dck, MTGJSON, OCTGN, mtg.wtf and list-site text, and through the
scanners those readers added (bracketed counts, group headings, XMage LAYOUT lines, near-miss lookup).

The bound is 250 ms of CPU per input, far above what a linear scan needs (a few ms) and far below what a
backtracking pattern costs on these shapes (seconds): a loaded machine cannot make it fail, a quadratic
or worse scanner cannot pass it."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.formats import parse_deck
from decks.formats.parse import count_bracketed
from decks.formats.sections import group_heading
from decks.respell import NameIndex, _closest
from decks.spelling import fold, undecorated
from tests.cpu_time import least_cpu_seconds

N = 10_000
BOUND_MS = 250

HOSTILE_LINES = {
    "blanks": "a" + " " * (N - 2) + "b",
    "brackets": "(" * (N // 2) + ")" * (N // 2),
    "square": "[" * N,
    "bracket_counts": "1 " + "(x" * (N // 2 - 1),
    "trailing_count": "Name" + " (x3)" * (N // 5 - 1),
    "foil_marks": "1 Sol Ring" + " [foil]" * (N // 7 - 2),
    "layout": "LAYOUT MAIN:" + "([C21:334]," * (N // 11),
    "sideboard": "SB: " + " " * (N - 8) + "1 x",
    "commander": "COMMANDER: " + "1 " * (N // 2 - 6),
    "forge": "1 " + "|" * (N - 2),
    "groups": "Monster Cards " + "(20)" * (N // 4 - 4),
    "colons": "Spell" + ":" * (N - 5),
    "xmage_set": "1 [" + "WAR:2*" * (N // 6 - 1) + "] Ugin",
}


def _cpu_ms(call: Callable[[], object], bound_ms: float = BOUND_MS) -> float:
    return least_cpu_seconds(call, under=bound_ms / 1000) * 1000


@pytest.mark.parametrize("shape", sorted(HOSTILE_LINES))
def test_every_reader_takes_a_hostile_line_in_linear_time(shape: str) -> None:
    line = HOSTILE_LINES[shape]
    assert len(line) >= N - 20
    documents = {
        "text": f"Main Deck:\n{line}\nMonster\n{line}\n",
        "dck": f"NAME:x\n{line}\nSB: 1 [C21:335] Osgir\n{line}\n",
        "forge": f"[metadata]\nName={line}\n[Main]\n{line}\n",
        "mtgjson": json.dumps({"name": line, "mainBoard": [{"count": 1, "name": line, "uuid": line}]}),
        "o8d": f'<deck game="g"><section name="{line[:200]}"><card qty="1" id="x">{line}</card></section></deck>',
    }
    for fmt, document in documents.items():
        reader = {"forge": "dck", "o8d": "cod"}.get(fmt, fmt)
        spent = _cpu_ms(lambda document=document, reader=reader: parse_deck(document, fmt=reader))
        assert spent < BOUND_MS, (shape, fmt, spent)
    for scanner in (count_bracketed, group_heading, undecorated, fold):
        spent = _cpu_ms(lambda scanner=scanner: scanner(line))
        assert spent < BOUND_MS, (shape, scanner.__name__, spent)


def test_a_layout_line_of_any_length_is_skipped_not_refused() -> None:
    deck = parse_deck("1 [C21:263] Sol Ring\n" + HOSTILE_LINES["layout"] + "\n", fmt="dck")
    assert not deck.errors and deck.counts() == {"main": [("Sol Ring", 1)]}
    assert [line.reason for line in deck.skipped] == ["layout"]


def test_the_near_miss_lookup_is_bounded_by_name_length() -> None:
    names = [f"card number {i} of the game" for i in range(20_000)]
    keys = {fold(name): (i,) for i, name in enumerate(names)}
    by_length: dict[int, list[str]] = {}
    for key in keys:
        by_length.setdefault(len(key), []).append(key)
    index = NameIndex(keys, {}, {length: tuple(group) for length, group in by_length.items()})
    assert _cpu_ms(lambda: _closest(index, "card numbr 1234 of the game"), 1000) < 1000
    # An unknown "name" as long as a hostile line is never compared (near_misses skips keys over 150).
    assert _cpu_ms(lambda: _closest(index, "x" * 150)) < BOUND_MS


_PIECES = ["[", "]", "(", ")", "x", "3", "1 ", "SB: ", "NAME:", "LAYOUT ", "COMMANDER: ", "PARTNER:", "|", "+",
           "*", "[metadata]", "[Main]", "Name=", "Monster", " [foil]", "\n", " ", ":", "{", "}", '"mainBoard"',
           "<deck>", "<section name='Main'>", "<card qty='2'>", "</card>", "#", "//"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_PIECES), max_size=40).map("".join),
    st.sampled_from(["text", "dck", "mtgjson", "cod", "json", None]),
)
def test_no_reader_raises_on_any_mix_of_what_it_reads(text: str, fmt: str | None) -> None:
    deck = parse_deck(text, fmt=fmt)
    assert all(
        isinstance(entry.count, int) and entry.count > 0
        for entries in deck.sections.values()
        for entry in entries
    )
