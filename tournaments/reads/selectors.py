"""Reads for tournaments: standings, rounds with their matches, lists visible to a user."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from ..models import Match, MatchSeat, Player, ResultChange, Round, Tournament
from ..permissions import can_see_decklist
from . import records
from .cut_stages import STAGE_ORDER, stage_name

TIEBREAK_KEYS = {
    "mtg": ("omw", "gw", "ogw"),
    "yugioh": ("omw", "oomw"),
    "pokemon": ("owp", "oowp"),
    "pods": ("tiebreak", "tiebreak2", "opp"),
}
# Raw totals rather than fractions: shown as numbers, not percentages.
RAW_TIEBREAKS = {"tiebreak", "tiebreak2", "opp"}


def tournament_list(*, user: Any = None) -> QuerySet[Tournament]:
    return (
        Tournament.objects.select_related("game", "created_by")
        .annotate(player_count=Count("players", distinct=True))
        .order_by("-created_at", "-id")
    )


def standings_compute(*, tournament: Tournament) -> list[dict[str, Any]]:
    """Standings as the API shape: rank, player, name, points, W/L/D, dropped, tiebreakers (0–1), top_cut.

    Once a top cut is played, the players of the cut come first, ordered by how far each went (winner,
    finalist, semifinal losers, …) and within a stage by Swiss rank; everyone else follows by Swiss rank.
    ``swiss_rank`` keeps the Swiss position, ``top_cut`` names the stage (None outside the cut).
    """
    history = records.load_history(tournament)
    rows = records.compute_rows(history, tournament.tiebreakers)
    keys = TIEBREAK_KEYS.get(tournament.tiebreakers, ())
    stages = top_cut_stages(tournament)
    body = [
        {
            "rank": row.rank,
            "swiss_rank": row.rank,
            "player": row.player_id,
            "name": row.name,
            "points": row.points,
            "wins": row.wins,
            "losses": row.losses,
            "draws": row.draws,
            "dropped": row.dropped,
            "tiebreakers": {k: round(row.tiebreakers.get(k, 0.0), 6) for k in keys if k in row.tiebreakers}
            or dict(row.tiebreakers),
            "top_cut": stages.get(row.player_id),
        }
        for row in rows
    ]
    if not stages:
        return body
    body.sort(key=lambda r: (STAGE_ORDER.get(r["top_cut"], len(STAGE_ORDER)), r["swiss_rank"]))
    for position, row in enumerate(body, start=1):
        row["rank"] = position
    return body


def top_cut_stages(tournament: Tournament) -> dict[int, str]:
    """How far each player of the top cut went: ``{player_id: "winner" | "final" | "semifinal" | …}``.

    Two queries: the cut's seats with their match and round. A player still in the cut has the stage of
    the round they are playing; the winner of a decided final is "winner".
    """
    if tournament.team_size > 1:
        # A bracket of teams: every member has their team's stage (tournaments/reads/teams.py).
        from .teams import team_cut_stages

        return team_cut_stages(tournament)
    rows = list(
        MatchSeat.objects.filter(match__round__tournament=tournament, match__round__kind=Round.Kind.TOP_CUT)
        .order_by("match__round__number")
        .values_list("player_id", "wins", "match_id", "match__round__number", "match__bye", "match__status")
    )
    if not rows:
        return {}
    per_round: dict[int, set[int]] = {}
    by_match: dict[int, list[tuple[int, int]]] = {}
    for pid, wins, mid, number, _bye, _status in rows:
        per_round.setdefault(number, set()).add(mid)
        by_match.setdefault(mid, []).append((pid, wins))
    stages: dict[int, str] = {}
    for pid, _wins, _mid, number, _bye, _status in rows:
        stages[pid] = stage_name(len(per_round[number]))  # later rounds overwrite earlier ones
    final_round = max(per_round)
    if len(per_round[final_round]) == 1:
        (mid,) = per_round[final_round]
        status = next(r[5] for r in rows if r[2] == mid)
        seats = by_match[mid]
        if status in records.DONE_STATUSES and len(seats) == 2 and seats[0][1] != seats[1][1]:
            stages[max(seats, key=lambda s: s[1])[0]] = "winner"
    return stages


def standings_columns(tournament: Tournament) -> list[tuple[str, str]]:
    """The tiebreak columns of the standings as ``(key, words)`` in the reader's language, per game."""
    from ..services.result_rules import pod_value_labels

    if tournament.tiebreakers == Tournament.Tiebreakers.PODS:
        score, tiebreak = pod_value_labels(tournament.game.slug)
        columns = [("tiebreak", str(score))]
        if tiebreak is not None:
            columns.append(("tiebreak2", str(tiebreak)))
        return [*columns, ("opp", gettext("Opponents' points"))]
    names = {
        "omw": gettext("Opponents' match-win %"),
        "gw": gettext("Game-win %"),
        "ogw": gettext("Opponents' game-win %"),
        "oomw": gettext("Opponents' opponents' match-win %"),
        "owp": gettext("Opponents' win %"),
        "oowp": gettext("Opponents' opponents' win %"),
    }
    return [(key, names[key]) for key in TIEBREAK_KEYS.get(tournament.tiebreakers, ())]


