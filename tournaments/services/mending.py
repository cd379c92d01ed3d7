"""Mending one match instead of re-pairing the whole round, while the round has no results yet.

- ``pairing_swap(round_=, by=, player_a=, player_b=)`` — the two players change places (and opponents).
- ``pairing_pair(round_=, by=, player_a=, player_b=)`` — the two play each other; their former opponents
  play each other (or get the bye one of them held).
- ``pairing_bye(round_=, by=, player=)`` — a bye (a 2-0 win) by hand; the opponent left alone plays whoever
  held the round's bye, else gets a bye too.
- ``pairing_loss(round_=, by=, player=)`` — a match loss by hand (the opponent wins 2-0, or 1-0 in best of
  one); a result, audited like any correction.
- ``round_publish(round_=, by=)`` — a round paired as a draft (``Tournament.draft_pairings``) becomes visible to
  players, phones and the projector; until then only the organizers see it (and may mend it).
- ``player_fix_table(player=, by=, table=)`` — accessibility: the player always sits at ``table`` (None
  clears it); ``tables_honour_fixed`` renumbers a round's tables around such players at every pairing.

Organizers only; swap, pair and bye only on the latest Swiss round before any of its matches has a result or
a saved game (byes aside). Each change leaves a ``PairingChange`` row (who, when, what, in plain values) for
the round's pairings report, and is announced to the live pages.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from config.api import StateConflict

from .. import signals
from ..models import Match, MatchSeat, PairingChange, Player, Round, Tournament
from ..permissions import require_organizer
from .common import announce, wins_needed
from .results import match_correct_result


def _locked_round(round_: Round, by: Any) -> Round:
    require_organizer(round_.tournament, by)
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if round_.kind != Round.Kind.SWISS:
        raise StateConflict(_("Only Swiss rounds can be mended; the top cut follows the seeds."))
    if round_.tournament.round_set.filter(number__gt=round_.number).exists():
        raise StateConflict(_("Only the latest round can be mended."))
    return round_


def _require_no_results(round_: Round) -> None:
    played = round_.matches.filter(bye=False).exclude(status=Match.Status.PENDING).exists()
    if played or round_.matches.filter(games__isnull=False).exists():
        raise StateConflict(
            _("Round %(n)s already has results; correct them instead of changing the pairings.")
            % {"n": round_.number}
        )


def _seat_of(round_: Round, player: Player) -> MatchSeat:
    if player.tournament_id != round_.tournament_id:
        raise ValidationError(_("%(name)s is not in this event.") % {"name": player.name})
    seat = MatchSeat.objects.select_related("match").filter(match__round=round_, player=player).first()
    if seat is None:
        raise StateConflict(
            _("%(name)s is not paired in round %(n)s.") % {"name": player.name, "n": round_.number}
        )
    return seat


def _opponent(seat: MatchSeat) -> MatchSeat | None:
    return MatchSeat.objects.select_related("player").filter(match=seat.match).exclude(pk=seat.pk).first()


def _two_player(round_: Round) -> None:
    if round_.tournament.match_format == Tournament.MatchFormat.PODS:
        raise StateConflict(_("Pods are mended by swapping players between them."))


def _audit(round_: Round, by: Any, kind: str, **detail: Any) -> PairingChange:
    change = PairingChange.objects.create(
        tournament_id=round_.tournament_id, round=round_, kind=kind, actor=by, detail=detail
    )
    announce(round_.tournament_id, "pairings")
    return change


def _exchange(a: MatchSeat, b: MatchSeat) -> None:
    """The two seats' players change places (a seat keeps its match, number and bye win)."""
    a.player_id, b.player_id = b.player_id, a.player_id
    a.paired_down = b.paired_down = False
    MatchSeat.objects.bulk_update([a, b], ["player", "paired_down"])


def _two_distinct(player_a: Player, player_b: Player) -> None:
    if player_a.pk == player_b.pk:
        raise ValidationError(_("Choose two different players."))


