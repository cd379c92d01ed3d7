"""The slow path: an exact minimum-cost matching of a *window* of consecutive score groups.

A window's players may pair among themselves, or with someone above the window (an "up" sink) or below it
(a "down" sink): the sinks stand for the rest of the round, which the fast search pairs afterwards. The
matching minimises the boundary crossings *inside the window's range of boundaries* (from the one above its
first group to the one below its last group); with free sinks it is a relaxation of the whole round, so its
minimum is a lower bound of what any pairing of the round crosses on those boundaries. See
``tournaments.engine.pairing`` for why that makes the combined round exact.

Pair costs encode the Swiss priorities lexicographically, in integer tiers so no tier can outweigh the
one above it:
  1. score-group boundaries crossed (the pair-down count that must be minimal);
  2. players skipping a whole group (a member of the group should float rather than a floater again);
  3. per crossing, the floating player's previous pair-downs, then their rank inside the group (lowest in
     the seeded order floats first);
  4. for the bye pseudo-player, the lowest-ranked eligible player of the bye's group.
"""

from __future__ import annotations

from dataclasses import dataclass

from ._matching import greedy_pairs, max_weight_matching
from ._types import Players

# Sinks beyond the parity minimum offered at first; doubled while the matching uses every one of them.
_FIRST_EXTRA_SINKS = 2


@dataclass(slots=True)
class WindowSolution:
    pairs: list[tuple[int, int]]
    up: tuple[int, ...]
    """Players to be paired above the window (by the run of groups above it)."""
    down: tuple[int, ...]
    """Players floated below the window."""
    through: int
    """Pairs the relaxation would seat across the whole window (a player above meets one below)."""


def solve_window(
    groups: list[list[int]],
    by_id: Players,
    one_sided: frozenset[int],
    up_parity: int | None,
    down_parity: int | None,
) -> WindowSolution | None:
    """Minimum-cost pairing of ``groups`` with sinks; None when not even the relaxation can be paired.

    ``up_parity`` / ``down_parity`` are the parities of the number of players above / below the window
    (None when the window starts at the top / ends at the bottom of the round: no sinks on that side);
    the players sent up (down) must have that parity so the rest of the round can close.
    """
    players = sum(len(group) for group in groups)
    most = players + 1
    extra_up = extra_down = _FIRST_EXTRA_SINKS
    while True:
        up = _sinks(up_parity, extra_up, most)
        down = _sinks(down_parity, extra_down, most)
        up_capped = up_parity is not None and up < most - 1
        down_capped = down_parity is not None and down < most - 1
        solution = _solve_with_sinks(groups, by_id, one_sided, up, down)
        if solution is None:
            if not (up_capped or down_capped):
                return None
            # Perhaps only more players leaving the window can make it feasible: offer every sink.
            extra_up = extra_down = most
            continue
        up_full = up_capped and len(solution.up) + solution.through == up
        down_full = down_capped and len(solution.down) + solution.through == down
        if not (up_full or down_full):
            return solution
        # Every sink of a side is used: more might make the window cheaper. The cost is convex in the
        # number of sinks used (a min-cost matching of k pairs is convex in k), so an unused pair of sinks
        # proves that more would not help.
        extra_up = extra_up * 2 if up_full else extra_up
        extra_down = extra_down * 2 if down_full else extra_down


def _sinks(parity: int | None, extra: int, most: int) -> int:
    if parity is None:
        return 0
    return min(parity + 2 * extra, most - (most - parity) % 2)


def _solve_with_sinks(
    groups: list[list[int]], by_id: Players, one_sided: frozenset[int], up: int, down: int
) -> WindowSolution | None:
    order = [pid for group in groups for pid in group]
    players = len(order)
    n = players + up + down
    first_down = players + up
    # Levels: the up sinks sit above the window (0), its groups at 1..k, the down sinks below (k + 1).
    level = [0] * n
    rank_from_bottom = [0] * n
    start = 0
    for g, members in enumerate(groups, start=1):
        for offset in range(len(members)):
            level[start + offset] = g
            rank_from_bottom[start + offset] = len(members) - 1 - offset
        start += len(members)
    bottom = len(groups) + 1
    for v in range(first_down, n):
        level[v] = bottom
    index = {pid: i for i, pid in enumerate(order)}
    per_crossing = [by_id[pid].pair_downs * (n + 1) + rank_from_bottom[i] for i, pid in enumerate(order)]
    per_crossing += [0] * (up + down)
    spread = bottom + 1
    tier3 = max(per_crossing, default=0) * spread * (n // 2 + 1) + n + 1
    tier2 = (spread * spread * (n // 2 + 1) + 1) * tier3
    # Weights are "big - cost" so a maximum-weight maximum-cardinality matching is a minimum-cost one.
    big = spread * tier2 + tier2

    def crossing_cost(crossed: int, upper: int) -> int:
        return crossed * tier2 + crossed * (crossed - 1) * tier3 + crossed * per_crossing[upper]

    weights: list[dict[int, int]] = [{} for _ in range(n)]
    for i, pid in enumerate(order):
        row = weights[i]
        li = level[i]
        played = by_id[pid].opponents
        sided = pid in one_sided
        for j in range(i + 1, players):
            other = order[j]
            if other in played or pid in by_id[other].opponents:
                continue
            crossed = level[j] - li
            if crossed:
                cost = crossing_cost(crossed, i)
            elif sided:
                cost = rank_from_bottom[j]
            elif other in one_sided:
                cost = rank_from_bottom[i]
            else:
                cost = 0
            row[j] = weights[j][i] = big - cost
        if sided:
            continue
        # The player above is unknown for an up sink, so only the boundaries count (its own downs are 0).
        for s in range(players, first_down):
            row[s] = weights[s][i] = big - crossing_cost(li, s)
        for s in range(first_down, n):
            row[s] = weights[s][i] = big - crossing_cost(bottom - li, i)
    for side in (range(players, first_down), range(first_down, n)):
        for s in side:
            for t in side:
                if s < t:
                    weights[s][t] = weights[t][s] = big
    for s in range(players, first_down):
        for t in range(first_down, n):
            weights[s][t] = weights[t][s] = big - crossing_cost(bottom, s)
    # Warm start: greedy pairs inside each group (and sinks with sinks of their side) are tight for the
    # uniform initial duals, so the blossom algorithm only has to place the few players left over.
    warm: list[tuple[int, int]] = []
    for members in groups:
        pairs, _ = greedy_pairs(members, by_id, one_sided)
        warm.extend((index[a], index[b]) for a, b in pairs)
    warm.extend((s, s + 1) for s in range(players, first_down - 1, 2))
    warm.extend((s, s + 1) for s in range(first_down, n - 1, 2))
    mate = max_weight_matching(weights, warm)
    if any(m == -1 for m in mate):
        return None
    pairs = [(order[i], order[mate[i]]) for i in range(players) if i < mate[i] < players]
    sent_up = tuple(order[i] for i in range(players) if players <= mate[i] < first_down)
    sent_down = tuple(order[i] for i in range(players) if mate[i] >= first_down)
    through = sum(1 for s in range(players, first_down) if mate[s] >= first_down)
    return WindowSolution(pairs, sent_up, sent_down, through)
