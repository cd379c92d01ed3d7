"""Multiplayer pod assignment and pod placement rules (pure Python, no Django).

Pods are Swiss-style: players sorted by points (seeded shuffle within equal points) are cut into consecutive
pods, so players meet others on a similar score. Pod sizes use as few pods as possible (i.e. pods as large
as allowed) and are balanced so sizes differ by at most one, larger pods first: 10 players with 3-4 give
4, 3, 3; 9 players with 2-4 give 3, 3, 3 rather than 4, 3, 2 because placement points depend on pod size.
Repeated tablemates are then reduced by swapping players between adjacent pods, preferring swaps between
players on equal points, so the Swiss grouping is disturbed as little as possible.

Places: 1 is best, and players tied on every criterion share the place (competition ranking "1, 2, 2, 4").
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "EversealResult",
    "Pod",
    "PodAssignment",
    "PodPlayer",
    "PodResultError",
    "PodsError",
    "PodsImpossible",
    "ValeResult",
    "assign_pods",
    "everseal_places",
    "places_from_scores",
    "pod_sizes",
    "vale_places",
]

MAX_SWAP_PASSES = 10


class PodsError(ValueError):
    """A refusal of the pod engine. ``key`` and ``params`` say why, for the edge to word in the reader's
    language (tournaments/pairings/refusals.py); the message is the English of logs."""

    def __init__(self, message: str, *, key: str, **params: int) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


class PodsImpossible(PodsError):
    """The players cannot be split into pods of the allowed sizes."""


class PodResultError(PodsError):
    """A pod game's scores that cannot have happened."""


@dataclass(frozen=True, slots=True)
class PodPlayer:
    id: int
    points: int


@dataclass(frozen=True, slots=True)
class Pod:
    table: int
    player_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PodAssignment:
    seed: int
    pods: tuple[Pod, ...]
    repeated_tablemates: int
    """Pairs of players seated together who already shared a pod (0 unless unavoidable by local swaps)."""


@dataclass(frozen=True, slots=True)
class ValeResult:
    player_id: int
    victory_points: int
    summoned: int


@dataclass(frozen=True, slots=True)
class EversealResult:
    player_id: int
    defeats: int
    """Number of different opponents this player defeated; defeating every opponent wins the game."""


