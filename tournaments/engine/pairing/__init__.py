"""Swiss pairing engine (pure Python, no Django).

Model
-----
Players are grouped by match points ("score groups"). Because the rank used for pairing is points only,
every player of a group is equal; the order inside a group comes from a seeded shuffle so a round can be
reproduced from ``(players, round_number, seed)``.

A *pair-down* is one player crossing one score-group boundary downwards. A player from the 9-point group
who meets a 3-point player while a 6-point group exists in between crossed two boundaries, i.e. counts as
two pair-downs: skipping a group is exactly as bad as floating twice. ``RoundPairing.stats.pair_downs`` is
the total number of boundary crossings, which makes "as few pair-downs as possible" a well-defined
minimum: every boundary is crossed a number of times with the parity of the number of players above it,
so the sum of those parities is a lower bound, and rematches force extra crossings on top of it.

Algorithm
---------
Fast path (``_search``): groups are processed top-down; at each group the pool is the players floated down
from above plus the group, exactly as many players as the pool's parity demands float further (0 or 1) and
the rest is paired without rematches (a greedy pass, completed by swaps or augmenting paths when it paints
itself into a corner). A depth-first search over the floater choices with memoised failures keeps every
boundary at its lower bound; in real events the first choice works at nearly every group and the round
costs one O(n) sweep. Since exactly the parity floats, nobody crosses a boundary with an even number of
players above it: the sweep is cut there into independent pieces, searched and cached one by one.

Slow path, local (``_window``): when a piece cannot keep the lower bound, or its search exceeds a work
budget proportional to the players it has reached (so trouble among the few players at the top tables
gives up after a few hundred steps), the search reports the deepest group it reached. That group becomes
a *window*, solved as an exact minimum-cost perfect matching (Edmonds' weighted blossom) in which every
window player may also pair with an "up" or a "down" sink: someone above or below the window, paid for by
the boundaries crossed up to the window's edge. The pieces between windows are then paired by the fast
search again, with the window's "down" players floated into the piece below it and its "up" players added
to the last group of the piece above it. A piece that fails adds the group where it got stuck as another
window, or grows the window next to it by that group; touching windows merge, so the loop ends at the
latest when one window is the whole round, which is the plain exact matching. Late in an event the
troubled groups (the top tables whose players have met each other, the bottom ones likewise) are small,
so the cubic matching sees tens of players, never the whole round unless the whole round is the trouble.

Why this is exact (minimum pair-downs, not a heuristic): with unlimited sinks a window's matching is a
relaxation of the whole round restricted to the window's own boundaries (any pairing of the round, cut to
the window, is a feasible sink assignment with the same crossings there), so its minimum is a lower bound
of the crossings on those boundaries. Windows cover disjoint sets of boundaries, and every run between
them is paired at the parity lower bound of its boundaries, so the total equals a sum of lower bounds:
no pairing of the round crosses fewer boundaries. Two details keep this true. A window offers only a few
sinks (the parity plus 2 a side) and doubles them while it uses all of a side: its cost is convex in the
number of sinks used, so a spare pair of sinks proves more would not help. And if the relaxation pairs an
"up" sink with a "down" sink (a player above meets one below, across the window), the window grows by a
group each way instead of realising that.

Nothing here trades exactness for speed: there is no cap on a window. The price of that is time, paid
only where a window must hold a large group. A pool of more than twice as many players as rounds played
always pairs (each player has met at most one per round, so Dirac's theorem gives a perfect matching of
the "not yet played" graph), so pieces of large groups never get stuck and windows stay among the small
groups; only trouble that spans most of a round's groups ends in the whole-round cubic matching. ``bench/bench_pairing_long.py`` prints the widest window
each event shape needed.

The bye is a pseudo-player appended to the lowest score group that still has an eligible player, who can
only pair with an eligible member of that group; groups are tried bottom-up until a pairing exists. That
keeps "bye to the lowest-ranked player without one" a hard rule while pair-downs are minimised around it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate, groupby

from ._search import pair_run
from ._types import PairingPlayer, Players
from ._window import WindowSolution, solve_window
from .bound import pair_down_lower_bound, pair_downs_of

__all__ = [
    "Pair",
    "PairingImpossible",
    "PairingPlayer",
    "PairingStats",
    "RoundPairing",
    "pair_down_lower_bound",
    "pair_downs_of",
    "pair_round",
    "recommended_rounds",
    "round_rng_seed",
]


class PairingImpossible(Exception):
    """No pairing satisfies the hard rules (no rematch, never a second bye). ``key`` says which, for the edge
    to word in the organizer's language (tournaments/pairings/refusals.py); the message is the English of logs."""

    def __init__(self, message: str, *, key: str) -> None:
        super().__init__(message)
        self.key = key
        self.params: dict[str, int] = {}


@dataclass(frozen=True, slots=True)
class Pair:
    table: int
    player_a: int
    player_b: int


