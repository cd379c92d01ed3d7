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
minimum: every boundary whose prefix (all players above it) has an odd size must be crossed at least once,
and every boundary is crossed an amount of times of the same parity as its prefix.

Algorithm
---------
Groups are processed top-down. At a group, the pool is the players floated down from above plus the group.
We choose the set of players that float further down (preferring: as few as possible, real members of the
group over already-floated players, fewer previous pair-downs, lowest in the seeded order) and pair the rest
of the pool without rematches. The only thing a group passes to the groups below is that floater set, so a
depth-first search over floater sets with memoised failures is an exact solver for the minimal number of
crossings; in practice the first candidate at every group works and the whole round costs one greedy sweep
(O(n) set look-ups). The search runs with an "extra crossings" budget 0, 1, 2, ... (iterative deepening), so
the first solution found uses the minimum number of pair-downs and puts extra floats as low as possible.

Pairing inside a pool is a perfect matching on the "not yet played" graph. The greedy pass pairs each player
with the next non-opponent in seeded order; if that leaves players unmatched we run Edmonds' blossom
augmentation (exact for general graphs), so a matching is only declared impossible when none exists.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations, groupby

__all__ = [
    "Pair",
    "PairingImpossible",
    "PairingPlayer",
    "PairingStats",
    "RoundPairing",
    "pair_round",
    "recommended_rounds",
    "round_rng_seed",
]

# The search is exact; this bound only guards the web request against adversarial inputs where a proof of
# impossibility would need an exponential number of floater sets. Real events never get close.
MAX_SEARCH_NODES = 200_000


class PairingImpossible(Exception):
    """No pairing satisfies the hard rules (no rematch, never a second bye)."""


@dataclass(frozen=True, slots=True)
class PairingPlayer:
    """An active (not dropped) player as seen by the pairing engine."""

    id: int
    points: int
    opponents: frozenset[int] = frozenset()
    had_bye: bool = False
    pair_downs: int = 0


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
                "no pairing without a rematch exists for these players (everyone left has played each other)"
            )
        bye = None
    else:
        bye, solution = _solve_with_bye(order, by_id)
    return _build_result(round_number, seed, bye, solution, by_id)


# --- input handling -------------------------------------------------------------------------------------


def _index_players(players: Sequence[PairingPlayer]) -> dict[int, PairingPlayer]:
    by_id: dict[int, PairingPlayer] = {}
    for player in players:
        if player.id in by_id:
            raise ValueError(f"player {player.id} is listed twice")
        by_id[player.id] = player
    return by_id


def _seeded_order(by_id: dict[int, PairingPlayer], round_number: int, seed: int) -> list[int]:
    # Sorting by id first makes the result independent of the caller's list order; the shuffle then breaks
    # ties among equal points (tiebreakers are deliberately not used for pairing).
    # One random key per player and a single sort: much cheaper than random.shuffle on 16k players.
    # The random part is in [0, 1) so it only orders players of equal points; float keys sort fast.
    draw = random.Random(round_rng_seed(seed, round_number)).random
    ids = sorted(by_id)
    keys = [draw() - by_id[pid].points for pid in ids]
    return [ids[i] for i in sorted(range(len(ids)), key=keys.__getitem__)]


def _score_groups(order: list[int], by_id: dict[int, PairingPlayer]) -> list[list[int]]:
    return [list(members) for _, members in groupby(order, key=lambda pid: by_id[pid].points)]


# --- bye ------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Solution:
    pairs: list[tuple[int, int]]
    floaters: list[tuple[int, ...]]
    nodes: int


def _solve_with_bye(order: list[int], by_id: dict[int, PairingPlayer]) -> tuple[int, _Solution]:
    eligible = {pid for pid in order if not by_id[pid].had_bye}
    if not eligible:
        raise PairingImpossible("odd number of players and every player has already had a bye")
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
        "no player who has not had a bye can receive it without forcing a rematch among the others"
    )


def _unused_id(by_id: dict[int, PairingPlayer]) -> int:
    # Opponent sets may name dropped players, so the pseudo-player's id must avoid those too.
    lowest_opponent = min((min(p.opponents) for p in by_id.values() if p.opponents), default=0)
    return min(min(by_id), lowest_opponent) - 1


# --- exact search over floater sets ---------------------------------------------------------------------


class _NodeCounter:
    __slots__ = ("nodes",)

    def __init__(self) -> None:
        self.nodes = 0


