"""Reads about a team event's teams (no writes): who is on which team and seat, the team matches read back
from the seat matches' tables, and which teams make a cut. Services (``services/teams.py``, ``team_cut.py``)
and the phase reads (``phases.py``) build on these.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ..engine import teams as team_engine
from ..models import TeamMember, Tournament
from . import records


def team_cut_check(tournament: Tournament) -> None:
    """A team of two playing seat matches can split them 1-1, which a bracket cannot break."""
    if tournament.team_size == 2 and tournament.team_mode != "2hg":
        raise ValidationError(
            {
                "top_cut": _(
                    "A top cut of teams needs teams of 3 or Two-Headed Giant: two seat matches can split."
                )
            }
        )


def membership(tournament: Tournament) -> tuple[dict[int, tuple[int, int]], dict[int, list[int]]]:
    """player id -> (team id, seat), and team id -> member player ids by seat."""
    seat_of: dict[int, tuple[int, int]] = {}
    members: dict[int, list[int]] = {}
    for team_id, player_id, seat in (
        TeamMember.objects.filter(team__tournament=tournament)
        .order_by("team_id", "seat")
        .values_list("team_id", "player_id", "seat")
    ):
        seat_of[player_id] = (team_id, seat)
        members.setdefault(team_id, []).append(player_id)
    return seat_of, members


def tables_per_pairing(tournament: Tournament) -> int:
    """Matches of one team pairing: one per seat, or one shared game (Two-Headed Giant, seat A's player
    holding the team's place in it)."""
    return 1 if tournament.team_mode == "2hg" else tournament.team_size


def team_results(tournament: Tournament, history: records.History) -> list[team_engine.TeamMatch]:
    """The team matches of the Swiss rounds in ``history``, read back from the seat matches' tables."""
    seat_of, _members = membership(tournament)
    size = tables_per_pairing(tournament)
    grouped: dict[tuple[int, int], list[records.MatchRow]] = {}
    for m in history.matches:
        if m.seats:
            grouped.setdefault((m.round_number, (m.table - 1) // size), []).append(m)
    out = []
    for (number, _table), rows in sorted(grouped.items()):
        first = rows[0].seats[0].player_id
        team_a = seat_of.get(first, (None, 0))[0]
        if team_a is None:
            continue
        if all(r.bye for r in rows):
            out.append(team_engine.team_match_of(number, team_a, None, ()))
            continue
        team_b = None
        seats = []
        for r in rows:
            if len(r.seats) != 2:
                continue
            a, b = r.seats
            team_b = seat_of.get(b.player_id, (None, 0))[0]
            done = r.status in records.DONE_STATUSES
            seats.append(team_engine.SeatResult(a.wins if done else 0, b.wins if done else 0))
        if team_b is not None and all(r.status in records.DONE_STATUSES for r in rows):
            out.append(team_engine.team_match_of(number, team_a, team_b, seats))
    return out


def team_cut_entrants(tournament: Tournament, history: records.History, phase: Any) -> list[int]:
    """The members of the teams advancing into ``phase``: team standings cut by points and/or rank (a team
    with a dropped member cannot advance), filled up to the minimum count of teams."""
    _seat_of, members = membership(tournament)
    active = {p.id for p in history.active_for_round(phase.first_round)}
    complete = [t for t, ids in members.items() if len(ids) == tournament.team_size and set(ids) <= active]
    ranked = sorted(
        team_engine.team_standings(complete, team_results(tournament, history)), key=lambda r: r.rank
    )
    chosen = ranked
    if phase.min_points is not None:
        chosen = [row for row in chosen if row.points >= phase.min_points]
    if phase.top is not None:
        chosen = chosen[: phase.top]
    if phase.min_count is not None and len(chosen) < phase.min_count:
        taken = {row.team_id for row in chosen}
        chosen = chosen + [row for row in ranked if row.team_id not in taken][: phase.min_count - len(chosen)]
    return sorted(pid for row in chosen for pid in members[row.team_id])


def team_cut_reach(tournament: Tournament) -> tuple[dict[int, int], dict[int, int], int | None]:
    """How far each team went in the top cut: ``(team -> the last cut round it played, round -> its team
    pairings, the final's winning team or None)``."""
    from ..models import MatchSeat, Round

    per = tables_per_pairing(tournament)
    seat_of, _members = membership(tournament)
    rows = list(
        MatchSeat.objects.filter(match__round__tournament=tournament, match__round__kind=Round.Kind.TOP_CUT)
        .order_by("match__round__number", "match__table")
        .values_list("player_id", "wins", "match__table", "match__round__number", "match__status")
    )
    reached: dict[int, int] = {}
    slots: dict[int, set[int]] = {}
    seats: dict[tuple[int, int], list[tuple[int, int, str]]] = {}
    for pid, wins, table, number, status in rows:
        team = seat_of.get(pid, (None, 0))[0]
        if team is None:
            continue
        reached[team] = number
        slots.setdefault(number, set()).add((table - 1) // per)
        seats.setdefault((number, table), []).append((team, wins, status))
    winner = None
    last = max(slots, default=None)
    final = [pair for (number, _table), pair in seats.items() if number == last]
    if (
        last is not None
        and len(slots[last]) == 1
        and all(len(p) == 2 and p[0][2] in records.DONE_STATUSES for p in final)
    ):
        tally: dict[int, int] = {}
        for pair in final:
            if pair[0][1] != pair[1][1]:
                team = max(pair, key=lambda s: s[1])[0]
                tally[team] = tally.get(team, 0) + 1
        ranked = sorted(tally.items(), key=lambda kv: -kv[1])
        if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
            winner = ranked[0][0]
    return reached, {n: len(s) for n, s in slots.items()}, winner


def team_stages(tournament: Tournament) -> dict[int, str]:
    """team id -> how far it went in the cut ("winner", "final", "semifinal", …; a round is named by its
    number of team pairings)."""
    from .cut_stages import stage_name

    reached, slots, winner = team_cut_reach(tournament)
    stages = {team: stage_name(slots[number]) for team, number in reached.items()}
    if winner is not None:
        stages[winner] = "winner"
    return stages


def team_cut_stages(tournament: Tournament) -> dict[int, str]:
    """player id -> their team's stage in the cut, for the players' standings of a team event."""
    _seat_of, members = membership(tournament)
    return {pid: stage for team, stage in team_stages(tournament).items() for pid in members.get(team, ())}


def two_headed_labels(tournament: Tournament) -> dict[int, str]:
    """player id -> "Blue Mages (alice & bob)" for every member of a Two-Headed Giant team; {} in any other
    event. A 2HG game is seated on seat A's player alone, so every page that lists seats names the team
    through this instead of that one player."""
    if tournament.team_mode != "2hg" or tournament.team_size < 2:
        return {}
    teams: dict[int, tuple[str, list[tuple[int, int, str]]]] = {}
    for team_id, team_name, seat, player_id, name in (
        TeamMember.objects.filter(team__tournament=tournament)
        .order_by("team_id", "seat")
        .values_list("team_id", "team__name", "seat", "player_id", "player__name")
    ):
        teams.setdefault(team_id, (team_name, []))[1].append((seat, player_id, name))
    labels: dict[int, str] = {}
    for team_name, members in teams.values():
        label = f"{team_name} ({' & '.join(name for _seat, _pid, name in members)})"
        for _seat, player_id, _name in members:
            labels[player_id] = label
    return labels


def label_two_headed_seats(tournament: Tournament, matches: Any) -> None:
    """Set ``team_label`` on the (prefetched) seats of ``matches`` of a Two-Headed Giant event, read by the
    ``seat_name`` template filter; nothing in any other event."""
    label_two_headed_seat_list(tournament, [seat for match in matches for seat in match.seats.all()])


def label_two_headed_seat_list(tournament: Tournament, seats: Any) -> None:
    """``label_two_headed_seats`` for seats already in hand (a match page's or a phone's sorted seats)."""
    labels = two_headed_labels(tournament)
    for seat in seats if labels else ():
        seat.team_label = labels.get(seat.player_id, "")
