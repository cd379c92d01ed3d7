"""Standings and tiebreakers (pure Python, no Django).

Every policy computes per-player aggregates in one pass over the match records, then averages over
opponents with exact integer arithmetic: each percentage is a numerator over one shared denominator, so two
players whose tiebreakers are mathematically equal really compare equal (float sums in a different order
could differ in the last bit and silently decide the tie). Floats are produced only for the output.

Ranks are sequential (1, 2, 3, ...) even for players equal in every key: the sort is total and deterministic
because the stable player id is the last key, and a unique rank is what top cuts and prizes need.

Policies
--------
``mtg`` (MTR Appendix C)
    Points: win 3, draw 1, loss 0. A bye is a 2-0 match win; a recorded loss for a missed round (late entry)
    is a 0-2 match loss; both count as rounds played but neither is an opponent. An intentional draw is
    recorded as 0-0-3 (three drawn games). MW% = points / (3 x rounds), GW% = game points / (3 x games),
    both floored at 1/3. Keys: ``omw`` (average of opponents' floored MW%), ``gw``, ``ogw``.
``yugioh`` (Konami Tournament Software)
    Points as above. Keys: ``omw`` (average of opponents' MW%) and ``oomw`` (average of opponents' omw).
    No 1/3 floor: the floor is an MTR-specific device against early droppers, and Konami's published
    tiebreaker definition is the plain percentage. MW% counts byes as wins (the points are real), but a bye
    is never an opponent.
``pokemon`` (Play! Pokemon)
    Points: win 3, tie 1, loss 0. Win% = wins / (wins + losses + ties) with byes excluded from both sides of
    the fraction (a bye says nothing about strength), floored at 25 %, and capped at 75 % for a player who
    dropped (so a dropper's early perfect record does not inflate opponents). Keys: ``owp``, ``oowp``.
``pods`` (multiplayer pods)
    Places score on one scale for the whole event, set by the game's largest pod (``pod_scale``; by default
    the largest pod in the records): with pods of up to ``k`` players, place ``p`` is worth ``k - p`` points whatever the size of the pod (4-pods: 3/2/1/0). Tied
    players share the place and each scores it in full (competition ranking: 1st/1st/3rd/4th gives 3/3/1/0).
    So a shared place never scores less than a lone lower place, in any pod: two players sharing 1st in a
    3-pod get 3 each, more than a lone 2nd in a 4-pod (2). Record kinds: a shared or unshared 1st place is a
    draw or a win, anything else a loss. Keys (raw values, not fractions): ``tiebreak`` = total of the
    game's first tiebreak value (Vale: victory points, Everseal: defeats dealt), ``tiebreak2`` = total of the
    second value (Vale: summoned cards; 0 when the game has none), ``opp`` = average final points of the
    pod opponents faced (one entry per opponent per game).

An empty average (a player whose only rounds were byes) is 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from math import lcm

__all__ = [
    "MatchRecord",
    "Policy",
    "StandingPlayer",
    "StandingRow",
    "compute_points",
    "compute_standings",
]


class Policy(StrEnum):
    MTG = "mtg"
    YUGIOH = "yugioh"
    POKEMON = "pokemon"
    PODS = "pods"


@dataclass(frozen=True, slots=True)
class StandingPlayer:
    id: int
    name: str = ""
    dropped: bool = False


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One match (two players), pod game (2+ players), bye or missed-round loss (one player).

    ``game_wins`` is aligned with ``players``. For pods, ``places`` (1 = best, equal numbers share a place)
    and ``tiebreak_values`` (per player, e.g. ``(vp, summoned)`` for Vale or ``(defeats,)`` for Everseal)
    are aligned with ``players`` too.
    """

    round_number: int
    players: tuple[int, ...]
    game_wins: tuple[int, ...] = ()
    game_draws: int = 0
    is_bye: bool = False
    missed: bool = False
    """A match loss given without an opponent, e.g. for the rounds a late entry missed."""
    intentional_draw: bool = False
    places: tuple[int, ...] = ()
    tiebreak_values: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    player_id: int
    name: str
    points: int
    wins: int
    losses: int
    draws: int
    dropped: bool
    tiebreakers: dict[str, float] = field(default_factory=dict)


