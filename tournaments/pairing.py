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

The floater search is exponential when extra pair-downs are forced inside a constrained group (it then
enumerates floater *sets*). Past a small node limit it hands over to a minimum-cost perfect matching
(Edmonds' weighted blossom, polynomial) whose integer pair costs encode the same priorities: boundaries
crossed, then skipping groups, then previous pair-downs and rank of the floating player. Up to
``_EXACT_MATCHING_MAX_PLAYERS`` it solves the whole round (exact minimum); larger rounds keep the floater
search for the top groups and match a window from just above the trouble downwards, widening it up to the
whole round, so PairingImpossible still only means that no pairing exists.
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

# The floater search is exact but can need exponentially many floater sets when extra pair-downs are forced
# (e.g. a group whose members have played most of each other). Past this many nodes it hands over to the
# polynomial minimum-cost matching; real events almost always take exactly one node per score group.
_SEARCH_NODES_PER_GROUP = 4
_SEARCH_NODES_BASE = 64
# The matching fallback is O(n^3): up to this many players it solves the whole round (exact minimum of
# pair-downs, well under a second); above, it solves a window of score groups around the trouble.
_EXACT_MATCHING_MAX_PLAYERS = 512


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


class _SearchLimit(Exception):
    """The floater search stopped being cheap; the exact matching fallback takes over."""


class _NodeCounter:
    __slots__ = ("deepest", "limit", "nodes")

    def __init__(self, limit: int) -> None:
        self.nodes = 0
        self.limit = limit
        self.deepest = 0
        """Deepest score group the search reached: where a stuck search got stuck."""


def _solve(
    order: list[int], by_id: dict[int, PairingPlayer], never_floats: frozenset[int] = frozenset()
) -> _Solution | None:
    """Pairing with the fewest pair-downs, or None when no pairing without a rematch exists."""
    groups = _score_groups(order, by_id)
    memo: dict[tuple[int, frozenset[int], int], None] = {}
    counter = _NodeCounter(_SEARCH_NODES_PER_GROUP * len(groups) + _SEARCH_NODES_BASE)
    try:
        solution = _search_with_budget(groups, by_id, 0, memo, counter, never_floats)
        if solution is not None:
            return solution
        # Before deepening, prove that some pairing exists at all, otherwise the deepening would only stop
        # after exhausting every floater set.
        if _perfect_matching(order, by_id, never_floats) is None:
            return None
        for budget in range(1, len(order) + 1):
            solution = _search_with_budget(groups, by_id, budget, memo, counter, never_floats)
            if solution is not None:
                return solution
    except _SearchLimit:
        pass
    # The floater search enumerates floater *sets*, which is exponential once extra pair-downs are needed
    # in a constrained group; a minimum-cost matching answers the same question in polynomial time.
    if _perfect_matching(order, by_id, never_floats) is None:
        return None
    if len(order) <= _EXACT_MATCHING_MAX_PLAYERS:
        solution = _solve_by_matching([], groups, by_id, never_floats, counter.nodes)
        assert solution is not None, "a perfect matching exists"
        return solution
    return _solve_by_window(groups, by_id, never_floats, counter)


def _solve_by_window(
    groups: list[list[int]],
    by_id: dict[int, PairingPlayer],
    never_floats: frozenset[int],
    counter: _NodeCounter,
) -> _Solution:
    """Large round: pair the top groups with the floater search and only the region around the group where
    it got stuck (down to the bottom) with the matching, widening the region upwards until it works.

    The matching is cubic, so on thousands of players it must not see the whole round; the window always
    ends at the whole round, which is exact, so a pairing is found whenever one exists.
    """
    start = max(0, counter.deepest - 1)
    while True:
        prefix: _Solution | None = _Solution([], [], counter.nodes)
        if start > 0:
            prefix_counter = _NodeCounter(_SEARCH_NODES_PER_GROUP * start + _SEARCH_NODES_BASE)
            try:
                prefix = _search_with_budget(groups[:start], by_id, 0, {}, prefix_counter, never_floats, True)
            except _SearchLimit:
                prefix = None
            counter.nodes += prefix_counter.nodes
        if prefix is not None:
            incoming = list(prefix.floaters[-1]) if prefix.floaters else []
            window = _solve_by_matching(incoming, groups[start:], by_id, never_floats, counter.nodes)
            if window is not None:
                # The prefix's last floater set is the window's first (virtual) group, whose players all
                # cross that boundary: count it once.
                floaters = (prefix.floaters[:-1] if incoming else prefix.floaters) + window.floaters
                return _Solution(prefix.pairs + window.pairs, floaters, counter.nodes)
        if start == 0:
            raise AssertionError("a perfect matching exists, so the whole-round matching finds it")
        start = start // 2 if start > 2 else 0


def _search_with_budget(
    groups: list[list[int]],
    by_id: dict[int, PairingPlayer],
    budget: int,
    failed: dict[tuple[int, frozenset[int], int], None],
    counter: _NodeCounter,
    never_floats: frozenset[int],
    open_end: bool = False,
) -> _Solution | None:
    """Depth-first search over floater sets. With ``open_end`` the groups are only the top of the round:
    the last group may float players out, and they are returned as the last entry of ``floaters``."""
    pairs: list[tuple[int, int]] = []
    floaters: list[tuple[int, ...]] = []

    def visit(index: int, incoming: tuple[int, ...], extra_left: int) -> bool:
        counter.deepest = max(counter.deepest, index)
        if index == len(groups):
            return open_end or not incoming
        key = (index, frozenset(incoming), extra_left)
        if key in failed:
            return False
        group = groups[index]
        pool = list(incoming) + group
        for extra in range(extra_left + 1):
            size = len(pool) % 2 + 2 * extra
            if size > len(pool) or (index == len(groups) - 1 and size > 0 and not open_end):
                break
            for down in _floater_candidates(incoming, group, by_id, size, never_floats):
                counter.nodes += 1
                if counter.nodes > counter.limit:
                    raise _SearchLimit
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


# --- exact fallback: minimum-cost perfect matching -------------------------------------------------------
#
# When the floater search cannot finish cheaply (its first choices fail and the alternatives would be
# combinations of floater sets), the whole round is solved as one minimum-cost perfect matching on the
# "not yet played" graph with Edmonds' weighted blossom algorithm (primal-dual, polynomial). The cost of a
# pair encodes the Swiss priorities lexicographically, in integer tiers so no tier can outweigh the one
# above it:
#   1. score-group boundaries crossed (the pair-down count that must be minimal);
#   2. players skipping a whole group (a member of the group should float rather than a floater again);
#   3. per crossing, the floating player's previous pair-downs, then their rank inside the group (lowest in
#      the seeded order floats first);
#   4. for the bye pseudo-player, the lowest-ranked eligible player of the bye's group.


def _solve_by_matching(
    incoming: list[int],
    below: list[list[int]],
    by_id: dict[int, PairingPlayer],
    one_sided: frozenset[int],
    nodes: int,
) -> _Solution | None:
    """Minimum-cost perfect matching of ``incoming`` (players floated into the first group of ``below``)
    and the groups ``below``; None when none exists. ``incoming`` acts as one extra group on top whose
    players must all pair below it (they already crossed that boundary)."""
    groups = [incoming, *below] if incoming else below
    order = [pid for group in groups for pid in group]
    n = len(order)
    group_of = [0] * n
    rank_from_bottom = [0] * n
    index = {pid: i for i, pid in enumerate(order)}
    start = 0
    for g, members in enumerate(groups):
        for offset in range(len(members)):
            group_of[start + offset] = g
            rank_from_bottom[start + offset] = len(members) - 1 - offset
        start += len(members)
    downs = [by_id[pid].pair_downs for pid in order]
    per_crossing = [downs[i] * (n + 1) + rank_from_bottom[i] for i in range(n)]
    spread = len(groups)
    tier3 = max(per_crossing, default=0) * spread * (n // 2 + 1) + n + 1
    tier2 = (spread * spread * (n // 2 + 1) + 1) * tier3
    # Weights are "big - cost" so a maximum-weight maximum-cardinality matching is a minimum-cost perfect one.
    big = spread * tier2 + tier2

    blocked = [{index[o] for o in by_id[pid].opponents if o in index} for pid in order]
    for i in range(len(incoming)):
        blocked[i].update(range(len(incoming)))
        blocked[i].discard(i)
    for i, row in enumerate(blocked):
        for j in row:
            blocked[j].add(i)
    weights: list[dict[int, int]] = [{} for _ in range(n)]
    for i in range(n):
        row = weights[i]
        gi = group_of[i]
        blocked_i = blocked[i]
        for j in range(i + 1, n):
            if j in blocked_i:
                continue
            crossed = group_of[j] - gi
            if crossed:
                cost = crossed * tier2 + crossed * (crossed - 1) * tier3 + crossed * per_crossing[i]
            elif order[i] in one_sided:
                cost = rank_from_bottom[j]
            elif order[j] in one_sided:
                cost = rank_from_bottom[i]
            else:
                cost = 0
            row[j] = weights[j][i] = big - cost
    # Warm start: greedy pairs inside each group are tight for the uniform initial duals, so the blossom
    # algorithm only has to place the few players the greedy pass left over.
    warm: list[tuple[int, int]] = []
    for members in groups:
        pairs, _ = _greedy_pairs(members, by_id, one_sided)
        warm.extend((index[a], index[b]) for a, b in pairs)
    mate = _max_weight_matching(weights, warm)
    if any(m == -1 for m in mate):
        return None
    pairs = [(order[i], order[mate[i]]) for i in range(n) if i < mate[i]]
    floaters: list[list[int]] = [[] for _ in groups]
    for i in range(n):
        j = mate[i]
        for boundary in range(group_of[i], group_of[j]):
            floaters[boundary].append(order[i])
    return _Solution(pairs, [tuple(down) for down in floaters], nodes)


class _Blossom:
    __slots__ = ("best_edges", "children", "edges")

    def __init__(self) -> None:
        self.children: list[int | _Blossom] = []
        self.edges: list[tuple[int, int]] = []
        self.best_edges: list[tuple[int, int]] | None = None

    def leaves(self) -> Iterator[int]:
        stack: list[int | _Blossom] = list(self.children)
        while stack:
            t = stack.pop()
            if isinstance(t, _Blossom):
                stack.extend(t.children)
            else:
                yield t


_S, _T = 1, 2


def _max_weight_matching(weights: list[dict[int, int]], warm: list[tuple[int, int]]) -> list[int]:
    """Maximum-weight matching among maximum-cardinality matchings (Edmonds / Galil, O(n^3)).

    A port of the classic primal-dual formulation (van Rantwijk's mwmatching, also used by networkx) on
    integer weights; ``weights[v]`` maps each neighbour to the edge weight. ``warm`` is a partial matching
    of edges of maximum weight, which are tight under the initial duals, so starting from it is valid.
    Returns ``mate`` with -1 for unmatched vertices.
    """
    n = len(weights)
    max_weight = max((w for row in weights for w in row.values()), default=0)
    mate = [-1] * n
    for a, b in warm:
        if weights[a][b] == max_weight:
            mate[a], mate[b] = b, a
    Node = int | _Blossom
    label: dict[Node, int] = {}
    label_edge: dict[Node, tuple[int, int] | None] = {}
    in_blossom: list[Node] = list(range(n))
    parent: dict[Node, _Blossom | None] = dict.fromkeys(range(n))
    base: dict[Node, int] = {v: v for v in range(n)}
    best_edge: dict[Node, tuple[int, int] | None] = {}
    # Duals are stored doubled so integer weights keep every computation integral.
    dual = [max_weight] * n
    blossom_dual: dict[_Blossom, int] = {}
    allowed: set[tuple[int, int]] = set()
    queue: list[int] = []

    def slack(v: int, w: int) -> int:
        return dual[v] + dual[w] - 2 * weights[v][w]

    def assign_label(w: int, t: int, v: int | None) -> None:
        b = in_blossom[w]
        label[w] = label[b] = t
        label_edge[w] = label_edge[b] = (v, w) if v is not None else None
        best_edge[w] = best_edge[b] = None
        if t == _S:
            if isinstance(b, _Blossom):
                queue.extend(b.leaves())
            else:
                queue.append(b)
        else:
            mate_base = mate[base[b]]
            assign_label(mate_base, _S, base[b])

    def scan_blossom(v: int, w: int) -> int | None:
        # Walk up from both ends alternately; the first blossom reached twice is the new base.
        path: list[Node] = []
        found: int | None = None
        cur: int | None = v
        other: int | None = w
        while cur is not None:
            b = in_blossom[cur]
            if label[b] & 4:
                found = base[b]
                break
            path.append(b)
            label[b] = 5
            edge = label_edge[b]
            if edge is None:
                cur = None
            else:
                cur = edge[0]
                b = in_blossom[cur]
                edge = label_edge[b]
                assert edge is not None
                cur = edge[0]
            if other is not None:
                cur, other = other, cur
        for b in path:
            label[b] = _S
        return found

    def add_blossom(start: int, v: int, w: int) -> None:
        bb = in_blossom[start]
        bv = in_blossom[v]
        bw = in_blossom[w]
        b = _Blossom()
        base[b] = start
        parent[b] = None
        parent[bb] = b
        path = b.children
        edges = b.edges
        edges.append((v, w))
        while bv != bb:
            parent[bv] = b
            path.append(bv)
            edge = label_edge[bv]
            assert edge is not None
            edges.append(edge)
            bv = in_blossom[edge[0]]
        path.append(bb)
        path.reverse()
        edges.reverse()
        while bw != bb:
            parent[bw] = b
            path.append(bw)
            edge = label_edge[bw]
            assert edge is not None
            edges.append((edge[1], edge[0]))
            bw = in_blossom[edge[0]]
        label[b] = _S
        label_edge[b] = label_edge[bb]
        blossom_dual[b] = 0
        for leaf in b.leaves():
            if label.get(in_blossom[leaf]) == _T:
                queue.append(leaf)
            in_blossom[leaf] = b
        best_to: dict[Node, tuple[int, int]] = {}
        for child in path:
            if isinstance(child, _Blossom):
                if child.best_edges is not None:
                    candidates = child.best_edges
                    child.best_edges = None
                else:
                    candidates = [(x, y) for x in child.leaves() for y in weights[x]]
            else:
                candidates = [(child, y) for y in weights[child]]
            for i, j in candidates:
                if in_blossom[j] == b:
                    i, j = j, i
                bj = in_blossom[j]
                if (
                    bj != b
                    and label.get(bj) == _S
                    and (bj not in best_to or slack(i, j) < slack(*best_to[bj]))
                ):
                    best_to[bj] = (i, j)
            best_edge[child] = None
        b.best_edges = list(best_to.values())
        best: tuple[int, int] | None = None
        best_slack = 0
        for edge in b.best_edges:
            edge_slack = slack(*edge)
            if best is None or edge_slack < best_slack:
                best, best_slack = edge, edge_slack
        best_edge[b] = best

    def expand_blossom(b: _Blossom, end_stage: bool) -> None:
        for s in b.children:
            parent[s] = None
            if isinstance(s, _Blossom):
                if end_stage and blossom_dual[s] == 0:
                    expand_blossom(s, end_stage)
                else:
                    for leaf in s.leaves():
                        in_blossom[leaf] = s
            else:
                in_blossom[s] = s
        if not end_stage and label.get(b) == _T:
            # The T-blossom dissolves: relabel the even-length path from its entry child to its base.
            edge = label_edge[b]
            assert edge is not None
            entry = in_blossom[edge[1]]
            j = b.children.index(entry)
            if j & 1:
                j -= len(b.children)
                step = 1
            else:
                step = -1
            v, w = edge
            while j != 0:
                if step == 1:
                    p, q = b.edges[j]
                else:
                    q, p = b.edges[j - 1]
                label.pop(w, None)
                label.pop(q, None)
                assign_label(w, _T, v)
                allowed.add((p, q))
                allowed.add((q, p))
                j += step
                if step == 1:
                    v, w = b.edges[j]
                else:
                    w, v = b.edges[j - 1]
                allowed.add((v, w))
                allowed.add((w, v))
                j += step
            bw = b.children[j]
            label[w] = label[bw] = _T
            label_edge[w] = label_edge[bw] = (v, w)
            best_edge[bw] = None
            j += step
            while b.children[j] != entry:
                bv = b.children[j]
                if label.get(bv) == _S:
                    j += step
                    continue
                leaf = -1
                if isinstance(bv, _Blossom):
                    for candidate in bv.leaves():
                        if label.get(candidate):
                            leaf = candidate
                            break
                else:
                    leaf = bv
                if leaf != -1 and label.get(leaf):
                    label.pop(leaf, None)
                    label.pop(mate[base[bv]], None)
                    edge = label_edge[leaf]
                    assert edge is not None
                    assign_label(leaf, _T, edge[0])
                j += step
        label.pop(b, None)
        label_edge.pop(b, None)
        best_edge.pop(b, None)
        del parent[b]
        del base[b]
        del blossom_dual[b]

    def augment_blossom(b: _Blossom, v: int) -> None:
        t: Node = v
        while parent[t] != b:
            up = parent[t]
            assert up is not None
            t = up
        if isinstance(t, _Blossom):
            augment_blossom(t, v)
        i = j = b.children.index(t)
        if i & 1:
            j -= len(b.children)
            step = 1
        else:
            step = -1
        while j != 0:
            j += step
            t = b.children[j]
            if step == 1:
                w, x = b.edges[j]
            else:
                x, w = b.edges[j - 1]
            if isinstance(t, _Blossom):
                augment_blossom(t, w)
            j += step
            t = b.children[j]
            if isinstance(t, _Blossom):
                augment_blossom(t, x)
            mate[w] = x
            mate[x] = w
        b.children = b.children[i:] + b.children[:i]
        b.edges = b.edges[i:] + b.edges[:i]
        base[b] = base[b.children[0]]

    def augment_matching(v: int, w: int) -> None:
        for s, j in ((v, w), (w, v)):
            while True:
                bs = in_blossom[s]
                if isinstance(bs, _Blossom):
                    augment_blossom(bs, s)
                mate[s] = j
                edge = label_edge[bs]
                if edge is None:
                    break
                bt = in_blossom[edge[0]]
                edge = label_edge[bt]
                assert edge is not None
                s, j = edge
                if isinstance(bt, _Blossom):
                    augment_blossom(bt, j)
                mate[j] = s

    while True:
        label.clear()
        label_edge.clear()
        best_edge.clear()
        for b in blossom_dual:
            b.best_edges = None
        allowed.clear()
        queue.clear()
        for v in range(n):
            if mate[v] == -1 and in_blossom[v] not in label:
                assign_label(v, _S, None)
        augmented = False
        while True:
            while queue and not augmented:
                v = queue.pop()
                for w, weight in weights[v].items():
                    # Re-read v's blossom every time: add_blossom below can absorb v mid-scan.
                    bv = in_blossom[v]
                    bw = in_blossom[w]
                    if bv == bw:
                        continue
                    edge_slack = 0
                    if (v, w) not in allowed:
                        edge_slack = dual[v] + dual[w] - 2 * weight
                        if edge_slack <= 0:
                            allowed.add((v, w))
                            allowed.add((w, v))
                    if (v, w) in allowed:
                        label_w = label.get(bw)
                        if label_w is None:
                            assign_label(w, _T, v)
                        elif label_w == _S:
                            found = scan_blossom(v, w)
                            if found is not None:
                                add_blossom(found, v, w)
                            else:
                                augment_matching(v, w)
                                augmented = True
                                break
                        elif w not in label:
                            label[w] = _T
                            label_edge[w] = (v, w)
                    elif label.get(bw) == _S:
                        current = best_edge.get(bv)
                        if current is None or edge_slack < slack(*current):
                            best_edge[bv] = (v, w)
                    elif w not in label:
                        current = best_edge.get(w)
                        if current is None or edge_slack < slack(*current):
                            best_edge[w] = (v, w)
            if augmented:
                break
            # No augmenting path on tight edges: change the duals by the largest safe delta.
            delta_type = -1
            delta = 0
            delta_edge: tuple[int, int] | None = None
            delta_blossom: _Blossom | None = None
            for v in range(n):
                edge = best_edge.get(v)
                if edge is not None and in_blossom[v] not in label:
                    d = slack(*edge)
                    if delta_type == -1 or d < delta:
                        delta, delta_type, delta_edge = d, 2, edge
            for b, up in parent.items():
                if up is None and label.get(b) == _S:
                    edge = best_edge.get(b)
                    if edge is not None:
                        d = slack(*edge) // 2
                        if delta_type == -1 or d < delta:
                            delta, delta_type, delta_edge = d, 3, edge
            for b, z in blossom_dual.items():
                if parent[b] is None and label.get(b) == _T and (delta_type == -1 or z < delta):
                    delta, delta_type, delta_blossom = z, 4, b
            if delta_type == -1:
                delta_type = 1
                delta = max(0, min(dual))
            for v in range(n):
                vlabel = label.get(in_blossom[v])
                if vlabel == _S:
                    dual[v] -= delta
                elif vlabel == _T:
                    dual[v] += delta
            for b in blossom_dual:
                if parent[b] is None:
                    blabel = label.get(b)
                    if blabel == _S:
                        blossom_dual[b] += delta
                    elif blabel == _T:
                        blossom_dual[b] -= delta
            if delta_type == 1:
                break
            if delta_type in (2, 3):
                assert delta_edge is not None
                v, w = delta_edge
                allowed.add((v, w))
                allowed.add((w, v))
                queue.append(v)
            else:
                assert delta_blossom is not None
                expand_blossom(delta_blossom, False)
        if not augmented:
            return mate
        for b in list(blossom_dual):
            if b in blossom_dual and parent[b] is None and label.get(b) == _S and blossom_dual[b] == 0:
                expand_blossom(b, True)


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
