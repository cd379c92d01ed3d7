"""Reads for tournaments: standings, rounds with their matches, lists visible to a user."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone

from . import records
from .models import Match, MatchSeat, Player, ResultChange, Round, Tournament
from .permissions import is_organizer

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
    """Swiss standings as the API shape: rank, player, name, points, W/L/D, dropped, tiebreakers (0–1)."""
    history = records.load_history(tournament)
    rows = records.compute_rows(history, tournament.tiebreakers)
    keys = TIEBREAK_KEYS.get(tournament.tiebreakers, ())
    return [
        {
            "rank": row.rank,
            "player": row.player_id,
            "name": row.name,
            "points": row.points,
            "wins": row.wins,
            "losses": row.losses,
            "draws": row.draws,
            "dropped": row.dropped,
            "tiebreakers": {k: round(row.tiebreakers.get(k, 0.0), 6) for k in keys if k in row.tiebreakers}
            or dict(row.tiebreakers),
        }
        for row in rows
    ]


def round_with_matches(*, round_: Round) -> list[Match]:
    return list(
        round_.matches.prefetch_related(
            Prefetch("seats", MatchSeat.objects.select_related("player").order_by("seat")),
            "games",
        ).order_by("table")
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
    """Ids of unfinished matches of a round whose time has run out (flagged for the organizer)."""
    if not round_timer(round_, now).expired:
        return set()
    return set(
        round_.matches.filter(
            status__in=[Match.Status.PENDING, Match.Status.REPORTED, Match.Status.DISPUTED]
        ).values_list("id", flat=True)
    )


def attention_matches(tournament: Tournament, now: datetime | None = None) -> QuerySet[Match]:
    """The organizer's to-do list: disputed results of any round, reported-but-unconfirmed ones, and late
    ones (no result yet although the round timer has run out)."""
    late = Q(status=Match.Status.PENDING, bye=False, round__timer_ends_at__lte=now or timezone.now())
    return (
        Match.objects.filter(round__tournament=tournament)
        .filter(Q(status=Match.Status.DISPUTED) | Q(status=Match.Status.REPORTED) | late)
        .select_related("round")
        .prefetch_related(Prefetch("seats", MatchSeat.objects.select_related("player").order_by("seat")))
        .order_by("round__number", "table")
    )


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
    players = list(tournament.players.order_by("name", "id"))
    if is_organizer(tournament, user):
        return players
    if tournament.status == Tournament.Status.FINISHED and tournament.publish_decklists:
        return players
    return [p for p in players if user is not None and user.is_authenticated and p.user_id == user.id]


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
    from .services import match_winner

    match = last.matches.prefetch_related("seats").first()
    winner = match_winner(match) if match else None
    return tournament.players.filter(pk=winner).first() if winner else None