@dataclass(frozen=True, slots=True)
class PairingStats:
    pair_downs: int
    """Score-group boundaries crossed, summed over all pairs (see module docstring)."""
    paired_down: tuple[int, ...]
    """Ids of players who were paired down (the higher player of a cross-group pair); callers increment
    their ``pair_downs`` counter so the same player is not floated again and again."""
    score_groups: int
    search_nodes: int
    """Floater sets examined; equals the number of score groups when the first choice worked everywhere."""
    window_players: int = 0
    """Players the exact window matching saw (0 when the fast search paired the whole round)."""


@dataclass(frozen=True, slots=True)
class RoundPairing:
    round_number: int
    seed: int
    pairs: tuple[Pair, ...]
    bye: int | None
    stats: PairingStats = field(compare=False)


def recommended_rounds(players: int, top_cut: int) -> int | None:
    """Swiss rounds by attendance (MTR Appendix E). Below 9 players the organizer chooses (None).

    The shorter 9-16 schedule applies when there is a top 8 (``top_cut >= 8``), because 4 rounds already
    separate the 8 players that make the cut.
    """
    if players < 9:
        return None
    if players <= 16:
        return 4 if top_cut >= 8 else 5
    for upper, rounds in ((32, 5), (64, 6), (128, 7), (226, 8), (409, 9)):
        if players <= upper:
            return rounds
    return 10


def round_rng_seed(seed: int, round_number: int) -> int:
    """Per-round RNG seed: the event seed alone would shuffle every round's groups identically."""
    return seed * 1_000_003 + round_number


def pair_round(players: Sequence[PairingPlayer], round_number: int, seed: int) -> RoundPairing:
    """Pair one Swiss round. Same players (in any order), round number and seed give the same result."""
    if round_number < 1:
        raise ValueError("round_number starts at 1")
    by_id = _index_players(players)
    order = _seeded_order(by_id, round_number, seed)
    if not order:
        return RoundPairing(round_number, seed, (), None, PairingStats(0, (), 0, 0))
    if len(order) % 2 == 0:
        solution = _solve(order, by_id)
        if solution is None:
            raise PairingImpossible(
                "no pairing without a rematch exists for these players (everyone left has played each other)",
                key="pairing.rematch_only",
            )
        bye = None
    else:
        bye, solution = _solve_with_bye(order, by_id)
    return _build_result(round_number, seed, bye, solution, by_id)


# --- input handling -------------------------------------------------------------------------------------


def _index_players(players: Sequence[PairingPlayer]) -> Players:
    by_id: Players = {}
    for player in players:
        if player.id in by_id:
            raise ValueError(f"player {player.id} is listed twice")
        by_id[player.id] = player
    return by_id


def _seeded_order(by_id: Players, round_number: int, seed: int) -> list[int]:
    # Sorting by id first makes the result independent of the caller's list order; the shuffle then breaks
    # ties among equal points (tiebreakers are deliberately not used for pairing).
    # One random key per player and a single sort: much cheaper than random.shuffle on 16k players.
    # The random part is in [0, 1) so it only orders players of equal points; float keys sort fast.
    draw = random.Random(round_rng_seed(seed, round_number)).random
    ids = sorted(by_id)
    keys = [draw() - by_id[pid].points for pid in ids]
    return [ids[i] for i in sorted(range(len(ids)), key=keys.__getitem__)]


def _score_groups(order: list[int], by_id: Players) -> list[list[int]]:
    return [list(members) for _, members in groupby(order, key=lambda pid: by_id[pid].points)]


# --- bye ------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Solution:
    pairs: list[tuple[int, int]]
    nodes: int
    window_players: int


def _solve_with_bye(order: list[int], by_id: Players) -> tuple[int, _Solution]:
    eligible = {pid for pid in order if not by_id[pid].had_bye}
    if not eligible:
        raise PairingImpossible(
            "odd number of players and every player has already had a bye", key="pairing.all_had_bye"
        )
    groups = _score_groups(order, by_id)
    # The bye is modelled as a pseudo-player appended to the lowest score group that still has an eligible
    # player; it can only be matched with an eligible member of that group. That keeps the bye rule (lowest
    # ranked player without a bye) a hard rule while the exact search minimises pair-downs around it.
    for group in reversed(groups):
        candidates = {pid for pid in group if pid in eligible}
        if not candidates:
            continue
        sentinel = _unused_id(by_id)
        blocked = frozenset(pid for pid in order if pid not in candidates)
        with_bye = dict(by_id)
        with_bye[sentinel] = PairingPlayer(sentinel, by_id[group[0]].points, blocked)
        position = order.index(group[-1]) + 1
        extended = [*order[:position], sentinel, *order[position:]]
        solution = _solve(extended, with_bye, never_floats=frozenset({sentinel}))
        if solution is None:
            continue
        bye = next(b if a == sentinel else a for a, b in solution.pairs if sentinel in (a, b))
        solution.pairs = [pair for pair in solution.pairs if sentinel not in pair]
        return bye, solution
    raise PairingImpossible(
        "no player who has not had a bye can receive it without forcing a rematch among the others",
        key="pairing.bye_forces_rematch",
    )


def _unused_id(by_id: Players) -> int:
    # Opponent sets may name dropped players, so the pseudo-player's id must avoid those too.
    lowest_opponent = min((min(p.opponents) for p in by_id.values() if p.opponents), default=0)
    return min(min(by_id), lowest_opponent) - 1