def _solve(
    order: list[int], by_id: dict[int, PairingPlayer], never_floats: frozenset[int] = frozenset()
) -> _Solution | None:
    """Pairing with the fewest pair-downs, or None when no pairing without a rematch exists."""
    memo: dict[tuple[int, frozenset[int], int], None] = {}
    counter = _NodeCounter()
    solution = _search_with_budget(order, by_id, 0, memo, counter, never_floats)
    if solution is not None:
        return solution
    # Before deepening, prove that some pairing exists at all, otherwise the deepening would only stop
    # after exhausting every floater set.
    if _perfect_matching(order, by_id, never_floats) is None:
        return None
    for budget in range(1, len(order) + 1):
        solution = _search_with_budget(order, by_id, budget, memo, counter, never_floats)
        if solution is not None:
            return solution
    raise AssertionError("a perfect matching exists, so some budget must succeed")  # pragma: no cover


def _search_with_budget(
    order: list[int],
    by_id: dict[int, PairingPlayer],
    budget: int,
    failed: dict[tuple[int, frozenset[int], int], None],
    counter: _NodeCounter,
    never_floats: frozenset[int],
) -> _Solution | None:
    groups = _score_groups(order, by_id)
    pairs: list[tuple[int, int]] = []
    floaters: list[tuple[int, ...]] = []

    def visit(index: int, incoming: tuple[int, ...], extra_left: int) -> bool:
        if index == len(groups):
            return not incoming
        key = (index, frozenset(incoming), extra_left)
        if key in failed:
            return False
        group = groups[index]
        pool = list(incoming) + group
        for extra in range(extra_left + 1):
            size = len(pool) % 2 + 2 * extra
            if size > len(pool) or (index == len(groups) - 1 and size > 0):
                break
            for down in _floater_candidates(incoming, group, by_id, size, never_floats):
                counter.nodes += 1
                if counter.nodes > MAX_SEARCH_NODES:
                    raise PairingImpossible(
                        "pairing search exceeded its limit; the remaining players are too constrained"
                    )
                matched = _perfect_matching([pid for pid in pool if pid not in down], by_id, never_floats)
                if matched is None:
                    continue
                mark = len(pairs)
                pairs.extend(matched)
                floaters.append(down)
                if visit(index + 1, down, extra_left - extra):
                    return True
                del pairs[mark:]
                floaters.pop()
        failed[key] = None
        return False

    if visit(0, (), budget):
        return _Solution(pairs, floaters, counter.nodes)
    return None


def _floater_candidates(
    incoming: tuple[int, ...],
    group: list[int],
    by_id: dict[int, PairingPlayer],
    size: int,
    never_floats: frozenset[int],
) -> Iterator[tuple[int, ...]]:
    if size == 0:
        yield ()
        return
    # Preference: members of this group before players already floated from above (floating them again
    # means skipping a group), fewer previous pair-downs first, then lowest in the seeded order.
    members = [pid for pid in reversed(group) if pid not in never_floats]
    if not members:
        yield from combinations(reversed(incoming), size)
        return
    if size == 1:
        # Fast path for the common case: the first candidate almost always works, so avoid sorting
        # the whole (possibly huge) group.
        fewest = min(by_id[pid].pair_downs for pid in members)
        first_choice = [pid for pid in members if by_id[pid].pair_downs == fewest]
        yield from ((pid,) for pid in first_choice)
        rest = [pid for pid in members if by_id[pid].pair_downs != fewest]
        rest.sort(key=lambda pid: by_id[pid].pair_downs)
        yield from ((pid,) for pid in rest)
        yield from ((pid,) for pid in reversed(incoming))
        return
    members.sort(key=lambda pid: by_id[pid].pair_downs)  # stable: keeps lowest-in-order first
    yield from combinations(members + list(reversed(incoming)), size)


# --- perfect matching without rematches -----------------------------------------------------------------


def _perfect_matching(
    pool: list[int], by_id: dict[int, PairingPlayer], one_sided: frozenset[int]
) -> list[tuple[int, int]] | None:
    """Pairs of a perfect matching of ``pool`` avoiding previous opponents, or None if none exists.

    ``one_sided`` holds pseudo-players (the bye) whose blocked set is not mirrored in the real players.
    """
    if len(pool) % 2:
        return None
    pairs, unmatched = _greedy_pairs(pool, by_id, one_sided)
    if not unmatched:
        return pairs
    return _blossom_complete(pool, by_id, pairs)