def pod_sizes(n: int, min_size: int, max_size: int) -> list[int]:
    """Pod sizes for ``n`` players: fewest pods, balanced, larger pods first."""
    if min_size < 1 or max_size < min_size:
        raise ValueError(f"invalid pod size range {min_size}-{max_size}")
    if n < min_size:
        raise PodsImpossible(
            f"{n} players cannot fill a pod of at least {min_size}",
            key="pods.too_few",
            players=n,
            min=min_size,
        )
    count = -(-n // max_size)
    # Fewer pods would exceed max_size; more pods only make them smaller, so if the balanced split with
    # the minimum count is below min_size, every split is.
    base, larger = divmod(n, count)
    if base < min_size:
        raise PodsImpossible(
            f"{n} players cannot be split into pods of {min_size}-{max_size}",
            key="pods.no_split", players=n, min=min_size, max=max_size,
        )  # fmt: skip
    return [base + 1] * larger + [base] * (count - larger)


def assign_pods(
    players: Sequence[PodPlayer],
    min_size: int,
    max_size: int,
    seed: int,
    previous_tablemates: Mapping[int, Collection[int]],
) -> PodAssignment:
    """Seat players into pods (table 1 = top points). Same inputs and seed give the same pods."""
    ids = [player.id for player in players]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate player id in pod assignment")
    sizes = pod_sizes(len(players), min_size, max_size)
    points = {player.id: player.points for player in players}
    # Keys drawn in id order make the result independent of the caller's list order.
    draw = random.Random(seed).random
    tie_break = {pid: draw() for pid in sorted(ids)}
    order = sorted(ids, key=lambda pid: (-points[pid], tie_break[pid]))
    pods: list[list[int]] = []
    start = 0
    for size in sizes:
        pods.append(order[start : start + size])
        start += size
    met = {pid: set(previous_tablemates.get(pid, ())) for pid in ids}
    _reduce_repeats(pods, met, points)
    repeats = sum(_repeats_in(pod, met) for pod in pods)
    return PodAssignment(
        seed, tuple(Pod(table, tuple(pod)) for table, pod in enumerate(pods, start=1)), repeats
    )


def _repeats_in(pod: Sequence[int], met: Mapping[int, set[int]]) -> int:
    return sum(1 for i, a in enumerate(pod) for b in pod[i + 1 :] if b in met[a])


def _conflicts(player: int, others: Sequence[int], met: Mapping[int, set[int]]) -> int:
    return sum(1 for other in others if other != player and other in met[player])


def _reduce_repeats(pods: list[list[int]], met: Mapping[int, set[int]], points: Mapping[int, int]) -> None:
    for _ in range(MAX_SWAP_PASSES):
        if not any(_try_swap(pods, i, met, points) for i in range(len(pods)) if _repeats_in(pods[i], met)):
            return


def _try_swap(pods: list[list[int]], i: int, met: Mapping[int, set[int]], points: Mapping[int, int]) -> bool:
    """Best improving swap of a conflicted player of pod i with a player of an adjacent pod."""
    pod = pods[i]
    best: tuple[int, int, int, int, int] | None = None  # (gain, points gap, neighbour pod, a, b)
    for a in pod:
        if not _conflicts(a, pod, met):
            continue
        for j in (i - 1, i + 1):
            if not 0 <= j < len(pods):
                continue
            other = pods[j]
            for b in other:
                before = _conflicts(a, pod, met) + _conflicts(b, other, met)
                after = _conflicts(b, [p for p in pod if p != a], met) + _conflicts(
                    a, [p for p in other if p != b], met
                )
                gain = before - after
                if gain <= 0:
                    continue
                candidate = (-gain, abs(points[a] - points[b]), j, a, b)
                if best is None or candidate < best:
                    best = candidate
    if best is None:
        return False
    _, _, j, a, b = best
    pod[pod.index(a)] = b
    pods[j][pods[j].index(b)] = a
    return True


def places_from_scores(scores: Sequence[tuple[int, tuple[int, ...]]]) -> dict[int, int]:
    """Places from ``(player_id, key)``; a larger key is better, equal keys share a place."""
    ids = [pid for pid, _ in scores]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate player id in pod result")
    ranked = sorted(scores, key=lambda item: item[1], reverse=True)
    places: dict[int, int] = {}
    for position, (pid, key) in enumerate(ranked, start=1):
        previous = ranked[position - 2] if position > 1 else None
        places[pid] = places[previous[0]] if previous is not None and previous[1] == key else position
    return places


def vale_places(results: Sequence[ValeResult]) -> dict[int, int]:
    """Vale: most victory points; tie: most summoned cards; still tied: shared place."""
    return places_from_scores([(r.player_id, (r.victory_points, r.summoned)) for r in results])


def everseal_places(results: Sequence[EversealResult]) -> dict[int, int]:
    """Everseal: the first to defeat every opponent once wins; the others by defeats dealt, ties shared.

    The game ends as soon as someone has defeated every opponent, so at most one player can have done so;
    a game ended by time has no such player and is placed by defeats alone.
    """
    opponents = len(results) - 1
    for result in results:
        if not 0 <= result.defeats <= opponents:
            raise PodResultError(
                f"player {result.player_id} cannot have defeated {result.defeats} opponents",
                key="pods.defeats_range", player=result.player_id, defeats=result.defeats, max=opponents,
            )  # fmt: skip
    if sum(1 for result in results if result.defeats == opponents) > 1:
        raise PodResultError(
            "only one player can defeat every opponent: the game ends when the first does",
            key="pods.two_winners",
        )
    return places_from_scores([(r.player_id, (r.defeats,)) for r in results])