# --- fast runs and exact windows ------------------------------------------------------------------------


def _solve(order: list[int], by_id: Players, never_floats: frozenset[int] = frozenset()) -> _Solution | None:
    """Pairing with the fewest pair-downs, or None when no pairing without a rematch exists."""
    groups = _score_groups(order, by_id)
    count = len(groups)
    above = [0, *accumulate(len(group) for group in groups)]
    windows: list[tuple[int, int]] = []
    solved: dict[tuple[int, int], WindowSolution] = {}
    runs: dict[tuple[int, int, tuple[int, ...], tuple[int, ...]], list[tuple[int, int]]] = {}
    nodes = 0
    while True:
        grow: tuple[int, int] | None = None
        for lo, hi in windows:
            if (lo, hi) not in solved:
                up_parity = above[lo] % 2 if lo > 0 else None
                down_parity = (above[count] - above[hi]) % 2 if hi < count else None
                window = solve_window(groups[lo:hi], by_id, never_floats, up_parity, down_parity)
                if window is None:
                    # Even with free sinks these players cannot all be seated: no pairing exists.
                    return None
                solved[lo, hi] = window
            if solved[lo, hi].through:
                grow = (lo - 1, hi + 1)
                break
        if grow is None:
            pairs: list[tuple[int, int]] = []
            for lo, hi in windows:
                pairs.extend(solved[lo, hi].pairs)
            for start, end, incoming, tail in _runs_between(windows, solved, above):
                key = (start, end, incoming, tail)
                if key not in runs:
                    run = pair_run(groups[start:end], by_id, incoming, tail, never_floats)
                    nodes += run.nodes
                    if run.pairs is None:
                        stuck = start + run.deepest
                        grow = (stuck, stuck + 1)
                        break
                    runs[key] = run.pairs
                pairs.extend(runs[key])
            else:
                return _Solution(pairs, nodes, sum(above[hi] - above[lo] for lo, hi in windows))
        windows = _merge_windows([*windows, grow], count)


def _runs_between(
    windows: list[tuple[int, int]], solved: dict[tuple[int, int], WindowSolution], above: list[int]
) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]:
    """The runs of groups outside the windows, each with the players floated into it from the window
    above and the players the window below sends up into its last group.

    A run is cut after every group where the players above (in the run, with its incoming floaters)
    are even in number: the fast search floats exactly the parity, so nobody crosses there and the two
    sides are independent. Cached per piece, a window added at the bottom of the round then costs a new
    search of the few groups next to it, not of the whole round above it.
    """
    count = len(above) - 1
    runs = []
    start, incoming = 0, ()
    for lo, hi in [*windows, (count, count)]:
        tail = solved[lo, hi].up if hi > lo else ()
        if lo > start:
            seated = len(incoming) - above[start]
            for cut in range(start + 1, lo):
                if (seated + above[cut]) % 2 == 0:
                    runs.append((start, cut, incoming, ()))
                    start, incoming, seated = cut, (), -above[cut]
            runs.append((start, lo, incoming, tail))
        else:
            # Windows never touch and the top window sends no one up, so an empty run has nobody to seat.
            assert not incoming and not tail
        if hi > lo:
            start, incoming = hi, solved[lo, hi].down
    return runs


def _merge_windows(windows: list[tuple[int, int]], count: int) -> list[tuple[int, int]]:
    # Touching windows merge too: the run between them would have no group to seat their players in.
    merged: list[tuple[int, int]] = []
    for lo, hi in sorted((max(0, lo), min(count, hi)) for lo, hi in windows):
        if merged and lo <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
        else:
            merged.append((lo, hi))
    return merged


# --- output ---------------------------------------------------------------------------------------------


def _build_result(
    round_number: int, seed: int, bye: int | None, solution: _Solution, by_id: Players
) -> RoundPairing:
    points = {pid: player.points for pid, player in by_id.items()}
    oriented: list[tuple[int, int]] = [
        (a, b) if points[a] >= points[b] else (b, a) for a, b in solution.pairs
    ]
    # Tables by descending top points, then bottom points, then creation order (all folded into one int
    # key because comparing tuples is the slowest part of this function on 8k pairs).
    span = len(oriented) + 1
    low = min(points.values())
    width = max(points.values()) - low + 1
    keys = [((points[a] - low) * width + points[b] - low) * -span + i for i, (a, b) in enumerate(oriented)]
    ranked = sorted(range(len(oriented)), key=keys.__getitem__)
    pairs = tuple(Pair(table, *oriented[i]) for table, i in enumerate(ranked, start=1))
    levels = {value: level for level, value in enumerate(sorted(set(points.values()), reverse=True))}
    crossed = [levels[points[b]] - levels[points[a]] for a, b in oriented]
    stats = PairingStats(
        pair_downs=sum(crossed),
        paired_down=tuple(sorted(a for (a, _), steps in zip(oriented, crossed, strict=True) if steps)),
        score_groups=len(levels),
        search_nodes=solution.nodes,
        window_players=solution.window_players,
    )
    return RoundPairing(round_number, seed, pairs, bye, stats)