@transaction.atomic
def pairing_swap(*, round_: Round, by: Any, player_a: Player, player_b: Player) -> PairingChange:
    round_ = _locked_round(round_, by)
    _two_distinct(player_a, player_b)
    _require_no_results(round_)
    a, b = _seat_of(round_, player_a), _seat_of(round_, player_b)
    if a.match_id == b.match_id:
        raise StateConflict(_("%(a)s and %(b)s are already at the same table.")
                              % {"a": player_a.name, "b": player_b.name})  # fmt: skip
    tables = {"a": a.match.table, "b": b.match.table}
    _exchange(a, b)
    return _audit(round_, by, PairingChange.Kind.SWAP, players=[player_a.pk, player_b.pk],
                  names=[player_a.name, player_b.name], tables=[tables["a"], tables["b"]])  # fmt: skip


@transaction.atomic
def pairing_pair(*, round_: Round, by: Any, player_a: Player, player_b: Player) -> PairingChange:
    round_ = _locked_round(round_, by)
    _two_player(round_)
    _two_distinct(player_a, player_b)
    _require_no_results(round_)
    a, b = _seat_of(round_, player_a), _seat_of(round_, player_b)
    if a.match_id == b.match_id:
        raise StateConflict(_("%(a)s and %(b)s already play each other.")
                              % {"a": player_a.name, "b": player_b.name})  # fmt: skip
    x, y = _opponent(a), _opponent(b)
    if x is not None:
        _exchange(x, b)  # A's opponent takes B's place: A meets B at A's table
        table = a.match.table
    elif y is not None:
        _exchange(y, a)  # A held a bye: B's opponent takes it, A sits down with B
        table = b.match.table
    else:
        # Both held byes (given by hand): one table, a match to play.
        match = a.match
        b.match.delete()
        MatchSeat.objects.create(match=match, player=player_b, seat=1, wins=0)
        MatchSeat.objects.filter(pk=a.pk).update(wins=0)
        match.bye, match.status = False, Match.Status.PENDING
        match.save(update_fields=["bye", "status"])
        table = match.table
    return _audit(round_, by, PairingChange.Kind.PAIR, players=[player_a.pk, player_b.pk],
                  names=[player_a.name, player_b.name], table=table)  # fmt: skip


def _next_table(round_: Round) -> int:
    return (round_.matches.aggregate(top=Max("table"))["top"] or 0) + 1


@transaction.atomic
def pairing_bye(*, round_: Round, by: Any, player: Player) -> PairingChange:
    round_ = _locked_round(round_, by)
    _two_player(round_)
    _require_no_results(round_)
    seat = _seat_of(round_, player)
    if seat.match.bye:
        raise StateConflict(_("%(name)s already has a bye.") % {"name": player.name})
    left = seat.match
    opponent = _opponent(seat)
    seat.delete()
    Match.objects.filter(pk=left.pk).update(bye=True, status=Match.Status.FINAL)
    MatchSeat.objects.filter(match=left).update(seat=0, wins=2)
    bye = Match.objects.create(round=round_, table=_next_table(round_), bye=True, status=Match.Status.FINAL)
    MatchSeat.objects.create(match=bye, player=player, seat=0, wins=2)
    partner = None
    if opponent is not None:
        # The opponent left alone plays whoever held the round's bye, if anyone did.
        holder = (
            MatchSeat.objects.select_related("player", "match")
            .filter(match__round=round_, match__bye=True)
            .exclude(match__in=[left, bye])
            .order_by("match__table")
            .first()
        )
        if holder is not None:
            partner = holder.player
            holder.match.delete()
            MatchSeat.objects.filter(match=left).update(wins=0)
            MatchSeat.objects.create(match=left, player=partner, seat=1, wins=0)
            Match.objects.filter(pk=left.pk).update(bye=False, status=Match.Status.PENDING)
    return _audit(
        round_, by, PairingChange.Kind.BYE, players=[player.pk], names=[player.name],
        opponent=opponent.player.name if opponent else None, opponent_now_plays=partner.name if partner else None,
    )  # fmt: skip