def _greedy_pairs(
    pool: list[int], by_id: dict[int, PairingPlayer], one_sided: frozenset[int]
) -> tuple[list[tuple[int, int]], list[int]]:
    # A reversed stack makes "take the next player in order" an O(1) pop; a rematch only forces a short
    # scan to the next non-opponent.
    stack = pool[::-1]
    pairs: list[tuple[int, int]] = []
    unmatched: list[int] = []
    while stack:
        first = stack.pop()
        played = by_id[first].opponents
        for k in range(len(stack) - 1, -1, -1):
            other = stack[k]
            if other not in played and (other not in one_sided or first not in by_id[other].opponents):
                pairs.append((first, stack.pop(k)))
                break
        else:
            unmatched.append(first)
    return pairs, unmatched


def _blossom_complete(
    pool: list[int], by_id: dict[int, PairingPlayer], pairs: list[tuple[int, int]]
) -> list[tuple[int, int]] | None:
    """Grow a partial matching to a perfect one with Edmonds' augmenting paths (exact)."""
    n = len(pool)
    index = {pid: i for i, pid in enumerate(pool)}
    blocked = [{index[o] for o in by_id[pid].opponents if o in index} for pid in pool]
    for i, row in enumerate(blocked):
        for j in row:
            blocked[j].add(i)
    mate = [-1] * n
    for a, b in pairs:
        mate[index[a]] = index[b]
        mate[index[b]] = index[a]
    for root in range(n):
        if mate[root] == -1 and not _augment(root, mate, blocked):
            # Berge: no augmenting path from an exposed vertex now means none later either.
            return None
    return [(pool[i], pool[mate[i]]) for i in range(n) if i < mate[i]]


def _augment(root: int, mate: list[int], blocked: list[set[int]]) -> bool:
    n = len(mate)
    parent = [-1] * n
    base = list(range(n))
    in_tree = [False] * n
    in_tree[root] = True
    queue = [root]
    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        blocked_v = blocked[v]
        for to in range(n):
            if to == v or to in blocked_v or base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                _contract(v, to, root, mate, parent, base, in_tree, queue)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    _flip_path(to, mate, parent)
                    return True
                in_tree[mate[to]] = True
                queue.append(mate[to])
    return False


def _contract(
    v: int,
    to: int,
    root: int,
    mate: list[int],
    parent: list[int],
    base: list[int],
    in_tree: list[bool],
    queue: list[int],
) -> None:
    lca = _lowest_common_base(v, to, mate, parent, base)
    in_blossom = [False] * len(mate)
    _mark_blossom_path(v, lca, to, mate, parent, base, in_blossom)
    _mark_blossom_path(to, lca, v, mate, parent, base, in_blossom)
    for i in range(len(mate)):
        if in_blossom[base[i]]:
            base[i] = lca
            if not in_tree[i]:
                in_tree[i] = True
                queue.append(i)


def _lowest_common_base(a: int, b: int, mate: list[int], parent: list[int], base: list[int]) -> int:
    seen = [False] * len(mate)
    while True:
        a = base[a]
        seen[a] = True
        if mate[a] == -1:
            break
        a = parent[mate[a]]
    while True:
        b = base[b]
        if seen[b]:
            return b
        b = parent[mate[b]]


def _mark_blossom_path(
    v: int, lca: int, child: int, mate: list[int], parent: list[int], base: list[int], in_blossom: list[bool]
) -> None:
    while base[v] != lca:
        in_blossom[base[v]] = True
        in_blossom[base[mate[v]]] = True
        parent[v] = child
        child = mate[v]
        v = parent[mate[v]]


def _flip_path(v: int, mate: list[int], parent: list[int]) -> None:
    while v != -1:
        prev = parent[v]
        prev_mate = mate[prev]
        mate[v] = prev
        mate[prev] = v
        v = prev_mate


# --- output ---------------------------------------------------------------------------------------------


def _build_result(
    round_number: int, seed: int, bye: int | None, solution: _Solution, by_id: dict[int, PairingPlayer]
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
    paired_down = tuple(sorted({pid for down in solution.floaters for pid in down}))
    stats = PairingStats(
        pair_downs=sum(len(down) for down in solution.floaters),
        paired_down=paired_down,
        score_groups=len(solution.floaters),
        search_nodes=solution.nodes,
    )
    return RoundPairing(round_number, seed, pairs, bye, stats)