def tiebreak_for_people(key: str, value: float) -> str:
    """Percentages with one decimal for fractions; totals as whole numbers; averages with one decimal."""
    if key in RAW_TIEBREAKS:
        return str(int(value)) if float(value).is_integer() else f"{value:.1f}"
    return f"{100 * value:.1f}%"


def round_with_matches(*, round_: Round) -> list[Match]:
    return list(
        round_.matches.prefetch_related(
            Prefetch("seats", MatchSeat.objects.select_related("player").order_by("seat")),
            "games",
        ).order_by("table")
    )


def round_seat_names(*, round_: Round) -> list[tuple[int, int, bool, int, str]]:
    """(match id, table, bye, player id, player name) of every seat of a round, by table and seat."""
    return list(
        MatchSeat.objects.filter(match__round=round_)
        .order_by("match__table", "match_id", "seat")
        .values_list("match_id", "match__table", "match__bye", "player_id", "player__name")
    )


@dataclass(frozen=True, slots=True)
class TimerState:
    ends_at: datetime | None
    seconds_left: int | None
    expired: bool


def round_timer(round_: Round, now: datetime | None = None) -> TimerState:
    if round_.timer_ends_at is None:
        return TimerState(None, None, False)
    now = now or timezone.now()
    left = int((round_.timer_ends_at - now).total_seconds())
    return TimerState(round_.timer_ends_at, max(left, 0), left <= 0)


def overtime_matches(round_: Round, now: datetime | None = None) -> set[int]:
    """Ids of unfinished matches of a round whose time has run out (flagged for the organizer); a table a
    judge gave extra time to runs out that much later."""
    if not round_timer(round_, now).expired:
        return set()
    now = now or timezone.now()
    ends = round_.timer_ends_at
    return {
        pk
        for pk, extra in round_.matches.filter(
            status__in=[Match.Status.PENDING, Match.Status.REPORTED, Match.Status.DISPUTED]
        ).values_list("id", "extra_minutes")
        if ends is not None and ends + timedelta(minutes=extra) <= now
    }


def table_extensions(round_: Round | None) -> list[dict[str, Any]]:
    """Tables of a round with a judge's extra time and no settled result: table, minutes, their own end."""
    if round_ is None:
        return []
    rows = round_.matches.filter(
        extra_minutes__gt=0, status__in=[Match.Status.PENDING, Match.Status.REPORTED, Match.Status.DISPUTED]
    ).order_by("table")
    ends = round_.timer_ends_at
    return [
        {"table": m.table, "minutes": m.extra_minutes,
         "ends_at": ends + timedelta(minutes=m.extra_minutes) if ends is not None else None}
        for m in rows
    ]  # fmt: skip


