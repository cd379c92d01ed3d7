"""The bridge between the database and the pure engines: an event's match history as plain data.

One query reads every seat of every reported match; pairing, standings and top cut are then computed
in memory by the pure modules. That keeps a 4,096-player round to a handful of queries.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from ..models import Match, MatchSeat, Player, Round, Tournament
from .team_records import two_headed_partners, two_headed_records

RESULT_STATUSES = (Match.Status.REPORTED, Match.Status.CONFIRMED, Match.Status.DISPUTED, Match.Status.FINAL)
DONE_STATUSES = (Match.Status.CONFIRMED, Match.Status.FINAL)


@dataclass(slots=True)
class SeatRow:
    player_id: int
    seat: int
    wins: int
    place: int | None
    score: int | None
    tiebreak: int | None
    paired_down: bool


@dataclass(slots=True)
class MatchRow:
    id: int
    round_number: int
    kind: str
    table: int
    bye: bool
    status: str
    draws: int
    seats: list[SeatRow] = field(default_factory=list)

    @property
    def has_result(self) -> bool:
        return self.status in RESULT_STATUSES


@dataclass(slots=True)
class PlayerRow:
    id: int
    name: str
    user_id: int | None
    joined_round: int
    dropped_at_round: int | None


@dataclass(slots=True)
class History:
    players: dict[int, PlayerRow]
    matches: list[MatchRow]
    swiss_rounds_played: int
    late_entry_losses: bool
    # Pods: the game's largest pod, the scale of placement points (see tournaments/engine/standings.py).
    pod_scale: int = 0
    # Two-Headed Giant: seat A's player id -> seat B's, who shares every game seated on seat A (team_records.py).
    partners: dict[int, int] = field(default_factory=dict)

    def active_for_round(self, number: int) -> list[PlayerRow]:
        return [
            p
            for p in self.players.values()
            if p.joined_round <= number and (p.dropped_at_round is None or p.dropped_at_round >= number)
        ]


def load_history(tournament: Tournament, *, kind: str | None = Round.Kind.SWISS) -> History:
    # A pairing or a result may commit between two of these reads (the standings page is read while the
    # organizer pairs). Each seat therefore comes with its own match in one statement, so no seat can name
    # a match this read did not see; the players are read after the seats, so every seated player is known,
    # and the rounds played before them, so no round is counted whose matches were not read.
    swiss_played = (
        tournament.round_set.filter(kind=Round.Kind.SWISS)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    )
    seat_qs = MatchSeat.objects.filter(match__round__tournament=tournament)
    if kind is not None:
        seat_qs = seat_qs.filter(match__round__kind=kind)
    matches: dict[int, MatchRow] = {}
    seat_columns = ("player_id", "seat", "wins", "place", "score", "tiebreak", "paired_down")
    match_columns = ("match_id", "match__round__number", "match__round__kind", "match__table", "match__bye")
    match_columns += ("match__status", "match__draws")
    for row in seat_qs.values_list(*match_columns, *seat_columns):
        mid = row[0]
        match = matches.get(mid)
        if match is None:
            match = matches[mid] = MatchRow(*row[:7])
        match.seats.append(SeatRow(*row[7:]))
    players = {
        pid: PlayerRow(pid, name, uid, joined, dropped)
        # Waitlisted entries never had a place: not paired, not in the standings.
        for pid, name, uid, joined, dropped in Player.objects.filter(
            tournament=tournament, waitlisted=False
        ).values_list("id", "name", "user_id", "joined_round", "dropped_at_round")
    }
    ordered = sorted(matches.values(), key=lambda m: (m.round_number, m.table))
    for m in ordered:
        m.seats.sort(key=lambda s: s.seat)
    pod_scale = 0
    if tournament.match_format == Tournament.MatchFormat.PODS:
        from ..services.common import game_rules, pod_size_range

        pod_scale = pod_size_range(game_rules(tournament.game))[1]
    partners = two_headed_partners(tournament) if tournament.team_mode == "2hg" else {}
    return History(players, ordered, swiss_played, tournament.late_entry_losses, pod_scale, partners)


def standing_inputs(history: History) -> tuple[list[Any], list[Any]]:
    """Players and match records for ``tournaments.engine.standings.compute_standings``."""
    from ..engine.standings import MatchRecord, StandingPlayer

    # MTR 2.10: a player who drops before round 1 (a no-show included) played nothing and is not listed.
    listed = [p for p in history.players.values() if p.dropped_at_round != 0]
    players = [StandingPlayer(p.id, p.name, p.dropped_at_round is not None) for p in listed]
    records: list[Any] = []
    for m in history.matches:
        if not m.has_result:
            continue
        ids = tuple(s.player_id for s in m.seats)
        if m.bye:
            records.append(MatchRecord(m.round_number, ids, (2,), 0, is_bye=True))
        elif len(ids) == 2 and all(s.place is None for s in m.seats):
            wins = tuple(s.wins for s in m.seats)
            records.append(
                MatchRecord(
                    m.round_number, ids, wins, m.draws, intentional_draw=wins == (0, 0) and m.draws == 3
                )
            )
        else:
            places = tuple(s.place or len(ids) for s in m.seats)
            values = tuple(tuple(v for v in (s.score, s.tiebreak) if v is not None) or (0,) for s in m.seats)
            records.append(MatchRecord(m.round_number, ids, places=places, tiebreak_values=values))
    records.extend(two_headed_records(records, history.partners))
    if history.late_entry_losses:
        # A late entry gets a match loss (0-2, no opponent) for every Swiss round played before joining.
        for p in listed:
            for number in range(1, min(p.joined_round, history.swiss_rounds_played + 1)):
                records.append(MatchRecord(number, (p.id,), (0,), missed=True))
    return players, records


def compute_rows(history: History, policy: str) -> list[Any]:
    from ..engine.standings import compute_standings

    players, records = standing_inputs(history)
    return compute_standings(players, records, policy, pod_scale=history.pod_scale or None)


def opponents_by_player(history: History) -> dict[int, set[int]]:
    opponents: dict[int, set[int]] = defaultdict(set)
    for m in history.matches:
        ids = [s.player_id for s in m.seats]
        for pid in ids:
            opponents[pid].update(x for x in ids if x != pid)
    return opponents


def byes_by_player(history: History) -> set[int]:
    return {m.seats[0].player_id for m in history.matches if m.bye}


def pair_downs_by_player(history: History) -> dict[int, int]:
    counts: dict[int, int] = defaultdict(int)
    for m in history.matches:
        for s in m.seats:
            if s.paired_down:
                counts[s.player_id] += 1
    return counts


def current_round(tournament: Tournament) -> Round | None:
    return tournament.round_set.order_by("-number").first()


def round_complete(round_: Round) -> bool:
    return not round_.matches.exclude(status__in=DONE_STATUSES).exists()
