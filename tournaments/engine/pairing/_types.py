"""The player record shared by the pairing modules (re-exported by ``tournaments.engine.pairing``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PairingPlayer:
    """An active (not dropped) player as seen by the pairing engine."""

    id: int
    points: int
    opponents: frozenset[int] = frozenset()
    had_bye: bool = False
    pair_downs: int = 0


Players = dict[int, PairingPlayer]
