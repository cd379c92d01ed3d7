"""Swiss pairing in groups paired apart (a limited event's pods for its first rounds, MTR 7.x): each group is
paired on its own with the round's seed, the tables numbered on from one group to the next, the byes after
every table. One group is exactly ``pair_round`` over everyone."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import pair_round
from ._types import PairingPlayer


@dataclass(frozen=True, slots=True)
class GroupedPairing:
    # (table, player_a, player_b), then (table, bye player) after every table.
    tables: tuple[tuple[int, int, int], ...]
    byes: tuple[tuple[int, int], ...]
    paired_down: frozenset[int]


def pair_in_groups(
    players: Sequence[PairingPlayer], round_number: int, seed: int, groups: Sequence[set[int]] | None = None
) -> GroupedPairing:
    """PairingImpossible from any group propagates (the round cannot be paired)."""
    parts = (
        [list(players)]
        if not groups or len(groups) <= 1
        else [[p for p in players if p.id in g] for g in groups]
    )
    tables: list[tuple[int, int, int]] = []
    bye_ids: list[int] = []
    paired_down: set[int] = set()
    for members in parts:
        if not members:
            continue
        result = pair_round(members, round_number, seed)
        first = len(tables)
        tables.extend((first + pair.table, pair.player_a, pair.player_b) for pair in result.pairs)
        paired_down.update(result.stats.paired_down)
        if result.bye is not None:
            bye_ids.append(result.bye)
    byes = tuple((len(tables) + i + 1, pid) for i, pid in enumerate(bye_ids))
    return GroupedPairing(tuple(tables), byes, frozenset(paired_down))
