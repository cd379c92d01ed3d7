"""Who goes first in each game of a match (pure Python, no Django).

Two policies cover the supported games:

``loser_goes_first`` (the twin-deck game)
    Game 1: the toss winner goes first. Later games: the loser of the previous game goes first. After a
    drawn game nobody lost, so the players toss again.
``loser_chooses`` (Yu-Gi-Oh! and the default for other games)
    Game 1: the toss winner chooses to go first or second. Later games: the loser of the previous game
    chooses. After a drawn game, toss again.

Only the previous game matters, which is why a draw resets to a toss instead of looking further back.

In the top cut game 1 may be ``seeded``: the higher seed does what the toss winner would (MTR 2.2: the higher
seed chooses to play or draw). Whether a game seeds its cut is the rule set's ``top_cut_first_player``
(``higher_seed``, or ``toss`` for the twin-deck game, whose toss winner goes first in every match, g001 2.3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = [
    "DEFAULT_POLICY",
    "Action",
    "CutPolicy",
    "Decision",
    "GameRecord",
    "Inconsistency",
    "Policy",
    "next_decision",
    "validate_games",
]


class Policy(StrEnum):
    LOSER_GOES_FIRST = "loser_goes_first"
    LOSER_CHOOSES = "loser_chooses"


class CutPolicy(StrEnum):
    """Game 1 of a top-cut match."""

    HIGHER_SEED = "higher_seed"
    TOSS = "toss"


DEFAULT_POLICY = Policy.LOSER_CHOOSES
"""For games without their own rule (everything except the twin-deck game)."""


class Action(StrEnum):
    GOES_FIRST = "goes_first"
    CHOOSES = "chooses"


@dataclass(frozen=True, slots=True)
class Decision:
    """``player`` does ``action``; when ``toss`` is True the player is unknown (None) until the toss, and
    ``action`` is what the toss winner does."""

    toss: bool
    player: int | None
    action: Action


@dataclass(frozen=True, slots=True)
class GameRecord:
    winner: int | None
    """None for a drawn game."""
    first_player: int | None = None
    """Who actually went first; None when not reported."""
    chooser: int | None = None
    """For ``loser_chooses``: who made the choice, when reported."""


@dataclass(frozen=True, slots=True)
class Inconsistency:
    """A reported game that breaks the policy, as a code with params (the engine builds no sentence; the
    result services word what they refuse through the catalogues):

    - ``should_have_gone_first`` / ``should_have_chosen``: ``{"expected", "actual"}`` player ids;
    - ``not_a_player``: ``{"role": "winner" | "first_player" | "chooser", "player"}``;
    - ``nobody_chooses``: ``{"actual"}`` — a chooser reported under ``loser_goes_first``, where the order is
      fixed (the toss winner or the loser of the previous game goes first) and nobody chooses.
    """

    game_number: int
    """1-based."""
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)


def next_decision(
    policy: Policy | str,
    players: tuple[int, int],
    previous: Sequence[GameRecord],
    *,
    seeded: int | None = None,
) -> Decision:
    """Decision for the next game of a match between ``players`` after the ``previous`` games.

    ``seeded``: the higher seed of a top-cut match whose game 1 is not tossed for (see the module note).
    """
    policy = Policy(policy)
    action = Action.GOES_FIRST if policy is Policy.LOSER_GOES_FIRST else Action.CHOOSES
    if not previous and seeded is not None:
        if seeded not in players:
            raise ValueError(f"player {seeded} is not in this match")
        return Decision(toss=False, player=seeded, action=action)
    if not previous or previous[-1].winner is None:
        return Decision(toss=True, player=None, action=action)
    return Decision(toss=False, player=_loser(players, previous[-1].winner), action=action)


def validate_games(
    policy: Policy | str,
    players: tuple[int, int],
    games: Sequence[GameRecord],
    *,
    seeded: int | None = None,
) -> list[Inconsistency]:
    """Warnings for a reported sequence of games; empty when it is consistent with the policy.

    Only what the policy determines is checked: under ``loser_chooses`` the chooser may pick either order,
    so the first player is checked only against the players of the match, and the chooser when reported.
    Under ``loser_goes_first`` nobody chooses, so a reported chooser is an inconsistency.
    """
    policy = Policy(policy)
    problems: list[Inconsistency] = []
    for number, game in enumerate(games, start=1):
        problems.extend(_participants_problems(number, players, game))
        if policy is Policy.LOSER_GOES_FIRST and game.chooser is not None and game.chooser in players:
            problems.append(Inconsistency(number, "nobody_chooses", {"actual": game.chooser}))
        previous_winner = games[number - 2].winner if number > 1 else None
        if previous_winner is not None and previous_winner not in players:
            continue  # already reported for the previous game; nothing sensible to expect here
        decision = next_decision(policy, players, games[: number - 1], seeded=seeded)
        if decision.toss or decision.player is None:
            continue
        if decision.action is Action.GOES_FIRST:
            if game.first_player is not None and game.first_player != decision.player:
                problems.append(
                    Inconsistency(
                        number,
                        "should_have_gone_first",
                        {"expected": decision.player, "actual": game.first_player},
                    )
                )
        elif game.chooser is not None and game.chooser != decision.player:
            problems.append(
                Inconsistency(
                    number, "should_have_chosen", {"expected": decision.player, "actual": game.chooser}
                )
            )
    return problems


def _loser(players: tuple[int, int], winner: int) -> int:
    a, b = players
    if winner not in players:
        raise ValueError(f"player {winner} is not in this match")
    return b if winner == a else a


def _participants_problems(number: int, players: tuple[int, int], game: GameRecord) -> list[Inconsistency]:
    problems = []
    for role, pid in (
        ("winner", game.winner),
        ("first_player", game.first_player),
        ("chooser", game.chooser),
    ):
        if pid is not None and pid not in players:
            problems.append(Inconsistency(number, "not_a_player", {"role": role, "player": pid}))
    return problems
