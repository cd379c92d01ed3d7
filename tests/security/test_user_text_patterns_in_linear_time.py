"""Every regular expression of the apps that can see user text (deck lines, card and deck names, search words,
file names and contents, headers) runs in time linear in its input.

The patterns are found by importing every module of the apps, so a pattern added later is walked without
editing this test. Each is fed hostile inputs of 10,000 characters (runs of blanks, of digits, of brackets,
of the pieces the patterns look for, with a character at the end that makes them fail) through ``search``,
``match`` and ``fullmatch``. A linear pattern answers such an input in well under a millisecond; the bound,
50 ms of CPU per input, is 50 times that, and a backtracking pattern (quadratic: 0.15–0.8 s at 10,000
characters; the resolver's old level suffix, cubic: 2 s at 500) cannot meet it. Inputs of 500 characters go first,
then 10,000 so a cubic pattern fails in seconds instead of running for hours.

The rewritten patterns answer exactly what the old ones answered, checked on short inputs where the old
patterns are still quick.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.cpu_time import least_cpu_seconds

APPS = (
    "accounts",
    "cards",
    "config",
    "decks",
    "games",
    "idempotency",
    "rules",
    "seasons",
    "tournaments",
    "venue",
)
BOUND_S = 0.05
PIECES = [" ", "\xa0", "\t", "\n", "a", "A", "1", "(", ")", "#", "[", "-", "—", "*", "^", ".", ":", "/", "lv",
          "Lv ", "ур", "x", "=", "'", "SB:", "<?xml ", "inet "]  # fmt: skip


def _patterns() -> dict[str, re.Pattern]:
    found: dict[int, tuple[str, re.Pattern]] = {}

    def walk(value: object, name: str, depth: int = 0) -> None:
        if isinstance(value, re.Pattern):
            found.setdefault(id(value), (name, value))
        elif isinstance(value, tuple | list) and depth < 2:
            for i, item in enumerate(value):
                walk(item, f"{name}[{i}]", depth + 1)
        elif isinstance(value, dict) and depth < 2:
            for key, item in list(value.items())[:200]:
                walk(item, f"{name}[{key!r}]", depth + 1)

    for app in APPS:
        package = importlib.import_module(app)
        for module in pkgutil.walk_packages(package.__path__, f"{app}."):
            if ".migrations" in module.name:
                continue
            for key, value in vars(importlib.import_module(module.name)).items():
                walk(value, f"{module.name}.{key}")
    return {name: pattern for name, pattern in found.values()}


def _hostile(length: int) -> list[str]:
    inputs = []
    for piece in PIECES:
        run = (piece * length)[:length]
        inputs += [run[:-1] + "\x01", ("a" + run)[: length - 1] + "b"]
    for first in ("a", "(", "#", "1"):
        for second in (" ", "\xa0", "lv", "("):
            inputs.append(((first + second) * length)[:length] + "!")
    return inputs


def _cpu(pattern: re.Pattern, text: str) -> float:
    data: str | bytes = text.encode() if isinstance(pattern.pattern, bytes) else text

    def scan() -> None:
        pattern.search(data)
        pattern.match(data)
        pattern.fullmatch(data)

    return least_cpu_seconds(scan, under=BOUND_S)


@pytest.mark.django_db
def test_every_pattern_of_the_apps_answers_hostile_input_in_linear_time() -> None:
    patterns = _patterns()
    assert len(patterns) >= 30, sorted(patterns)  # the walk finds the apps' patterns
    slow: list[str] = []
    for name, pattern in sorted(patterns.items()):
        for text in (*_hostile(500), *_hostile(10_000)):
            spent = _cpu(pattern, text)
            if spent > BOUND_S:
                slow.append(
                    f"{name} {pattern.pattern!r}: {spent:.2f} s on {text[:20]!r}… ({len(text)} characters)"
                )
                break
    assert not slow, "\n".join(slow)


# The patterns as they were, the oracle of what a line means.
_OLD = {
    "picked": re.compile(r"^(?P<name>.*?)\s*\(?#(?P<id>[^\s#()]+)\)?$"),
    "level": re.compile(r"^(?P<name>.+?)\s*\(?\s*(?:lv|lvl|level|ур)\.?\s*(?P<level>\d{1,3})\s*\)?$", re.I),
    "arena": re.compile(r"\s+\([A-Z0-9]{2,6}\)\s+[A-Za-z0-9★-]{1,10}(?:\s+\*[A-Z]\*)?$"),
    "mws": re.compile(r"\s+\(\d{1,2}\)$"),
    "caster": re.compile(r"^(?P<name>.+?)\s+Lv\s?(?P<level>\d+)$"),
    "type": re.compile(r"\s+[—–-]\s+"),
    "foil": re.compile(r"\s+\*[A-Za-z]{1,2}\*$"),
    "tag": re.compile(r"\s+#!?[^\s\d#][^\s#]*$"),
    "label": re.compile(r"\s+\^[^^]{0,80}\^$"),
    "category": re.compile(r"\s+\[[^\[\]]{1,40}\]$"),
    "set": re.compile(r"\s+\([A-Za-z0-9]{2,6}\)(?:\s+[A-Za-z0-9★\-]{1,10})?$"),
    "namelist": re.compile(
        r"^(?P<name>[^:]+?)\s*:\s*(?P<status>banned|restricted|limited\s+(?P<n>\d{1,2}))\s*$", re.I
    ),
}
_SHORT = st.lists(
    st.sampled_from(
        [
            "a",
            "B",
            " ",
            "  ",
            "\t",
            "(",
            ")",
            "#",
            "1",
            "12",
            "lv",
            "LVL",
            "level",
            "Ур",
            ".",
            "-",
            "—",
            "*F*",
            "X",
            "Lv",
            "(AB1)",
            "(12)",
            "/",
            "//",
            "#ramp",
            "^Have^",
            "[SET]",
            ":",
            "banned",
            "limited 2",
        ]
    ),
    max_size=9,
).map("".join)


def _new() -> dict[str, re.Pattern]:
    from cards.importers import cockatrice
    from decks import resolve, spelling
    from decks.formats import parse
    from rules import namelist

    foil, tag, label, category, set_ = spelling._TRAILERS
    return {"picked": resolve._PICKED_ID, "level": resolve._LEVEL_SUFFIX, "arena": parse._ARENA_PRINTING,
            "mws": parse._MWS_ARTWORK, "caster": cockatrice.CASTER_LEVEL_RE, "type": cockatrice.TYPE_SEPARATOR_RE,
            "foil": foil, "tag": tag, "label": label, "category": category, "set": set_,
            "namelist": namelist._ENTRY}  # fmt: skip


def _groups(match: re.Match | None) -> object:
    return None if match is None else (match.span(), match.groupdict())


@settings(max_examples=800, deadline=None)
@given(_SHORT)
@example("Dark Magician (#46986414)")
@example("Jinzo #7")
@example("Caster  (Lv. 3)")
@example("Fire Lord lvl3")
@example("Lightning Bolt (M10) 146 *F*")
@example("Name (2)")
@example("Flame Caster Lv 4")
@example("Creature — Goblin - Warrior")
@example("Fire // Ice")
@example("Sol Ring #ramp")
@example("Black Lotus : banned")
def test_the_rewritten_patterns_answer_what_the_old_ones_answered(text: str) -> None:
    for key, new in _new().items():
        old = _OLD[key]
        # The resolver and the importer read stripped text (a name never starts with a blank).
        line = text.strip() if key in ("picked", "level", "caster", "namelist") else text
        assert _groups(new.match(line)) == _groups(old.match(line)), (key, line)
        assert _groups(new.search(line)) == _groups(old.search(line)), (key, line)
        assert new.split(line) == old.split(line), (key, line)
        assert new.sub("|", line) == old.sub("|", line), (key, line)
