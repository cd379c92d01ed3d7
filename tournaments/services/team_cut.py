"""The top cut of a team event: a single-elimination bracket of teams, seeded from the team standings.

Each bracket match is the two teams' seat matches at consecutive tables (((slot × per) + seat + 1), as in team
Swiss), or one shared game in Two-Headed Giant; the team that wins most seat matches advances. A bracket
entrant's ``player_id`` is the team's id here. Called by ``services/topcut.py`` for events with teams.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from config.api import StateConflict

from ..engine import teams as team_engine
from ..engine import topcut
from ..models import Match, MatchSeat, Round, Tournament
from ..reads import records
from ..reads.teams import membership as _membership
from ..reads.teams import tables_per_pairing, team_cut_check, team_results


def team_cut_start(tournament: Tournament, latest: Round, by: Any) -> Round:
    """Seed the bracket from the team standings (teams of the last phase only, none with a dropped member)."""
    team_cut_check(tournament)
    history = records.load_history(tournament)
    _seat_of, members = _membership(tournament)
    active = {p.id for p in history.active_for_round(latest.number)}
    last_phase = tournament.phases.order_by("-number").first()
    if last_phase is not None and last_phase.entrants is not None:
        active &= set(last_phase.entrants)
    complete = [t for t, ids in members.items() if len(ids) == tournament.team_size and set(ids) <= active]
    ranked = sorted(
        team_engine.team_standings(complete, team_results(tournament, history)), key=lambda r: r.rank
    )
    if len(ranked) < 2:
        raise StateConflict(_("Not enough teams for a top cut."))
    entrants = [topcut.Entrant(seed, row.team_id) for seed, row in enumerate(ranked[: tournament.top_cut], 1)]
    return create_team_cut_round(tournament, latest.number + 1, topcut.first_round(entrants), by, members)


def create_team_cut_round(
    tournament: Tournament, number: int, bracket: Sequence[Any], by: Any, members: dict[int, list[int]]
) -> Round:
    per = tables_per_pairing(tournament)
    round_ = Round.objects.create(
        tournament=tournament, number=number, kind=Round.Kind.TOP_CUT, seed=tournament.seed, paired_by=by
    )
    slots = [(bm, seat) for bm in bracket for seat in range(per)]
    Match.objects.bulk_create([
        Match(round=round_, table=bm.position * per + seat + 1, bye=bm.is_bye,
              chooser_id=members[bm.chooser.player_id][seat],
              status=Match.Status.FINAL if bm.is_bye else Match.Status.PENDING)
        for bm, seat in slots
    ])  # fmt: skip
    # Read back by table: SQLite's bulk insert returns no ids (services/topcut.py does the same).
    by_table = {m.table: m for m in Match.objects.filter(round=round_)}
    matches = [by_table[bm.position * per + seat + 1] for bm, seat in slots]
    seats = []
    for match, (bm, seat) in zip(matches, slots, strict=True):
        seats.append(MatchSeat(match=match, player_id=members[bm.a.player_id][seat], seat=0, cut_seed=bm.a.seed,
                               wins=2 if bm.is_bye else 0))  # fmt: skip
        if bm.b is not None:
            seats.append(
                MatchSeat(match=match, player_id=members[bm.b.player_id][seat], seat=1, cut_seed=bm.b.seed)
            )
    MatchSeat.objects.bulk_create(seats)
    return round_


def _seat_winner(match: Match) -> int | None:
    """The player who won a seat match of the cut (its bye's player), None while tied."""
    seats = list(match.seats.all())
    if match.bye:
        return seats[0].player_id
    if len(seats) == 2 and seats[0].wins != seats[1].wins:
        return max(seats, key=lambda s: s.wins).player_id
    return None


def team_bracket(tournament: Tournament, round_: Round) -> tuple[list[Any], dict[int, int | None]]:
    """The stored bracket round (entrants are teams) and each slot's winning team (None: undecided or tied)."""
    seat_of, _members = _membership(tournament)
    per = tables_per_pairing(tournament)
    groups: dict[int, list[Match]] = {}
    for match in round_.matches.prefetch_related("seats").order_by("table"):
        groups.setdefault((match.table - 1) // per, []).append(match)
    bracket, winners = [], {}
    for position, group in sorted(groups.items()):
        seats = sorted(group[0].seats.all(), key=lambda s: s.seat)
        entrants = [topcut.Entrant(s.cut_seed or 0, seat_of[s.player_id][0]) for s in seats]
        bracket.append(topcut.BracketMatch(position, entrants[0], entrants[1] if len(entrants) > 1 else None))
        won: dict[int, int] = {}
        for match in group:
            player = _seat_winner(match)
            if player is not None:
                won[seat_of[player][0]] = won.get(seat_of[player][0], 0) + 1
        ordered = sorted(won.items(), key=lambda kv: -kv[1])
        decided = ordered and (len(ordered) == 1 or ordered[0][1] > ordered[1][1])
        winners[position] = ordered[0][0] if decided else None
    return bracket, winners


def team_cut_advance(tournament: Tournament, latest: Round, by: Any) -> Round:
    bracket, winners = team_bracket(tournament, latest)
    if any(w is None for w in winners.values()):
        raise StateConflict(_("A top cut team match needs a winning team: correct the seat results."))
    if len(bracket) == 1:
        raise StateConflict(_("The final is played: finish the event."))
    _seat_of, members = _membership(tournament)
    following = topcut.advance(bracket, {k: v for k, v in winners.items() if v is not None})
    return create_team_cut_round(tournament, latest.number + 1, following, by, members)


def team_final_decided(tournament: Tournament, latest: Round) -> bool:
    bracket, winners = team_bracket(tournament, latest)
    return len(bracket) == 1 and winners.get(0) is not None
