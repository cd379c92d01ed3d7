"""The deck-list reader's cost per line on hostile input (a ReDoS line froze the venue).

    .venv/bin/python bench/bench_deck_lines.py [--lines 2000] [--seed 1]

Times parse_deck() on single lines of up to 500 characters (the reader's limit): the known attack lines
(a letter, blanks, a letter; a count and blanks; runs of brackets and dashes) and random mixes of the
characters the header and count scanners look at. Prints the median and the worst milliseconds per line
per family (each line's own figure is the median of 5 runs). Target: worst < 5 ms per line.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from decks.formats import parse_deck
from decks.formats.parse import MAX_LINE_LENGTH

PIECES = [
    " ",
    "\t",
    "a",
    "1",
    "40",
    "x",
    "×",
    "*",
    "-",
    "—",
    ":",
    "(",
    ")",
    "[",
    "]",
    "=",
    "#",
    "cards",
    "карт",
]


def attack_lines() -> list[str]:
    width = MAX_LINE_LENGTH
    return [
        "a" + " " * 56 + "b",
        "a" + " " * (width - 2) + "b",
        "3" + " " * (width - 2) + "x",
        "a" + " " * (width - 3) + "x3",
        "(" * (width // 2) + " " * (width // 2),
        "a" + " -" * ((width - 2) // 2) + "b",
        "Main" + " " * (width - 10) + "(40):",
        "SB: " + " " * (width - 6) + "1",
    ]


def random_lines(count: int, rng: random.Random) -> list[str]:
    lines = []
    for _ in range(count):
        parts: list[str] = []
        while sum(map(len, parts)) < MAX_LINE_LENGTH:
            parts.append(rng.choice(PIECES) * rng.choice((1, 1, 1, 5, 40)))
        lines.append("".join(parts)[: rng.randint(1, MAX_LINE_LENGTH)])
    return lines


def time_lines(lines: list[str], repeat: int = 5) -> list[float]:
    """Per line, the median of ``repeat`` runs: one run can land on a neighbour's burst on a shared machine."""
    times = []
    for line in lines:
        runs = []
        for _ in range(repeat):
            start = time.perf_counter()
            parse_deck(line)
            runs.append((time.perf_counter() - start) * 1000)
        times.append(statistics.median(runs))
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    families = {"attack lines (x20 each)": attack_lines() * 20, "random mixes": random_lines(args.lines, rng)}
    print(f"{'family':<26} {'lines':>6} {'median ms':>10} {'worst ms':>9}  target worst < 5 ms")
    for name, lines in families.items():
        times = time_lines(lines)
        print(f"{name:<26} {len(lines):>6} {statistics.median(times):>10.3f} {max(times):>9.3f}")


if __name__ == "__main__":
    main()
