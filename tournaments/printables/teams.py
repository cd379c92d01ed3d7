"""Printables of team events and phases (``documents.context_for`` hands these kinds over):

- ``pairings`` of a team event by table: each team pairing with its team names and, seat by seat, the table
  and the two players (Two-Headed Giant: one table, both heads of each team);
- ``slips`` of a team event: ``label_team_slips`` gives each slip its team pairing (team names and seat; in
  Two-Headed Giant both heads of each team) — the slip itself is the players' one;
- ``teams``: the team standings with each team's members by seat;
- ``phase`` (``?phase=N``): one phase's standings (its own rounds and entrants; phase 1 is the event's first
  Swiss rounds), with the phase's team standings in a team event.
"""

from __future__ import annotations

from typing import Any

from ..models import Match, Phase, Player, Round, TeamMember, Tournament
from ..reads import phases
from ..reads import teams as team_reads

SEATS = "ABC"


def team_pairing_rows(tournament: Tournament, round_: Round) -> list[dict[str, Any]]:
    """One row per team pairing (a bye: ``team_b`` None), with its seat matches in seat order."""
    per = team_reads.tables_per_pairing(tournament)
    members = {
        m.player_id: m
        for m in TeamMember.objects.filter(team__tournament=tournament).select_related("team", "player")
    }
    heads: dict[int, list[str]] = {}
    for m in sorted(members.values(), key=lambda m: m.seat):
        heads.setdefault(m.team_id, []).append(m.player.name)
    groups: dict[int, list[Match]] = {}
    for match in round_.matches.prefetch_related("seats__player").order_by("table"):
        groups.setdefault((match.table - 1) // per, []).append(match)
    rows = []
    for _slot, matches in sorted(groups.items()):
        seats = [sorted(m.seats.all(), key=lambda s: s.seat) for m in matches]
        first = members.get(seats[0][0].player_id) if seats and seats[0] else None
        second = members.get(seats[0][1].player_id) if seats and len(seats[0]) > 1 else None
        if first is None:
            continue
        lines = []
        for match, pair in zip(matches, seats, strict=True):
            a = pair[0]
            b = pair[1] if len(pair) > 1 else None
            if per == 1:  # Two-Headed Giant: the team's heads together at one table
                names = (
                    " & ".join(heads[first.team_id]),
                    " & ".join(heads[second.team_id]) if second else "",
                )
                seat = "A+B"
            else:
                names = (a.player.name, b.player.name if b else "")
                seat = SEATS[members[a.player_id].seat] if a.player_id in members else "?"
            lines.append({"seat": seat, "table": match.table, "a": names[0], "b": names[1]})
        rows.append({
            "tables": f"{matches[0].table}–{matches[-1].table}" if len(matches) > 1 else str(matches[0].table),
            "team_a": first.team.name, "team_b": second.team.name if second else None,
            "bye": second is None, "seats": lines,
        })  # fmt: skip
    return rows


def add_second_heads(tournament: Tournament, by_match: dict[int, dict[str, Any]]) -> None:
    """Two-Headed Giant, pairings by name: each match's seats (seat A's players) joined by their seat B
    partners, so both heads of a team find the table and see both heads of the other team (``mates``: each
    head's teammate, never listed as their opponent)."""
    from ..reads.team_records import two_headed_partners

    partners = two_headed_partners(tournament)
    names = dict(Player.objects.filter(pk__in=partners.values()).values_list("id", "name"))
    for entry in by_match.values():
        entry["mates"] = {pid: mate for head in entry["seats"] if (b := partners.get(head[0])) is not None
                          for pid, mate in ((head[0], b), (b, head[0]))}  # fmt: skip
        entry["seats"] = [
            (pid, name)
            for head, head_name in entry["seats"]
            for pid, name in ((head, head_name), (partners.get(head), names.get(partners.get(head, 0))))
            if pid is not None and name is not None
        ]


def label_team_slips(tournament: Tournament, matches: list[Match]) -> None:
    """Set ``team_slip`` on each match of a team event's slips: ``line`` (the teams and the seat, or Two-Headed
    Giant) and ``columns`` (a header per seat: the player and their team, or both heads of the team)."""
    from django.utils.translation import gettext as _

    members = {
        m.player_id: m
        for m in TeamMember.objects.filter(team__tournament=tournament).select_related("team", "player")
    }
    heads: dict[int, list[str]] = {}
    for m in sorted(members.values(), key=lambda m: m.seat):
        heads.setdefault(m.team_id, []).append(m.player.name)
    two_headed = tournament.team_mode == "2hg"
    for match in matches:
        seats = sorted(match.seats.all(), key=lambda s: s.seat)
        sides = [members.get(s.player_id) for s in seats]
        if len(seats) != 2 or None in sides:
            continue
        teams = {"a": sides[0].team.name, "b": sides[1].team.name}  # type: ignore[union-attr]
        if two_headed:
            line = _("Two-Headed Giant: %(a)s — %(b)s") % teams
            # Each team with both its heads, "Blue Mages (alice & bob)": one column and one signature each.
            columns = [f"{side.team.name} ({' & '.join(heads[side.team_id])})" for side in sides]  # type: ignore[union-attr]
            for seat, column in zip(seats, columns, strict=True):
                seat.team_label = column  # the slip's drop line names the team too
        else:
            line = _("%(a)s — %(b)s, seat %(seat)s") % {**teams, "seat": SEATS[sides[0].seat]}  # type: ignore[union-attr]
            columns = [f"{s.player.name} ({side.team.name})" for s, side in zip(seats, sides, strict=True)]  # type: ignore[union-attr]
        match.team_slip = {"line": line, "columns": columns}  # type: ignore[attr-defined]


def phase_context(tournament: Tournament, number: int | None) -> dict[str, Any] | None:
    """The ``phase`` printable: None when the event has no such Swiss phase."""
    from ..services import team_standings_rows

    number = number or 1
    phase = None
    if number != 1:
        phase = Phase.objects.filter(tournament=tournament, number=number).first()
        if phase is None:
            return None
    context: dict[str, Any] = {
        "template": "tournaments/print/phase_standings.html",
        "phase": phase,
        "number": number,
        "rows": phases.phase_rows(tournament, phase),
        "filename": f"phase-{tournament.pk}-{number}",
    }
    if tournament.team_size > 1:
        context["team_rows"] = team_standings_rows(tournament, phase, phase_one=phase is None)
    return context


def teams_context(tournament: Tournament) -> dict[str, Any] | None:
    from ..services import team_standings_rows

    if tournament.team_size < 2:
        return None
    return {
        "template": "tournaments/print/team_standings.html",
        "team_rows": team_standings_rows(tournament),
        "filename": f"team-standings-{tournament.pk}",
    }
