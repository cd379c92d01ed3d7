"""Top cut and the end of the event.

- ``topcut_start(tournament=, by=) -> Round`` — seeds the bracket from the Swiss standings (1–8, 4–5, 2–7 …).
- ``topcut_advance(tournament=, by=) -> Round`` — pairs the next bracket round from the winners; refused
  after the final (then ``tournament_finish``). Cut matches are best of three and never end in a draw.
- ``tournament_finish(tournament=, by=)`` — the explicit end: after the last Swiss round, or after the final.
- ``match_winner(match) -> player id | None``, ``bracket_of(round_)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from config.api import StateConflict

from ..engine import topcut
from ..models import Match, MatchSeat, Round, Tournament
from ..permissions import require_organizer
from ..reads import records
from .common import announce


@transaction.atomic
def topcut_start(*, tournament: Tournament, by: Any) -> Round:
    """Seed a single-elimination bracket from the Swiss standings (1–8, 4–5, 2–7, 3–6 …)."""
    require_organizer(tournament, by)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.RUNNING or not tournament.top_cut:
        raise StateConflict(_("This event has no top cut to start now."))
    latest = tournament.round_set.order_by("-number").first()
    if latest is None or latest.number < (tournament.rounds or 0) or not records.round_complete(latest):
        raise StateConflict(_("Finish every Swiss round first."))
    if tournament.team_size > 1:
        # A bracket of teams (services/team_cut.py), seeded from the team standings.
        from .team_cut import team_cut_start

        round_ = team_cut_start(tournament, latest, by)
        tournament.status = Tournament.Status.TOP_CUT
        tournament.save(update_fields=["status"])
        announce(tournament.pk, "top_cut")
        return round_
    rows = records.compute_rows(records.load_history(tournament), tournament.tiebreakers)
    last_phase = tournament.phases.order_by("-number").first()
    if last_phase is not None and last_phase.entrants is not None:
        # Only the last Swiss phase's players can make the cut (day 2 players, not those cut before it).
        rows = [row for row in rows if row.player_id in set(last_phase.entrants)]
    if sum(1 for row in rows if not row.dropped) < 2:
        raise StateConflict(_("Not enough players for a top cut."))
    bracket = topcut.first_round(topcut.entrants_from_standings(rows, tournament.top_cut))
    tournament.status = Tournament.Status.TOP_CUT
    tournament.save(update_fields=["status"])
    round_ = _create_cut_round(tournament, latest.number + 1, bracket, by)
    announce(tournament.pk, "top_cut")
    return round_


def _create_cut_round(tournament: Tournament, number: int, bracket: Sequence[Any], by: Any) -> Round:
    round_ = Round.objects.create(
        tournament=tournament, number=number, kind=Round.Kind.TOP_CUT, seed=tournament.seed, paired_by=by
    )
    matches = _bulk_create_matches(
        [
            Match(
                round=round_,
                table=bm.position + 1,
                bye=bm.is_bye,
                chooser_id=bm.chooser.player_id,
                status=Match.Status.FINAL if bm.is_bye else Match.Status.PENDING,
            )
            for bm in bracket
        ]
    )
    seats = []
    for match, bm in zip(matches, bracket, strict=True):
        seats.append(MatchSeat(match=match, player_id=bm.a.player_id, seat=0, cut_seed=bm.a.seed,
                               wins=2 if bm.is_bye else 0))  # fmt: skip
        if bm.b is not None:
            seats.append(MatchSeat(match=match, player_id=bm.b.player_id, seat=1, cut_seed=bm.b.seed))
    MatchSeat.objects.bulk_create(seats)
    return round_


def _bulk_create_matches(matches: list[Match]) -> list[Match]:
    from django.db import connection

    if connection.features.can_return_rows_from_bulk_insert:
        return Match.objects.bulk_create(matches, batch_size=500)
    Match.objects.bulk_create(matches, batch_size=500)
    by_table = {m.table: m for m in Match.objects.filter(round=matches[0].round)} if matches else {}
    return [by_table[m.table] for m in matches]


def match_winner(match: Match) -> int | None:
    seats = list(match.seats.all())
    if match.bye:
        return seats[0].player_id
    if len(seats) == 2 and seats[0].wins != seats[1].wins:
        return seats[0].player_id if seats[0].wins > seats[1].wins else seats[1].player_id
    return None


def bracket_of(round_: Round) -> list[Any]:
    """The stored bracket round as ``topcut.BracketMatch`` values."""
    bracket = []
    for match in round_.matches.prefetch_related("seats").order_by("table"):
        seats = sorted(match.seats.all(), key=lambda s: s.seat)
        entrants = [topcut.Entrant(s.cut_seed or 0, s.player_id) for s in seats]
        bracket.append(
            topcut.BracketMatch(match.table - 1, entrants[0], entrants[1] if len(entrants) > 1 else None)
        )
    return bracket


@transaction.atomic
def topcut_advance(*, tournament: Tournament, by: Any) -> Round:
    """Pair the next bracket round from the winners (after the final: ``tournament_finish``)."""
    require_organizer(tournament, by)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.TOP_CUT:
        raise StateConflict(_("The top cut is not running."))
    latest = tournament.round_set.order_by("-number").first()
    if latest is None or latest.kind != Round.Kind.TOP_CUT:
        raise StateConflict(_("The top cut is not running."))
    if not records.round_complete(latest):
        raise ValidationError(_("Every top cut match needs a confirmed result first."))
    if tournament.team_size > 1:
        from .team_cut import team_cut_advance

        round_ = team_cut_advance(tournament, latest, by)
        announce(tournament.pk, "top_cut")
        return round_
    matches = list(latest.matches.prefetch_related("seats").order_by("table"))
    winners = {m.table - 1: match_winner(m) for m in matches}
    if any(w is None for w in winners.values()):
        raise ValidationError(_("Top cut matches cannot end in a draw; correct the result."))
    if len(matches) == 1:
        raise ValidationError(_("The final is played: finish the event."))
    bracket = topcut.advance(bracket_of(latest), {k: v for k, v in winners.items() if v is not None})
    round_ = _create_cut_round(tournament, latest.number + 1, bracket, by)
    announce(tournament.pk, "top_cut")
    return round_


@transaction.atomic
def tournament_finish(*, tournament: Tournament, by: Any) -> Tournament:
    """End the event: after the last Swiss round (events without a cut) or after the final of the cut."""
    require_organizer(tournament, by)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise StateConflict(_("The event is already finished."))
    latest = tournament.round_set.order_by("-number").first()
    if latest is None:
        raise StateConflict(_("No round has been played."))
    if not records.round_complete(latest):
        raise StateConflict(
            _("Round %(n)s still has matches without a confirmed result.") % {"n": latest.number}
        )
    if tournament.status == Tournament.Status.TOP_CUT and tournament.team_size > 1:
        from .team_cut import team_final_decided

        if latest.kind != Round.Kind.TOP_CUT or not team_final_decided(tournament, latest):
            raise ValidationError(_("Finish the top cut first: pair its next round."))
    elif tournament.status == Tournament.Status.TOP_CUT:
        final = list(latest.matches.prefetch_related("seats"))
        if latest.kind != Round.Kind.TOP_CUT or len(final) != 1 or match_winner(final[0]) is None:
            raise ValidationError(_("Finish the top cut first: pair its next round."))
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    announce(tournament.pk, "finish")
    return tournament


def was_in_top_cut(tournament: Tournament, player_id: int) -> bool:
    """Whether the player played a match of the event's top cut."""
    return Match.objects.filter(
        round__tournament=tournament, round__kind=Round.Kind.TOP_CUT, seats__player_id=player_id
    ).exists()
