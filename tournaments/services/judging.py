"""Judge tools: the penalty log, per-table time extensions and judge calls from the players' phones.

- ``penalty_add(tournament=, by=, player=, round_number=, infraction=, penalty=, note="") -> Penalty`` —
  organizers (they act as the event's judges). A game loss is recorded as a game the opponent won in the
  player's match of that round while it is still being played; a match loss sets that match's result to the
  opponent's win (audited like any correction); a disqualification drops the player and gives them a match
  loss in a match not yet settled. A warning, or a loss in a match it cannot apply to (a bye, a pod, a game
  loss once the match is decided), is logged without changing a result — ``Penalty.match`` says which it was.
- ``penalty_counts(tournament) -> {player_id: {kind: n}}`` — for the organizer's pages.
- ``match_extend(match=, by=, minutes=) -> Match`` — organizers add 1–30 minutes for one table (cumulative).
- ``judge_call(match=, by=) -> JudgeCall`` — a player of the match (or an organizer); one open call per table.
- ``judge_call_answer(call=, by=) -> JudgeCall`` — organizers clear a call once a judge is at the table.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from config.api import StateConflict

from ..models import Game as MatchGame
from ..models import JudgeCall, Match, MatchSeat, Penalty, Player, ResultChange, Round, Tournament
from ..permissions import is_organizer, require_organizer
from .clock import whole_minutes
from .common import announce, game_rules, locked_match, wins_needed
from .drops import player_drop
from .results import match_correct_result, match_result_dict

MAX_EXTENSION_MINUTES = 30
OPEN = (Match.Status.PENDING, Match.Status.REPORTED, Match.Status.DISPUTED)


def _player_match(player: Player, round_: Round) -> Match | None:
    return Match.objects.filter(round=round_, seats__player=player).first()


def _opponent_seat(seats: list[MatchSeat], player: Player) -> MatchSeat | None:
    others = [s for s in seats if s.player_id != player.pk]
    return others[0] if len(seats) == 2 and len(others) == 1 else None


def _apply_game_loss(match: Match, player: Player, by: Any, reason: str) -> bool:
    """The opponent wins the next game of a match still being played; False when it cannot apply."""
    match, seats = locked_match(match)
    opponent = _opponent_seat(seats, player)
    if match.bye or opponent is None or match.status != Match.Status.PENDING:
        return False
    need = wins_needed(match.round.tournament, match.round)
    old = match_result_dict(match)
    games = list(match.games.order_by("number"))
    mine = next(s for s in seats if s.player_id == player.pk)
    MatchGame.objects.create(match=match, number=len(games) + 1, winner_seat=opponent.seat,
                             first_seat=_first_seat(match, games, default=mine.seat))  # fmt: skip
    opponent.wins += 1
    opponent.save(update_fields=["wins"])
    if opponent.wins >= need:
        now = timezone.now()
        match.status = Match.Status.FINAL
        match.reported_by = match.confirmed_by = by
        match.reported_at = now
        match.ended_by = "penalty"
    match.version += 1
    match.save(update_fields=["status", "reported_by", "reported_at", "confirmed_by", "ended_by", "version"])
    ResultChange.objects.create(match=match, changed_by=by, action="penalty", old=old,
                                new=match_result_dict(match), reason=reason[:300])  # fmt: skip
    return True


def _first_seat(match: Match, games: list[MatchGame], *, default: int) -> int:
    """Who "went first" in a game lost to a penalty: the seat the game's rule names for it (so the games the
    players save afterwards still follow the rule), else the penalized player's."""
    from ..engine import first_player

    policy = game_rules(match.round.tournament.game).first_player
    records = [first_player.GameRecord(winner=g.winner_seat, first_player=g.first_seat) for g in games]
    try:
        decision = first_player.next_decision(policy, (0, 1), records)
    except ValueError:
        return default
    return decision.player if decision.player is not None else default


def _apply_match_loss(match: Match, player: Player, by: Any, reason: str) -> bool:
    """The opponent wins the match (2-0, or 1-0 in best of one); False for a bye or a pod."""
    seats = list(match.seats.order_by("seat"))
    if match.bye or _opponent_seat(seats, player) is None:
        return False
    need = wins_needed(match.round.tournament, match.round)
    wins = [0 if s.player_id == player.pk else need for s in seats]
    match_correct_result(match=match, by=by, wins=wins, draws=0, reason=reason, action="penalty")
    return True


def _round_of(tournament: Tournament, number: Any) -> Round | None:
    if number in (None, ""):
        return tournament.round_set.order_by("-number").first()
    if isinstance(number, str) and number.strip().isdecimal():
        number = int(number.strip())
    if isinstance(number, bool) or not isinstance(number, int):
        raise ValidationError({"round": _("Give the round as its number.")})
    round_ = tournament.round_set.filter(number=number).first()
    if round_ is None:
        raise ValidationError({"round": _("This event has no round %(n)s.") % {"n": number}})
    return round_


