"""What to do with a pod round whose player count does not split into the game's pod sizes (pure Python).

``tournaments.engine.pods.assign_pods`` only seats players into pods of the allowed sizes, so on its own it refuses
e.g. 5 Everseal players (pods of 3-4). Official multiplayer events never turn players away for that, so the
event layer decides here, in this order:

1. The allowed sizes work: nothing special.
2. The game itself is playable by two (``min_players <= 2``; Everseal is a two-player game with a 3-4 player
   variant, the Vale is 2-4 anyway): the bottom table becomes one smaller pod, down to two players.
   ``pods.pod_sizes`` puts the larger pods first and the pods are filled from the top of the standings, so
   the short pod always holds the lowest-ranked players (5 Everseal players: a pod of 3, then a pod of 2).
   Nobody gets a free win this way, which is why it is preferred to a bye.
3. Otherwise (a game that cannot be played by two, or a single player left after drops): the fewest
   players needed get a **pod bye**, like a Swiss bye: the lowest on points among those who have not had
   one (never twice; ties between equal points drawn from the round's stored seed, so it is reproducible).
   A pod bye is stored as a bye match and scored like a Swiss bye: a win worth 3 points, which is what
   winning a full pod of four is worth (one point per opponent placed below you). Every pod game here has
   pods of at most four; a game with larger pods would need a different bye value.

If not enough players are eligible for the byes the round cannot be paired and the caller says so.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from .pods import PodsImpossible, pod_sizes

__all__ = ["PodPlan", "PodPlanImpossible", "plan_pod_round"]


class PodPlanImpossible(PodsImpossible):
    """Nobody eligible for the pod bye the round needs (everyone left has had one)."""


@dataclass(frozen=True, slots=True)
class PodPlan:
    min_size: int
    """The smallest pod size to pass to ``assign_pods`` (the game's minimum, or 2 for one short pod)."""
    byes: tuple[int, ...]
    """Players sitting out with a pod bye (usually none)."""


def _splits(n: int, min_size: int, max_size: int) -> bool:
    try:
        pod_sizes(n, min_size, max_size)
    except PodsImpossible:
        return False
    return True


def plan_pod_round(
    points: Mapping[int, int],
    *,
    min_size: int,
    max_size: int,
    two_player_games: bool,
    had_bye: Collection[int],
    seed: int,
) -> PodPlan:
    """Decide pod sizes and byes for the active players ``points`` (player id → points)."""
    n = len(points)
    if n == 0 or _splits(n, min_size, max_size):
        return PodPlan(min_size, ())
    if two_player_games and min_size > 2 and n >= 2 and _splits(n, 2, max_size):
        return PodPlan(2, ())
    byes_needed = next(b for b in range(1, n + 1) if n - b == 0 or _splits(n - b, min_size, max_size))
    draw = random.Random(seed).random
    tie_break = {pid: draw() for pid in sorted(points)}
    eligible: Sequence[int] = sorted(
        (pid for pid in points if pid not in had_bye), key=lambda pid: (points[pid], tie_break[pid])
    )
    if len(eligible) < byes_needed:
        raise PodPlanImpossible(
            f"{n} players cannot be seated in pods of {min_size}-{max_size} and only {len(eligible)} "
            f"of them can still get a bye (nobody gets two)",
            key="pods.no_bye", players=n, min=min_size, max=max_size, eligible=len(eligible),
        )  # fmt: skip
    return PodPlan(min_size, tuple(eligible[:byes_needed]))
