"""The pairing report of a team Swiss round: the same checks as a player round (``report.py``), about
the units the engine paired — teams, on team points.

- ``team_round_report(round_) -> dict`` — rematches between teams, the team bye and why, pair-downs by team
  points against their lower bound, the stored seed, manual changes; each "player" of the report is a team
  (its id and name), each table a team table (a team pairing's seat matches sit at consecutive tables).
- ``team_round_rerun(round_) -> Rerun`` — the engine run again on the teams and points it had and the stored
  seed, compared with the round's team pairings (``manage.py pairing_verify``).

- ``team_why_line(round_, team)`` — My event's "why these opponents" for a team member (cached per pairing).
- ``report_of_round(round_)`` / ``rerun_of_round(round_)`` — either kind of event: the callers' one door (the API,
  the public page, ``pairing_verify``), so ``report.py`` stays about players and imports nothing here.

The inputs are rebuilt exactly as ``services.teams.team_round_matches`` built them: the history before the
round, the phase's teams, its own points when the phase resets them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine import teams as team_engine
from ..engine.pairing import PairingPlayer, pair_down_lower_bound, pair_downs_of
from ..models import Round
from ..reads import phases, records
from ..reads.teams import membership, tables_per_pairing, team_results
from .report import (
    BYE_AVOIDS_REMATCH,
    BYE_LOWER_HAD_BYES,
    BYE_LOWEST,
    Rerun,
    opponent_reason,
    rerun_against,
    round_manual_changes,
    round_report,
    round_rerun,
)


@dataclass(slots=True)
class TeamPairing:
    table: int
    team_a: int
    team_b: int | None  # None: the team's bye


@dataclass(slots=True)
class TeamFacts:
    pairings: list[TeamPairing]
    points: dict[int, int]
    met: dict[int, set[int]]
    byes: set[int]
    names: dict[int, str] = field(default_factory=dict)


def _facts(round_: Round) -> TeamFacts:
    tournament = round_.tournament
    seat_of, _members = membership(tournament)
    per = tables_per_pairing(tournament)
    history = records.load_history(tournament)
    grouped: dict[int, list[records.MatchRow]] = {}
    for m in history.matches:
        if m.round_number == round_.number and m.seats:
            grouped.setdefault((m.table - 1) // per, []).append(m)
    pairings = []
    for index, rows in sorted(grouped.items()):
        rows.sort(key=lambda r: r.table)
        team_a = seat_of.get(rows[0].seats[0].player_id, (None, 0))[0]
        if team_a is None:
            continue
        bye = all(r.bye for r in rows)
        two = next((r for r in rows if len(r.seats) == 2), None)
        team_b = None if bye or two is None else seat_of.get(two.seats[1].player_id, (None, 0))[0]
        pairings.append(TeamPairing(index + 1, team_a, team_b))
    before = phases.before_round(history, round_.number)
    played = team_results(tournament, before)
    phase = phases.phase_of_round(tournament, round_.number)
    counted = (
        played
        if phase is None or phase.carry_points
        else team_results(tournament, phases.phase_history(before, phase))
    )
    seated = [t for p in pairings for t in (p.team_a, p.team_b) if t is not None]
    rows = {r.team_id: r for r in team_engine.team_standings(seated, counted)}
    met: dict[int, set[int]] = {}
    byes: set[int] = set()
    for match in played:
        if match.team_b is None:
            byes.add(match.team_a)
        else:
            met.setdefault(match.team_a, set()).add(match.team_b)
            met.setdefault(match.team_b, set()).add(match.team_a)
    names = dict(tournament.teams.values_list("id", "name"))
    return TeamFacts(pairings, {t: rows[t].points for t in seated}, met, byes, names)


def _team(facts: TeamFacts, team: int) -> dict[str, Any]:
    return {"player": team, "name": facts.names.get(team, "")}


def _bye_reason(facts: TeamFacts, team: int) -> str:
    own = facts.points.get(team, 0)
    below = [t for t, pts in facts.points.items() if pts < own]
    if not below:
        return BYE_LOWEST
    return BYE_LOWER_HAD_BYES if all(t in facts.byes for t in below) else BYE_AVOIDS_REMATCH


def team_round_report(round_: Round) -> dict[str, Any]:
    facts = _facts(round_)
    pairs = [(p.team_a, p.team_b) for p in facts.pairings if p.team_b is not None]
    bye = next((p.team_a for p in facts.pairings if p.team_b is None), None)
    points = facts.points
    return {
        "round": round_.number,
        "teams": True,
        "rematches": [
            {"table": p.table, "players": [_team(facts, p.team_a), _team(facts, p.team_b)]}
            for p in facts.pairings
            if p.team_b is not None and p.team_b in facts.met.get(p.team_a, ())
        ],
        "byes": [
            {**_team(facts, p.team_a), "points": points[p.team_a], "reason": _bye_reason(facts, p.team_a)}
            for p in facts.pairings
            if p.team_b is None
        ],
        "pair_downs": pair_downs_of(points, pairs),
        "pair_downs_lower_bound": pair_down_lower_bound(points, bye),
        "seed": round_.seed,
        "manual_changes": round_manual_changes(round_),
        "paired_down": [
            {
                **_team(facts, high),
                "from_points": points[high],
                "opponent": _team(facts, low),
                "to_points": points[low],
                "table": p.table,
            }
            for p in facts.pairings
            if p.team_b is not None and points[p.team_a] != points[p.team_b]
            for high, low in [sorted((p.team_a, p.team_b), key=lambda t: -points[t])]
        ],
    }


def team_round_rerun(round_: Round) -> Rerun:
    """Pair the round's teams again from their points, meetings and byes before it, with the stored seed."""
    facts = _facts(round_)
    stored = sorted(
        (p.table, p.team_b is None, (p.team_a,) if p.team_b is None else (p.team_a, p.team_b))
        for p in facts.pairings
    )
    players = [
        PairingPlayer(id=t, points=pts, opponents=frozenset(facts.met.get(t, ())), had_bye=t in facts.byes)
        for t, pts in sorted(facts.points.items())  # the pairing service's order: by team id
    ]
    return rerun_against(stored, players, round_)


