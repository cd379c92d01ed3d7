"""The fast path: a depth-first search over floater sets that pairs a run of score groups top-down.

At each group the pool is the players floated down from above plus the group. The search floats exactly
as many players as the pool's parity demands (0 or 1), preferring real members of the group over
already-floated players, fewer previous pair-downs, then the lowest in the seeded order, and pairs the rest
of the pool without rematches. So a run it completes crosses every boundary inside it the minimum number of
times its parity allows (the lower bound). In real events the first candidate works at nearly every group
and the run costs one greedy sweep; when it does not, the search gives up after a small work budget and
reports the deepest group it reached, where the window solver takes over (see ``tournaments.engine.pairing``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate

from ._matching import perfect_matching
from ._types import Players

# The search gives up once the pool members it has looked at exceed WORK_PER_PLAYER times the players of
# the groups it has reached, plus WORK_BASE. The first-choice sweep looks at each player about once, so
# backtracking may cost about as much again as the part of the round it is stuck in: trouble among the
# few players at the top tables gets a few hundred steps, not the whole round's worth. Past that the exact
# window is cheaper than trying more floaters.
WORK_PER_PLAYER = 2
WORK_BASE = 256


class _SearchLimit(Exception):
    pass


@dataclass(slots=True)
class RunResult:
    pairs: list[tuple[int, int]] | None
    """None when the run could not be paired at its lower bound (or the work budget ran out)."""
    deepest: int
    """Index (inside the run) of the deepest group the search reached: where it got stuck."""
    nodes: int


def pair_run(
    groups: list[list[int]],
    by_id: Players,
    incoming: tuple[int, ...],
    tail: tuple[int, ...],
    never_floats: frozenset[int],
) -> RunResult:
    """Pair ``groups`` top-down with nobody floating out of the last one.

    ``incoming`` players were floated into the first group from a window above; ``tail`` players belong
    to a window below but are paired up into the last group (they never float).
    """
    last = len(groups) - 1
    pairs: list[tuple[int, int]] = []
    failed: set[tuple[int, frozenset[int]]] = set()
    # reached[i]: players in the run down to group i (with the incoming floaters and the tail).
    reached = list(accumulate((len(group) for group in groups), initial=len(incoming)))[1:]
    if reached:
        reached[-1] += len(tail)
    work = nodes = 0
    deepest = 0
    stay = never_floats | frozenset(tail)

    def visit(index: int, floating: tuple[int, ...]) -> bool:
        nonlocal work, nodes, deepest
        if index > last:
            return not floating
        deepest = max(deepest, index)
        key = (index, frozenset(floating))
        if key in failed:
            return False
        group = groups[index] + list(tail) if index == last else groups[index]
        pool = list(floating) + group
        size = len(pool) % 2
        if size and index == last:
            failed.add(key)
            return False
        for down in _floater_candidates(floating, group, by_id, size, stay):
            nodes += 1
            work += len(pool)
            if work > WORK_PER_PLAYER * reached[deepest] + WORK_BASE:
                raise _SearchLimit
            rest = [pid for pid in pool if pid not in down] if down else pool
            matched = perfect_matching(rest, by_id, never_floats)
            if matched is None:
                continue
            mark = len(pairs)
            pairs.extend(matched)
            if visit(index + 1, down):
                return True
            del pairs[mark:]
        failed.add(key)
        return False

    try:
        found = visit(0, incoming)
    except _SearchLimit:
        found = False
    return RunResult(pairs if found else None, deepest, nodes)


def _floater_candidates(
    incoming: tuple[int, ...],
    group: list[int],
    by_id: Players,
    size: int,
    never_floats: frozenset[int],
) -> Iterator[tuple[int, ...]]:
    if size == 0:
        yield ()
        return
    # Preference: members of this group before players already floated from above (floating them again
    # means skipping a group), fewer previous pair-downs first, then lowest in the seeded order.
    members = [pid for pid in reversed(group) if pid not in never_floats]
    if members:
        # The first candidate almost always works, so avoid sorting the whole (possibly huge) group.
        fewest = min(by_id[pid].pair_downs for pid in members)
        yield from ((pid,) for pid in members if by_id[pid].pair_downs == fewest)
        rest = [pid for pid in members if by_id[pid].pair_downs != fewest]
        rest.sort(key=lambda pid: by_id[pid].pair_downs)
        yield from ((pid,) for pid in rest)
    yield from ((pid,) for pid in reversed(incoming) if pid not in never_floats)