@transaction.atomic
def pairing_loss(*, round_: Round, by: Any, player: Player, reason: str = "") -> PairingChange:
    round_ = _locked_round(round_, by)
    seat = _seat_of(round_, player)
    opponent = _opponent(seat)
    if seat.match.bye or opponent is None:
        raise StateConflict(
            _("%(name)s has no opponent to lose to; pair them first.") % {"name": player.name}
        )
    if seat.match.status != Match.Status.PENDING:
        raise StateConflict(_("This match already has a result; correct it instead."))
    need = wins_needed(round_.tournament, round_)
    wins = [0, need] if seat.seat == 0 else [need, 0]
    words = (reason or "").strip() or _("Match loss given by hand")
    match_correct_result(match=seat.match, by=by, wins=wins, draws=0, reason=words, action="match_loss")
    return _audit(round_, by, PairingChange.Kind.LOSS, players=[player.pk], names=[player.name],
                  table=seat.match.table, reason=words)  # fmt: skip


@transaction.atomic
def round_publish(*, round_: Round, by: Any) -> Round:
    require_organizer(round_.tournament, by)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if not round_.draft:
        raise StateConflict(_("Round %(n)s is already published.") % {"n": round_.number})
    round_.draft = False
    round_.save(update_fields=["draft"])
    signals.send_on_commit(
        signals.round_paired, tournament_id=round_.tournament_id, round_number=round_.number
    )
    announce(round_.tournament_id, "round")
    return round_


@transaction.atomic
def player_fix_table(*, player: Player, by: Any, table: Any) -> Player:
    tournament = player.tournament
    require_organizer(tournament, by)
    if table in ("", None):
        table = None
    else:
        if isinstance(table, str) and table.strip().isdecimal():
            table = int(table.strip())
        if isinstance(table, bool) or not isinstance(table, int) or not 1 <= table <= 10_000:
            raise ValidationError({"table": _("A table is a number from 1 to 10000.")})
        taken = tournament.players.filter(fixed_table=table).exclude(pk=player.pk).first()
        if taken is not None:
            raise ValidationError(
                {"table": _("Table %(t)s is already kept for %(name)s.") % {"t": table, "name": taken.name}}
            )
    old = player.fixed_table
    player.fixed_table = table
    player.save(update_fields=["fixed_table"])
    latest = tournament.round_set.order_by("-number").first()
    PairingChange.objects.create(tournament=tournament, round=latest, kind=PairingChange.Kind.FIXED_TABLE,
                                 actor=by, detail={"players": [player.pk], "names": [player.name],
                                                   "old": old, "new": table})  # fmt: skip
    if latest is not None and latest.kind == Round.Kind.SWISS:
        played = latest.matches.filter(bye=False).exclude(status=Match.Status.PENDING).exists()
        if not played and not latest.matches.filter(games__isnull=False).exists():
            tables_honour_fixed(latest)
    announce(tournament.pk, "pairings")
    return player


def tables_honour_fixed(round_: Round) -> None:
    """Give every match holding a player with a fixed table that table number (the match at it moves to
    the freed number). Players are served by id, so two fixed players at one match keep the first's."""
    matches = {m.pk: m for m in round_.matches.filter(bye=False)}
    wanted = (
        MatchSeat.objects.filter(match__round=round_, match__bye=False, player__fixed_table__isnull=False)
        .order_by("player_id")
        .values_list("match_id", "player__fixed_table")
    )
    settled: set[int] = set()
    for match_id, table in wanted:
        match = matches[match_id]
        if match_id in settled or match.table == table:
            settled.add(match_id)
            continue
        other = next((m for m in matches.values() if m.table == table), None)
        if other is not None and other.pk in settled:
            continue  # that table is already someone's fixed table
        if other is not None:
            other.table = match.table
            other.save(update_fields=["table"])
        match.table = table
        match.save(update_fields=["table"])
        settled.add(match_id)