@transaction.atomic
def penalty_add(
    *,
    tournament: Tournament,
    by: Any,
    player: Player,
    round_number: Any,
    infraction: str,
    penalty: str,
    note: str = "",
) -> Penalty:
    require_organizer(tournament, by)
    if player.tournament_id != tournament.pk:
        raise ValidationError({"player": _("This player is not in this event.")})
    if penalty not in Penalty.Kind.values:
        raise ValidationError(
            {"penalty": _("Choose one of: %(kinds)s.") % {"kinds": ", ".join(Penalty.Kind.values)}}
        )
    infraction = (infraction or "").strip()
    if not infraction:
        raise ValidationError({"infraction": _("Name the infraction.")})
    if len(infraction) > 120 or len(note or "") > 500:
        raise ValidationError(_("The infraction is at most 120 characters and the note at most 500."))
    round_ = _round_of(tournament, round_number)
    if penalty != Penalty.Kind.WARNING and tournament.status == Tournament.Status.FINISHED:
        raise StateConflict(_("The event is over: only a warning can still be logged."))
    reason = _("Penalty (%(penalty)s): %(infraction)s") % {
        "penalty": Penalty.Kind(penalty).label,
        "infraction": infraction,
    }
    match = _player_match(player, round_) if round_ is not None else None
    applied = False
    if match is not None and penalty == Penalty.Kind.GAME_LOSS:
        applied = _apply_game_loss(match, player, by, reason)
    elif match is not None and penalty == Penalty.Kind.MATCH_LOSS:
        applied = _apply_match_loss(match, player, by, reason)
    elif penalty == Penalty.Kind.DISQUALIFICATION:
        if match is not None and match.status in OPEN:
            applied = _apply_match_loss(match, player, by, reason)
        if player.dropped_at_round is None:
            player_drop(player=player, by=by)
    row = Penalty.objects.create(tournament=tournament, player=player, round=round_, infraction=infraction,
                                 penalty=penalty, note=(note or "").strip(), judge=by,
                                 match=match if applied else None)  # fmt: skip
    announce(tournament.pk, "penalty")
    return row


def penalty_counts(tournament: Tournament) -> dict[int, dict[str, int]]:
    counts: dict[int, dict[str, int]] = {}
    for pid, kind, n in (
        Penalty.objects.filter(tournament=tournament)
        .values_list("player_id", "penalty")
        .annotate(n=Count("id"))
    ):
        counts.setdefault(pid, {})[kind] = n
    return counts


@transaction.atomic
def match_extend(*, match: Match, by: Any, minutes: Any) -> Match:
    match, _seats = locked_match(match)
    require_organizer(match.round.tournament, by)
    minutes = whole_minutes(minutes, low=1, high=MAX_EXTENSION_MINUTES)
    if match.bye:
        raise StateConflict(_("A bye has no time to extend."))
    if match.status not in OPEN:
        raise StateConflict(_("This match is already settled; it needs no more time."))
    if match.extra_minutes + minutes > 255:
        raise StateConflict({"minutes": _("This table already has all the extra time it can get.")})
    match.extra_minutes += minutes
    match.save(update_fields=["extra_minutes"])
    # "timer": the projector's clock lists the tables with extra time.
    announce(match.round.tournament_id, "timer")
    return match


@transaction.atomic
def judge_call(*, match: Match, by: Any) -> JudgeCall:
    match, seats = locked_match(match)
    tournament = match.round.tournament
    me = next(
        (s.player for s in seats if by is not None and s.player.user_id == getattr(by, "id", None)), None
    )
    if me is None and not is_organizer(tournament, by):
        raise PermissionDenied(_("Only the players at this table can call a judge to it."))
    if tournament.status == Tournament.Status.FINISHED:
        raise StateConflict(_("The event is over."))
    open_call = match.judge_calls.filter(answered_at__isnull=True).first()
    if open_call is not None:
        return open_call  # a second tap while waiting is the same call
    call = JudgeCall.objects.create(match=match, player=me)
    # Bumps the match's players' pages too (their fingerprint counts the table's open calls).
    announce(tournament.pk, "judge_call")
    return call


@transaction.atomic
def judge_call_answer(*, call: JudgeCall, by: Any) -> JudgeCall:
    call = JudgeCall.objects.select_for_update().select_related("match__round__tournament").get(pk=call.pk)
    require_organizer(call.match.round.tournament, by)
    if call.answered_at is None:
        call.answered_at = timezone.now()
        call.answered_by = by
        call.save(update_fields=["answered_at", "answered_by"])
        announce(call.match.round.tournament_id, "judge_call")
    return call