def team_opponent_reasons(round_: Round) -> dict[int, tuple[str, dict[str, Any]]]:
    """Why each team of ``round_`` met its opponents (or got the bye): the codes of ``opponent_reasons``, on
    team points. Cached per pairing, as every member's phone asks when the round is posted."""
    from django.core.cache import cache

    tournament = round_.tournament
    stamp = round_.created_at.timestamp() if round_.created_at else 0
    key = f"team-why:{round_.pk}:{stamp}:{round_.seed}:{tournament.pairings_version}"
    cached = cache.get(key)
    if cached is not None:
        return cached
    facts = _facts(round_)
    reasons: dict[int, tuple[str, dict[str, Any]]] = {}
    for p in facts.pairings:
        if p.team_b is None:
            reasons[p.team_a] = (_bye_reason(facts, p.team_a), {"points": facts.points[p.team_a]})
            continue
        for me, other in ((p.team_a, p.team_b), (p.team_b, p.team_a)):
            reasons[me] = opponent_reason(facts.points[me], facts.points[other])
    cache.set(key, reasons, 6 * 3600)
    return reasons


def team_why_line(round_: Round, team: int) -> str:
    """One line for a member's phone: why their team met these opponents, or got the bye ('' outside Swiss)."""
    from django.utils.translation import gettext as _

    if round_.kind != Round.Kind.SWISS:
        return ""
    found = team_opponent_reasons(round_).get(team)
    if found is None:
        return ""
    code, params = found
    if code == "same_points":
        return _("Why these opponents: both teams had %(points)s team points.") % params
    if code == "paired_down":
        return (
            _("Why these opponents: your team was paired down from %(from)s team points (theirs: %(to)s).")
            % params
        )
    if code == "paired_up":
        return (
            _("Why these opponents: they were paired down from %(from)s team points to meet your team.")
            % params
        )
    if code == BYE_LOWEST:
        return _("Team bye: your team is the lowest-ranked without a bye (%(points)s team points).") % params
    if code == BYE_LOWER_HAD_BYES:
        return _("Team bye: every team below %(points)s team points has already had a bye.") % params
    return (
        _("Team bye: a bye lower down would have forced two teams to meet again (%(points)s team points).")
        % params
    )


def report_of_round(round_: Round) -> dict[str, Any]:
    """The pairing report of a Swiss round: of its teams in a team event, else of its players."""
    return team_round_report(round_) if round_.tournament.team_size > 1 else round_report(round_)


def rerun_of_round(round_: Round) -> Rerun:
    return team_round_rerun(round_) if round_.tournament.team_size > 1 else round_rerun(round_)