def attention_matches(tournament: Tournament, now: datetime | None = None) -> list[Match]:
    """The organizer's to-do list: disputed results of any round, reported-but-unconfirmed ones, and late
    ones (no result yet although the round timer — and the table's extra time — has run out)."""
    now = now or timezone.now()
    late = Q(status=Match.Status.PENDING, bye=False, round__timer_ends_at__lte=now)
    rows = (
        Match.objects.filter(round__tournament=tournament)
        .filter(Q(status=Match.Status.DISPUTED) | Q(status=Match.Status.REPORTED) | late)
        .select_related("round")
        .prefetch_related(Prefetch("seats", MatchSeat.objects.select_related("player").order_by("seat")))
        .order_by("round__number", "table")
    )
    return [
        m
        for m in rows
        if m.status != Match.Status.PENDING
        or (
            m.round.timer_ends_at is not None
            and m.round.timer_ends_at + timedelta(minutes=m.extra_minutes) <= now
        )
    ]


def player_matches(player: Player) -> QuerySet[Match]:
    return (
        Match.objects.filter(seats__player=player)
        .select_related("round")
        .prefetch_related(
            Prefetch("seats", MatchSeat.objects.select_related("player").order_by("seat")), "games"
        )
        .order_by("round__number")
    )


def match_audit(match: Match) -> QuerySet[ResultChange]:
    return match.result_changes.select_related("changed_by").order_by("changed_at", "id")


def visible_decklists(tournament: Tournament, user: Any) -> list[Player]:
    """The lists ``user`` may read now, player by player (permissions.decklist_level decides)."""
    players = list(tournament.players.order_by("name", "id"))
    return [p for p in players if can_see_decklist(tournament, p, user)]


def top_cut_rounds(tournament: Tournament) -> list[tuple[Round, list[Match]]]:
    return [
        (r, round_with_matches(round_=r))
        for r in tournament.round_set.filter(kind=Round.Kind.TOP_CUT).order_by("number")
    ]


def tournament_champion(tournament: Tournament) -> Player | None:
    if tournament.status != Tournament.Status.FINISHED:
        return None
    last = tournament.round_set.filter(kind=Round.Kind.TOP_CUT).order_by("-number").first()
    if last is None:
        rows = standings_compute(tournament=tournament)
        return tournament.players.filter(pk=rows[0]["player"]).first() if rows else None
    from ..services import match_winner

    match = last.matches.prefetch_related("seats").first()
    winner = match_winner(match) if match else None
    return tournament.players.filter(pk=winner).first() if winner else None


# The organizer's round dashboard shows what needs them first.
OUTSTANDING_ORDER = {
    Match.Status.DISPUTED: 0,
    Match.Status.REPORTED: 1,
    Match.Status.PENDING: 2,
    Match.Status.CONFIRMED: 3,
    Match.Status.FINAL: 3,
}


@dataclass(frozen=True, slots=True)
class DashboardRow:
    match: Match
    outstanding: bool
    overtime: bool
    dispute_reason: str


def round_dashboard(*, round_: Round, now: datetime | None = None) -> list[DashboardRow]:
    """A round's matches for its organizer: disputes (with their reason), then reported results waiting for
    confirmation, then unplayed matches (flagged ``overtime`` once the round clock ran out), then the done."""
    expired = round_timer(round_, now).expired
    rows = []
    for match in round_with_matches(round_=round_):
        outstanding = match.status not in records.DONE_STATUSES
        rows.append(
            DashboardRow(match, outstanding, expired and outstanding and not match.bye, match.dispute_reason)
        )
    rows.sort(key=lambda r: (OUTSTANDING_ORDER.get(r.match.status, 3), r.match.table))
    return rows


