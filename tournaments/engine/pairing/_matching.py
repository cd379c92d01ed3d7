"""Matchings on the "not yet played" graph: a cheap perfect matching for one pool of players, and the
exact maximum-weight matching (Edmonds' weighted blossom) behind the window solver."""

from __future__ import annotations

from collections.abc import Iterator

from ._types import Players

# --- perfect matching without rematches -----------------------------------------------------------------


def perfect_matching(
    pool: list[int], by_id: Players, one_sided: frozenset[int]
) -> list[tuple[int, int]] | None:
    """Pairs of a perfect matching of ``pool`` avoiding previous opponents, or None if none exists.

    ``one_sided`` holds pseudo-players (the bye) whose blocked set is not mirrored in the real players.
    """
    if len(pool) % 2:
        return None
    pairs, unmatched = greedy_pairs(pool, by_id, one_sided)
    if not unmatched:
        return pairs
    if _swap_in(unmatched, pairs, by_id):
        return pairs
    return _blossom_complete(pool, by_id, pairs)


def greedy_pairs(
    pool: list[int], by_id: Players, one_sided: frozenset[int]
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


def _allowed(a: int, b: int, by_id: Players) -> bool:
    # Both directions: the bye pseudo-player's blocked set is not mirrored in the real players.
    return b not in by_id[a].opponents and a not in by_id[b].opponents


def _swap_in(unmatched: list[int], pairs: list[tuple[int, int]], by_id: Players) -> bool:
    """Seat the greedy pass's leftovers by breaking one existing pair each (augmenting paths of length 3).

    The leftovers are typically two players at the end of a big group who have played each other; one
    linear scan fixes that, where the general blossom search below is quadratic in the pool. Mutates
    ``pairs``; False (with ``pairs`` still a valid partial matching) when a longer path is needed.
    """
    while len(unmatched) >= 2:
        u, v = unmatched[-2], unmatched[-1]
        if _allowed(u, v, by_id):
            pairs.append((u, v))
        else:
            for k, (x, y) in enumerate(pairs):
                if _allowed(u, x, by_id) and _allowed(v, y, by_id):
                    pairs[k] = (u, x)
                    pairs.append((v, y))
                    break
                if _allowed(u, y, by_id) and _allowed(v, x, by_id):
                    pairs[k] = (u, y)
                    pairs.append((v, x))
                    break
            else:
                return False
        del unmatched[-2:]
    return not unmatched


def _blossom_complete(
    pool: list[int], by_id: Players, pairs: list[tuple[int, int]]
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


# --- maximum-weight matching ----------------------------------------------------------------------------


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


def max_weight_matching(weights: list[dict[int, int]], warm: list[tuple[int, int]]) -> list[int]:
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