WIN_POINTS = 3
DRAW_POINTS = 1
BYE_GAMES = 2  # MTR: a bye is a 2-0 game win; a missed-round loss is 0-2.
INTENTIONAL_DRAW_GAMES = 3  # MTR: an intentional draw is recorded as 0-0-3.


def compute_standings(
    players: Sequence[StandingPlayer],
    matches: Iterable[MatchRecord],
    policy: Policy | str,
    *,
    pod_scale: int | None = None,
) -> list[StandingRow]:
    policy = Policy(policy)
    tally = _tally(players, matches, policy, pod_scale)
    if policy is Policy.MTG:
        keys, columns = _mtg_tiebreakers(tally)
    elif policy is Policy.YUGIOH:
        keys, columns = _yugioh_tiebreakers(tally)
    elif policy is Policy.POKEMON:
        keys, columns = _pokemon_tiebreakers(tally, players)
    else:
        keys, columns = _pod_tiebreakers(tally)
    return _rank(players, tally, keys, columns)


def compute_points(
    players: Sequence[StandingPlayer],
    matches: Iterable[MatchRecord],
    policy: Policy | str,
    *,
    pod_scale: int | None = None,
) -> dict[int, int]:
    """Each player's points, exactly the ``points`` of ``compute_standings`` (the same pass over the records)
    without the tiebreakers and the ranking: what pairing a round needs, at a fraction of the cost."""
    tally = _tally(players, matches, Policy(policy), pod_scale)
    return {player.id: points for player, points in zip(players, tally.points, strict=True)}


def _tally(
    players: Sequence[StandingPlayer], matches: Iterable[MatchRecord], policy: Policy, pod_scale: int | None
) -> _Tally:
    index = {player.id: i for i, player in enumerate(players)}
    if len(index) != len(players):
        raise ValueError("duplicate player id in standings input")
    tally = _Tally(len(players))
    matches = list(matches)
    largest = max((len(m.places) for m in matches if m.places and not m.is_bye), default=0)
    tally.pod_scale = max(pod_scale or 0, largest)
    for match in matches:
        _record(tally, index, match, policy)
    return tally


# --- one pass over the records --------------------------------------------------------------------------


class _Tally:
    """Per-player aggregates, index-aligned with the players list (lists beat dicts of objects here)."""

    def __init__(self, n: int) -> None:
        self.points = [0] * n
        self.wins = [0] * n
        self.losses = [0] * n
        self.draws = [0] * n
        self.byes = [0] * n
        self.rounds = [0] * n
        self.game_points = [0] * n
        self.games = [0] * n
        self.opponents: list[list[int]] = [[] for _ in range(n)]
        self.tiebreak_totals: list[list[int]] = [[0, 0] for _ in range(n)]
        # Points of a pod's 1st place + 1: the size of the event's largest pod (see the module docstring).
        self.pod_scale = 0


def _record(tally: _Tally, index: dict[int, int], match: MatchRecord, policy: Policy) -> None:
    try:
        seats = [index[pid] for pid in match.players]
    except KeyError as error:
        raise ValueError(f"match in round {match.round_number} names unknown player {error}") from None
    if match.is_bye or match.missed:
        _record_solo(tally, seats, match)
    elif policy is Policy.PODS:
        _record_pod(tally, seats, match)
    else:
        _record_duel(tally, seats, match)


def _record_solo(tally: _Tally, seats: list[int], match: MatchRecord) -> None:
    if len(seats) != 1:
        raise ValueError(f"a bye or missed round has exactly one player (round {match.round_number})")
    (p,) = seats
    tally.rounds[p] += 1
    tally.games[p] += BYE_GAMES
    if match.is_bye:
        tally.byes[p] += 1
        tally.wins[p] += 1
        tally.points[p] += WIN_POINTS
        tally.game_points[p] += WIN_POINTS * BYE_GAMES
    else:
        tally.losses[p] += 1


