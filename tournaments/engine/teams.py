"""Team Swiss (pure Python, no Django): team match results from seat matches, and team standings.

A team match is ``size`` ordinary matches, seat against seat; the team that wins more of them wins the team
match (3 points), equal counts are a draw (1 point), a bye is a win. Standings follow MTR's team order: match
points, then opponents' team match-win percentage (each opponent at least 1/3, byes not counted as
opponents), then the percentage of seat matches won.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["SeatResult", "TeamMatch", "TeamRow", "team_match_of", "team_standings"]

WIN, DRAW = 3, 1
FLOOR = 1 / 3


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat match: games won by team a's and team b's player (equal: a drawn match)."""

    wins_a: int
    wins_b: int


@dataclass(frozen=True, slots=True)
class TeamMatch:
    round_number: int
    team_a: int
    team_b: int | None
    """None: team a had the bye."""
    seats: tuple[SeatResult, ...] = ()

    @property
    def seat_score(self) -> tuple[int, int]:
        """Seat matches won by a and by b."""
        a = sum(1 for s in self.seats if s.wins_a > s.wins_b)
        b = sum(1 for s in self.seats if s.wins_b > s.wins_a)
        return a, b


def team_match_of(
    round_number: int, team_a: int, team_b: int | None, seats: Sequence[SeatResult]
) -> TeamMatch:
    return TeamMatch(round_number, team_a, team_b, tuple(seats))


@dataclass(slots=True)
class TeamRow:
    rank: int
    team_id: int
    points: int
    wins: int
    losses: int
    draws: int
    omw: float
    seat_win: float


def team_standings(teams: Iterable[int], matches: Iterable[TeamMatch]) -> list[TeamRow]:
    stats: dict[int, dict[str, int]] = {t: {"w": 0, "l": 0, "d": 0, "sw": 0, "sp": 0} for t in teams}
    opponents: dict[int, list[int]] = {t: [] for t in stats}
    for m in matches:
        if m.team_a not in stats:
            continue
        if m.team_b is None:
            stats[m.team_a]["w"] += 1
            continue
        a, b = m.seat_score
        for me, other, mine, theirs in ((m.team_a, m.team_b, a, b), (m.team_b, m.team_a, b, a)):
            if me not in stats:
                continue
            row = stats[me]
            row["w" if mine > theirs else "l" if mine < theirs else "d"] += 1
            row["sw"] += mine
            row["sp"] += len(m.seats)
            opponents[me].append(other)

    def win_pct(team: int) -> float:
        row = stats[team]
        played = row["w"] + row["l"] + row["d"]
        return max(FLOOR, (WIN * row["w"] + DRAW * row["d"]) / (WIN * played)) if played else FLOOR

    rows = []
    for team, row in stats.items():
        opps = [o for o in opponents[team] if o in stats]
        rows.append(
            TeamRow(
                rank=0,
                team_id=team,
                points=WIN * row["w"] + DRAW * row["d"],
                wins=row["w"],
                losses=row["l"],
                draws=row["d"],
                omw=sum(win_pct(o) for o in opps) / len(opps) if opps else 0.0,
                seat_win=row["sw"] / row["sp"] if row["sp"] else 0.0,
            )
        )
    rows.sort(key=lambda r: (-r.points, -r.omw, -r.seat_win, r.team_id))
    previous = None
    for position, row in enumerate(rows, start=1):
        key = (row.points, round(row.omw, 9), round(row.seat_win, 9))
        row.rank = rows[position - 2].rank if key == previous else position
        previous = key
    return rows
