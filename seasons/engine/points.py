"""Series points and standings (pure Python, no Django).

A points table gives each finish points by place and event size, the way store leagues and circuits do
(Pokémon Championship Points, Konami OTS points, TopDeck circuits): size *tiers* (the largest tier whose
``min_players`` the event reaches applies), each with points per place bracket (``"4": 5`` = places 3–4
when "2" is the bracket above), plus points for taking part at all. A series counts each player's best N
events; ties break on all points earned, then the best single place, then events played, then the name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DEFAULT_TABLE",
    "Finish",
    "SeriesRow",
    "TierLineError",
    "event_points",
    "series_standings",
    "table_problems",
    "tiers_from_text",
    "tiers_to_text",
]

DEFAULT_TABLE: dict[str, Any] = {
    "participation": 1,
    "tiers": [
        {"min_players": 0, "places": {"1": 6, "2": 4, "4": 3, "8": 2}},
        {"min_players": 16, "places": {"1": 10, "2": 7, "4": 5, "8": 3}},
        {"min_players": 32, "places": {"1": 15, "2": 11, "4": 8, "8": 5, "16": 3}},
    ],
}


def table_problems(table: Any) -> list[str]:
    """What is wrong with a points table, as ``field: problem`` codes for the edge to word (empty: valid)."""
    if not isinstance(table, Mapping):
        return ["table"]
    problems = []
    part = table.get("participation", 0)
    if isinstance(part, bool) or not isinstance(part, int) or not 0 <= part <= 1000:
        problems.append("participation")
    tiers = table.get("tiers")
    if not isinstance(tiers, list) or not tiers:
        return [*problems, "tiers"]
    for i, tier in enumerate(tiers):
        if not isinstance(tier, Mapping):
            problems.append(f"tiers[{i}]")
            continue
        size = tier.get("min_players")
        places = tier.get("places")
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            problems.append(f"tiers[{i}].min_players")
        if not isinstance(places, Mapping) or not places:
            problems.append(f"tiers[{i}].places")
            continue
        problems.extend(
            f"tiers[{i}].places.{key}" for key, value in places.items() if not _valid_place(key, value)
        )
    return problems


def _valid_place(key: Any, value: Any) -> bool:
    """A place bracket ("1", "4" …) worth a whole number of points."""
    if not str(key).isdecimal() or int(key) < 1:
        return False
    return not isinstance(value, bool) and isinstance(value, int) and 0 <= value <= 100_000


class TierLineError(ValueError):
    """A line of the tiers text that cannot be read: ``line`` (1-based) and the ``text`` of that line."""

    def __init__(self, line: int, text: str) -> None:
        super().__init__(f"line {line}: {text!r}")
        self.line = line
        self.text = text


def tiers_to_text(table: Mapping[str, Any]) -> str:
    """The tiers as a store owner edits them on a page: one tier a line, ``16+: 1=10, 2=7, 4=5, 8=3``."""
    lines = []
    for tier in sorted(table.get("tiers", []), key=lambda t: t["min_players"]):
        places = ", ".join(f"{key}={tier['places'][key]}" for key in sorted(tier["places"], key=int))
        lines.append(f"{tier['min_players']}+: {places}")
    return "\n".join(lines)


def tiers_from_text(text: str) -> list[dict[str, Any]]:
    """Read ``tiers_to_text``'s form back (blank lines ignored); a line that is not ``N+: place=points, …``
    raises ``TierLineError`` naming it. Values are checked afterwards by ``table_problems``."""
    tiers = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        head, colon, rest = line.partition(":")
        size = head.strip().rstrip("+").strip()
        if not colon or not size.isdecimal() or len(size) > 6:
            raise TierLineError(number, line)
        places: dict[str, int] = {}
        for part in rest.split(","):
            place, equals, points = (piece.strip() for piece in part.partition("="))
            if (
                not equals
                or not place.isdecimal()
                or not points.isdecimal()
                or len(place) > 6
                or len(points) > 6
            ):
                raise TierLineError(number, line)
            places[str(int(place))] = int(points)
        tiers.append({"min_players": int(size), "places": places})
    return tiers


def event_points(table: Mapping[str, Any], place: int, size: int) -> int:
    """Points for finishing ``place`` (1 = winner) among ``size`` players."""
    tiers = sorted(table["tiers"], key=lambda tier: tier["min_players"])
    chosen = None
    for tier in tiers:
        if size >= tier["min_players"]:
            chosen = tier
    points = int(table.get("participation", 0))
    if chosen is None:
        return points
    for bracket in sorted(int(key) for key in chosen["places"]):
        if place <= bracket:
            return points + int(chosen["places"][str(bracket)])
    return points


@dataclass(frozen=True, slots=True)
class Finish:
    """One player's result in one event of the series."""

    key: str
    """Who across events: an account (``u<id>``) or a guest's name (``g<name>``)."""
    name: str
    event_id: int
    place: int
    size: int


@dataclass(slots=True)
class SeriesRow:
    rank: int
    key: str
    name: str
    points: int
    """Points of the best N events (the ranking points)."""
    total: int
    """Points of every event played (the first tiebreak)."""
    events: int
    best_place: int
    counted: list[int] = field(default_factory=list)
    """Event ids whose points count."""


def series_standings(finishes: Iterable[Finish], table: Mapping[str, Any], best_of: int) -> list[SeriesRow]:
    """Standings of a series; ``best_of`` 0 counts every event."""
    per_player: dict[str, list[tuple[int, Finish]]] = {}
    names: dict[str, str] = {}
    for finish in finishes:
        per_player.setdefault(finish.key, []).append((event_points(table, finish.place, finish.size), finish))
        names[finish.key] = finish.name
    rows = []
    for key, results in per_player.items():
        # Best first; among equal points the earlier event counts (stable by event id) so the choice is fixed.
        results.sort(key=lambda item: (-item[0], item[1].event_id))
        counted = results[:best_of] if best_of else results
        rows.append(
            SeriesRow(
                rank=0,
                key=key,
                name=names[key],
                points=sum(points for points, _ in counted),
                total=sum(points for points, _ in results),
                events=len(results),
                best_place=min(finish.place for _, finish in results),
                counted=sorted(finish.event_id for _, finish in counted),
            )
        )
    rows.sort(key=lambda r: (-r.points, -r.total, r.best_place, -r.events, r.name.casefold(), r.key))
    previous: tuple[int, int, int, int] | None = None
    for position, row in enumerate(rows, start=1):
        tie = (row.points, row.total, row.best_place, row.events)
        row.rank = rows[position - 2].rank if tie == previous else position
        previous = tie
    return rows