def _record_duel(tally: _Tally, seats: list[int], match: MatchRecord) -> None:
    if len(seats) != 2:
        raise ValueError(f"a match has two players (round {match.round_number})")
    a, b = seats
    if match.intentional_draw:
        wins_a, wins_b, drawn = 0, 0, INTENTIONAL_DRAW_GAMES
    else:
        if len(match.game_wins) != 2:
            raise ValueError(f"game_wins must give both players' wins (round {match.round_number})")
        wins_a, wins_b = match.game_wins
        drawn = match.game_draws
    games = wins_a + wins_b + drawn
    # Written out for both players instead of looping over a tuple: this is the hot loop of the module
    # (16k players x 14 rounds).
    tally.rounds[a] += 1
    tally.rounds[b] += 1
    tally.opponents[a].append(b)
    tally.opponents[b].append(a)
    tally.games[a] += games
    tally.games[b] += games
    tally.game_points[a] += WIN_POINTS * wins_a + DRAW_POINTS * drawn
    tally.game_points[b] += WIN_POINTS * wins_b + DRAW_POINTS * drawn
    if wins_a > wins_b:
        _add_result(tally, winner=a, loser=b)
    elif wins_b > wins_a:
        _add_result(tally, winner=b, loser=a)
    else:
        tally.draws[a] += 1
        tally.draws[b] += 1
        tally.points[a] += DRAW_POINTS
        tally.points[b] += DRAW_POINTS


def _add_result(tally: _Tally, winner: int, loser: int) -> None:
    tally.wins[winner] += 1
    tally.points[winner] += WIN_POINTS
    tally.losses[loser] += 1


def _record_pod(tally: _Tally, seats: list[int], match: MatchRecord) -> None:
    if len(match.places) != len(seats):
        raise ValueError(f"a pod game needs a place per player (round {match.round_number})")
    values = match.tiebreak_values or tuple(() for _ in seats)
    if len(values) != len(seats):
        raise ValueError(f"tiebreak_values must be aligned with players (round {match.round_number})")
    for me, place, own_values in zip(seats, match.places, values, strict=True):
        tally.rounds[me] += 1
        tally.opponents[me].extend(other for other in seats if other != me)
        tally.points[me] += max(tally.pod_scale - place, 0)
        best = min(match.places)
        if place != best:
            tally.losses[me] += 1
        elif match.places.count(best) > 1:
            tally.draws[me] += 1
        else:
            tally.wins[me] += 1
        for k, value in enumerate(own_values[:2]):
            tally.tiebreak_totals[me][k] += value


# --- exact averages -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Column:
    """Exact values ``nums[i] / den`` sharing one denominator."""

    nums: list[int]
    den: int

    def as_floats(self) -> list[float]:
        # int / int is correctly rounded in Python, even for huge numerators.
        return [num / self.den for num in self.nums]