def match_payload(match: Match) -> dict[str, Any]:
    """One match for ``MatchOutSerializer``: never anything private (sideboard swaps stay out)."""
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    by_seat = {s.seat: s.player_id for s in seats}
    data: dict[str, Any] = {
        "id": match.pk,
        "round": match.round.number,
        "table": match.table,
        "players": [s.player_id for s in seats],
        "bye": match.bye,
        "status": match.status,
        "version": match.version,
        "ended_by": match.ended_by,
        "dispute_reason": match.dispute_reason,
        "extra_minutes": match.extra_minutes,
        "judge_called": match.judge_calls.filter(answered_at__isnull=True).exists(),
        "games": [
            {
                "number": g.number,
                "first": by_seat.get(g.first_seat),
                "winner": by_seat.get(g.winner_seat) if g.winner_seat is not None else None,
                "chooser": by_seat.get(g.chooser_seat) if g.chooser_seat is not None else None,
            }
            for g in sorted(match.games.all(), key=lambda g: g.number)
        ],
    }
    pod = any(s.place is not None for s in seats) and not match.bye
    if pod:
        data["places"] = [
            {"player": s.player_id, "place": s.place, "score": s.score, "tiebreak": s.tiebreak} for s in seats
        ]
    elif match.status != Match.Status.PENDING or data["games"]:
        data["wins"] = [s.wins for s in seats]
        data["draws"] = match.draws
    if len(seats) == 2 and not pod and match.status == Match.Status.PENDING:
        from ..services import next_first_player

        decision = next_first_player(match)
        data["next_first"] = {
            "toss": decision.toss,
            "player": decision.player,
            "action": str(decision.action),
        }
    return data


def match_for_api(pk: int) -> Match:
    return (
        Match.objects.select_related("round__tournament__game")
        .prefetch_related(Prefetch("seats", MatchSeat.objects.order_by("seat")), "games")
        .get(pk=pk)
    )


def round_payload(round_: Round) -> dict[str, Any]:
    """A round for ``RoundOutSerializer`` from plain values: two queries for any size of round."""
    players: dict[int, list[int]] = {}
    wins: dict[int, list[int]] = {}
    for mid, pid, w in (
        MatchSeat.objects.filter(match__round=round_)
        .order_by("match_id", "seat")
        .values_list("match_id", "player_id", "wins")
    ):
        players.setdefault(mid, []).append(pid)
        wins.setdefault(mid, []).append(w)
    body = []
    for mid, table, bye, state, draws in round_.matches.order_by("table").values_list(
        "id", "table", "bye", "status", "draws"
    ):
        item: dict[str, Any] = {
            "id": mid,
            "table": table,
            "players": players.get(mid, []),
            "bye": bye,
            "status": state,
        }
        if state != Match.Status.PENDING:
            item["wins"] = wins.get(mid, [])
            item["draws"] = draws
        body.append(item)
    round_.match_count = len(body)
    return {
        "number": round_.number,
        "kind": round_.kind,
        "stage": str(round_.stage),
        "seed": round_.seed,
        "timer_ends_at": round_.timer_ends_at,
        "draft": round_.draft,
        "matches": body,
    }


def final_places(tournament: Tournament) -> dict[int, int]:
    """``{player_id: place}`` once the event is finished (the final standings' order), else empty."""
    if tournament.status != Tournament.Status.FINISHED:
        return {}
    return {row["player"]: row["rank"] for row in standings_compute(tournament=tournament)}


def players_listing(tournament: Tournament) -> tuple[list[Player], dict[str, Any]]:
    """The entries in the API's order with what their JSON needs beyond the rows (final places, waitlist
    positions), read in a fixed number of queries."""
    players = list(tournament.players.select_related("user").order_by("name", "id"))
    line = sorted(p.pk for p in players if p.waitlisted and p.dropped_at_round is None)
    return players, {"places": final_places(tournament), "waitlist": {pk: i for i, pk in enumerate(line, 1)}}


def entry_changes(tournament: Tournament, limit: int = 100) -> list[dict[str, Any]]:
    """The latest audited changes of the event's entries (links, claims, late entries, promotions, renames,
    check-ins marked, drops undone), newest first, with the action in words."""
    from ..models import EntryChange
    from .history import action_text

    rows = (
        EntryChange.objects.filter(player__tournament=tournament)
        .select_related("player", "changed_by")
        .order_by("-changed_at", "-id")[:limit]
    )
    return [
        {"change": c, "action": action_text(c.action),
         "username": (c.new or {}).get("username") if isinstance(c.new, dict) else None}
        for c in rows
    ]  # fmt: skip