def _column(
    numerators: Sequence[int], denominators: Sequence[int], floor: Fraction, caps: Sequence[Fraction]
) -> _Column:
    """Exact column of ``clamp(n / d, floor, cap)``; d == 0 counts as the floor.

    Clamping is done by cross-multiplication so no Fraction object is built per player.
    """
    values: list[tuple[int, int]] = []
    for num, den, cap in zip(numerators, denominators, caps, strict=True):
        if den == 0 or num * floor.denominator < floor.numerator * den:
            values.append((floor.numerator, floor.denominator))
        elif num * cap.denominator > cap.numerator * den:
            values.append((cap.numerator, cap.denominator))
        else:
            values.append((num, den))
    common = lcm(*{den for _, den in values}) if values else 1
    return _Column([num * (common // den) for num, den in values], common)


def _opponent_average(column: _Column, opponents: list[list[int]]) -> _Column:
    counts = [len(opps) for opps in opponents]
    scale = lcm(*{count for count in counts if count}) if any(counts) else 1
    nums = column.nums
    averaged = [sum(nums[o] for o in opps) * (scale // len(opps)) if opps else 0 for opps in opponents]
    return _Column(averaged, column.den * scale)


def _sort_key_parts(*columns: _Column) -> list[list[int]]:
    return [column.nums for column in columns]


# --- policies -------------------------------------------------------------------------------------------

_KeyParts = list[list[int]]
_Columns = dict[str, _Column]
MTG_FLOOR = Fraction(1, 3)
POKEMON_FLOOR = Fraction(1, 4)
POKEMON_DROPPED_CAP = Fraction(3, 4)


def _no_cap(n: int) -> list[Fraction]:
    return [Fraction(1)] * n


def _mtg_tiebreakers(tally: _Tally) -> tuple[_KeyParts, _Columns]:
    n = len(tally.points)
    match_win = _column(tally.points, [3 * r for r in tally.rounds], MTG_FLOOR, _no_cap(n))
    game_win = _column(tally.game_points, [3 * g for g in tally.games], MTG_FLOOR, _no_cap(n))
    omw = _opponent_average(match_win, tally.opponents)
    ogw = _opponent_average(game_win, tally.opponents)
    return _sort_key_parts(omw, game_win, ogw), {"omw": omw, "gw": game_win, "ogw": ogw}


def _yugioh_tiebreakers(tally: _Tally) -> tuple[_KeyParts, _Columns]:
    n = len(tally.points)
    match_win = _column(tally.points, [3 * r for r in tally.rounds], Fraction(0), _no_cap(n))
    omw = _opponent_average(match_win, tally.opponents)
    oomw = _opponent_average(omw, tally.opponents)
    return _sort_key_parts(omw, oomw), {"omw": omw, "oomw": oomw}


def _pokemon_tiebreakers(tally: _Tally, players: Sequence[StandingPlayer]) -> tuple[_KeyParts, _Columns]:
    played = [
        w + lo + d - b for w, lo, d, b in zip(tally.wins, tally.losses, tally.draws, tally.byes, strict=True)
    ]
    wins = [w - b for w, b in zip(tally.wins, tally.byes, strict=True)]
    caps = [POKEMON_DROPPED_CAP if player.dropped else Fraction(1) for player in players]
    win_rate = _column(wins, played, POKEMON_FLOOR, caps)
    owp = _opponent_average(win_rate, tally.opponents)
    oowp = _opponent_average(owp, tally.opponents)
    return _sort_key_parts(owp, oowp), {"owp": owp, "oowp": oowp}


def _pod_tiebreakers(tally: _Tally) -> tuple[_KeyParts, _Columns]:
    first = _Column([totals[0] for totals in tally.tiebreak_totals], 1)
    second = _Column([totals[1] for totals in tally.tiebreak_totals], 1)
    opp = _opponent_average(_Column(tally.points, 1), tally.opponents)
    return _sort_key_parts(first, second, opp), {"tiebreak": first, "tiebreak2": second, "opp": opp}


# --- ranking --------------------------------------------------------------------------------------------


def _rank(
    players: Sequence[StandingPlayer], tally: _Tally, key_parts: _KeyParts, columns: _Columns
) -> list[StandingRow]:
    # Within one column all numerators share a denominator, so comparing numerators compares values.
    order = sorted(
        range(len(players)),
        key=lambda i: (-tally.points[i], *(-part[i] for part in key_parts), players[i].id),
    )
    floats = {name: column.as_floats() for name, column in columns.items()}
    return [
        StandingRow(
            rank=rank,
            player_id=players[i].id,
            name=players[i].name,
            points=tally.points[i],
            wins=tally.wins[i],
            losses=tally.losses[i],
            draws=tally.draws[i],
            dropped=players[i].dropped,
            tiebreakers={name: values[i] for name, values in floats.items()},
        )
        for rank, i in enumerate(order, start=1)
    ]
