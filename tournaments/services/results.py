"""Results: game by game, finishing early, report → confirm (of a named version) or dispute, corrections.

- ``match_save_game(match=, by=, number=, first=, winner=, chooser=None) -> Match`` — a player of the match
  (or an organizer) saves or replaces game ``number`` (``first``/``winner``/``chooser`` are player ids,
  ``winner`` None = drawn game, ``chooser`` who chose to go first or second — filled in when the rule
  determines it). The match stays ``pending`` until one side has the wins needed or its last game is played
  (1-1-1 in a best of three is a drawn match); then it is ``reported`` (``final`` when an organizer not
  playing it entered it). Games can be corrected until the result is confirmed.
- ``match_finish_early(match=, by=, how=, conceded_by=None)`` — ``how``: "time" (the games saved are the
  result), "concession" (``conceded_by`` loses the match), "intentional_draw" (0-0-3, MTR 2.4: at any point
  before the result is reported, games played or not; never in the top cut).
- ``match_report_result(match=, by=, wins=|games=|places=)`` — the whole result at once (also pods).
- ``match_confirm_result(match=, by=, version=None)`` — the opponent confirms; with ``version`` (what the
  confirming player saw) a result changed since raises ``StaleVersion`` (HTTP 409 with the current result).
- ``match_dispute(match=, by=, reason=)`` — stored in ``Match.dispute_reason`` for the organizer.
- ``match_correct_result(…, reason=)`` / ``match_resolve_dispute(match=, by=, reason=, …)`` — organizers;
  changing a settled or disputed result needs a reason. Every change bumps ``Match.version`` and leaves a
  ``ResultChange`` row (who, when, old → new, reason).
- ``next_first_player(match) -> first_player.Decision`` — who chooses / goes first in the next game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.api import StateConflict, Unprocessable

from .. import signals
from ..engine import first_player
from ..models import Game as MatchGame
from ..models import GameDeck, Match, MatchSeat, ResultChange, Round, SideboardChange, Tournament
from ..permissions import is_organizer, require_organizer
from . import result_rules
from .common import StaleVersion, announce, game_rules, locked_match, max_games, wins_needed
from .result_rules import ParsedGame

# match_save_game(previous=...) not given: no check of what the game was before (``None`` means "not saved").
UNCHECKED: Any = object()

SETTLED = (Match.Status.CONFIRMED, Match.Status.FINAL)
FINISH_REASONS = ("time", "concession", "intentional_draw")


def match_result_dict(match: Match) -> dict[str, Any]:
    """The result as stored, for the audit trail and the API."""
    seats = list(match.seats.all())
    data: dict[str, Any] = {"status": match.status, "players": [s.player_id for s in seats]}
    if any(s.place is not None for s in seats) and not match.bye:
        data["places"] = [
            {"player": s.player_id, "place": s.place, "score": s.score, "tiebreak": s.tiebreak} for s in seats
        ]
    else:
        data["wins"] = [s.wins for s in seats]
        data["draws"] = match.draws
        games = list(match.games.all())
        if games:
            by_seat = {s.seat: s.player_id for s in seats}
            data["games"] = [
                {"winner": by_seat.get(g.winner_seat) if g.winner_seat is not None else None,
                 "first": by_seat.get(g.first_seat), "chooser": by_seat.get(g.chooser_seat)}
                for g in games
            ]  # fmt: skip
    if match.ended_by:
        data["ended_by"] = match.ended_by
    return data


def _parse_result(
    match: Match,
    seats: list[MatchSeat],
    *,
    wins: Sequence[int] | None,
    draws: int,
    games: Sequence[Mapping[str, Any]] | None,
    places: Sequence[Mapping[str, Any]] | None,
) -> dict[str, Any]:
    """Validate a result against the match and the game's rules; returns what to store."""
    tournament = match.round.tournament
    if match.bye:
        raise StateConflict(_("A bye has no result to report: it counts as a 2-0 win."))
    if is_pod(match):
        if places is None:
            raise Unprocessable({"places": _("A pod result needs every player's place or score.")})
        return {
            "places": result_rules.parse_places(tournament.game.slug, [s.player_id for s in seats], places)
        }
    if places is not None:
        raise ValidationError({"places": _("Places are for pod games; this is a two-player match.")})
    seat_of = {s.player_id: s.seat for s in seats}
    need = wins_needed(tournament, match.round)
    parsed_games: list[ParsedGame] = []
    if games is not None:
        parsed_games = result_rules.parse_games(games, seat_of)
        result_rules.check_game_sequence(
            parsed_games, need=need, top_cut=match.round.kind == Round.Kind.TOP_CUT
        )
        parsed_games = result_rules.check_first_players(
            game_rules(tournament.game).first_player, parsed_games, seeded=seeded_seat(match, seats)
        )
        wins_list, draws = result_rules.games_to_result(parsed_games)
    elif wins is not None:
        if len(wins) != 2 or any(not isinstance(w, int) or w < 0 for w in wins):
            raise ValidationError(
                {"wins": _("Give two non-negative game-win counts, in the order of the players.")}
            )
        wins_list = [int(w) for w in wins]
    else:
        raise ValidationError(_("Give either the games or the game wins and draws."))
    if not isinstance(draws, int) or not 0 <= draws <= 3:
        raise ValidationError({"draws": _("Drawn games must be between 0 and 3.")})
    result_rules.check_score(wins_list, draws, need=need, top_cut=match.round.kind == Round.Kind.TOP_CUT)
    return {"wins": wins_list, "draws": draws, "games": parsed_games}


def seeded_seat(match: Match, seats: Sequence[MatchSeat]) -> int | None:
    """The seat of the higher seed when it, not a toss, decides game 1 (a top-cut match of a game whose rule
    set says ``top_cut_first_player = "higher_seed"``, MTR 2.2); None otherwise."""
    if match.round.kind != Round.Kind.TOP_CUT or match.chooser_id is None:
        return None
    if game_rules(match.round.tournament.game).top_cut_first_player != first_player.CutPolicy.HIGHER_SEED:
        return None
    return next((s.seat for s in seats if s.player_id == match.chooser_id), None)


def is_pod(match: Match) -> bool:
    return (
        match.round.tournament.match_format == Tournament.MatchFormat.PODS
        and match.round.kind == Round.Kind.SWISS
    )


def _store_result(match: Match, seats: list[MatchSeat], parsed: Mapping[str, Any]) -> None:
    if "places" in parsed:
        by_player = {row["player"]: row for row in parsed["places"]}
        for s in seats:
            row = by_player[s.player_id]
            s.place, s.score, s.tiebreak, s.wins = row["place"], row.get("score"), row.get("tiebreak"), 0
        MatchSeat.objects.bulk_update(seats, ["place", "score", "tiebreak", "wins"])
        match.draws = 0
        return
    for s, w in zip(seats, parsed["wins"], strict=True):
        s.wins = w
    MatchSeat.objects.bulk_update(seats, ["wins"])
    match.draws = parsed["draws"]
    # A whole result replaces the games saved one by one (given as wins only, it has no games).
    match.games.all().delete()
    if parsed["games"]:
        created = MatchGame.objects.bulk_create(
            [
                MatchGame(match=match, number=i, winner_seat=winner, first_seat=first, chooser_seat=chooser)
                for i, (winner, first, chooser) in enumerate(parsed["games"], start=1)
            ]
        )
        _record_decks(match, seats, created)


def _record_decks(match: Match, seats: list[MatchSeat], games: Sequence[MatchGame]) -> None:
    """Remember the list each player played each game with (the last swap made before it, if any)."""
    from django.db import connection

    if not connection.features.can_return_rows_from_bulk_insert:
        games = list(MatchGame.objects.filter(match=match, number__in=[g.number for g in games]))
    changes = list(SideboardChange.objects.filter(match=match).order_by("game_number", "id"))
    rows = []
    for game in games:
        for seat in seats:
            last = None
            for change in changes:
                if change.player_id == seat.player_id and change.game_number <= game.number:
                    last = change
            rows.append(GameDeck(game=game, player_id=seat.player_id, change=last))
    GameDeck.objects.filter(game__in=games).delete()
    GameDeck.objects.bulk_create(rows)


def _audit(match: Match, by: Any, action: str, old: Any, reason: str = "") -> None:
    ResultChange.objects.create(
        match=match, changed_by=by, action=action, old=old, new=match_result_dict(match), reason=reason[:300]
    )


def _check_round_open(match: Match) -> None:
    tournament = match.round.tournament
    latest = tournament.round_set.order_by("-number").first()
    if tournament.status == Tournament.Status.FINISHED or (latest and latest.number != match.round.number):
        raise StateConflict(_("This round is closed; only an organizer can correct its results."))


def _seated_player(seats: list[MatchSeat], by: Any) -> Any:
    uid = getattr(by, "id", None)
    me = next((s.player for s in seats if uid is not None and s.player.user_id == uid), None)
    if me is None and uid is not None and seats and seats[0].match.round.tournament.team_mode == "2hg":
        # Two-Headed Giant: seat B's member reports and confirms for the team seated on its seat A.
        from .teams import two_headed_stand_in

        me = two_headed_stand_in(seats, uid)
    return me


def _check_reporter(match: Match, seats: list[MatchSeat], by: Any) -> tuple[bool, Any]:
    """(organizer?, the player ``by`` is); players only while their round is open and nothing is settled."""
    organizer = is_organizer(match.round.tournament, by)
    me = _seated_player(seats, by)
    if not organizer and me is None:
        raise PermissionDenied(_("You can only report your own match."))
    if match.status in SETTLED and not (organizer and match.bye):
        raise StateConflict(
            _("This result is already confirmed; use a correction instead.")
            if organizer
            else _("This result is already confirmed; ask an organizer to correct it.")
        )
    if not organizer:
        _check_round_open(match)
    return organizer, me


def _settle_status(match: Match, by: Any, organizer: bool, me: Any) -> None:
    """A player's report waits for the opponent; an organizer not playing the match enters it final."""
    match.status = Match.Status.FINAL if organizer and me is None else Match.Status.REPORTED
    match.reported_by = by
    match.reported_at = timezone.now()
    match.confirmed_by = by if match.status == Match.Status.FINAL else None
    match.dispute_reason = ""


RESULT_FIELDS = ["status", "draws", "reported_by", "reported_at", "confirmed_by", "version", "ended_by",
                 "dispute_reason"]  # fmt: skip


def _announce_result(match: Match, *, was: str | None = None) -> None:
    """``was``: the match's status before a game was saved. A game that leaves a pending match pending
    changes only its two players' pages and the organizer's (``"game"``): the standings count reported
    matches only, so they are not computed again, nor the pairings pages rendered, for every game."""
    tournament_id = match.round.tournament_id
    if match.status in SETTLED:
        signals.send_on_commit(signals.result_settled, tournament_id=tournament_id, match_id=match.pk)
    pending = Match.Status.PENDING
    announce(tournament_id, "game" if was == pending and match.status == pending else "result")


@transaction.atomic
def match_report_result(
    *,
    match: Match,
    by: Any,
    wins: Sequence[int] | None = None,
    draws: int = 0,
    games: Sequence[Mapping[str, Any]] | None = None,
    places: Sequence[Mapping[str, Any]] | None = None,
) -> Match:
    """A player reports their match (the opponent then confirms); an organizer's entry is final."""
    match, seats = locked_match(match)
    organizer, me = _check_reporter(match, seats, by)
    parsed = _parse_result(match, seats, wins=wins, draws=draws, games=games, places=places)
    old = match_result_dict(match) if match.status != Match.Status.PENDING else None
    _store_result(match, seats, parsed)
    _settle_status(match, by, organizer, me)
    match.ended_by = ""
    match.version += 1
    match.save(update_fields=RESULT_FIELDS)
    _audit(match, by, "report" if match.status == Match.Status.REPORTED else "enter", old)
    _announce_result(match)
    return match


def _game_number(number: Any, match: Match, stored: Sequence[MatchGame]) -> int:
    """A game that can be saved now: the next one or one already saved, within the match's length."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise ValidationError({"number": _("The game number must be a whole number.")})
    tournament, round_ = match.round.tournament, match.round
    if number < 1:
        raise ValidationError({"number": _("Games are numbered from 1.")})
    if number > len(stored) + 1:
        raise ValidationError({"number": _("Save game %(n)s first.") % {"n": len(stored) + 1}})
    drawn = sum(1 for g in stored if g.number < number and g.winner_seat is None)
    limit = max_games(tournament, round_, drawn=drawn)
    if number > limit:
        raise ValidationError(
            {
                "number": result_rules.too_many_games(
                    number, need=wins_needed(tournament, round_),
                    top_cut=round_.kind == Round.Kind.TOP_CUT, limit=limit,
                )
            }
        )  # fmt: skip
    return number


@transaction.atomic
def match_save_game(
    *,
    match: Match,
    by: Any,
    number: Any,
    first: Any,
    winner: Any = None,
    chooser: Any = None,
    previous: Any = UNCHECKED,
) -> Match:
    """``previous``: game ``number`` as the player last saw it (``None``: not saved yet). A phone sends it with
    a game it saved while offline; when the opponent or an organizer saved that game differently meanwhile,
    the write is refused as stale (409) instead of silently replacing theirs."""
    match, seats = locked_match(match)
    if match.bye:
        raise StateConflict(_("A bye has no games."))
    if is_pod(match):
        raise StateConflict(_("A pod reports every player's place, not games."))
    organizer, me = _check_reporter(match, seats, by)
    tournament = match.round.tournament
    stored = list(match.games.order_by("number"))
    if previous is not UNCHECKED:
        by_number = {g.number: g for g in stored}
        current = by_number.get(number) if isinstance(number, int) else None
        now = None if current is None else {"first": _player_of(seats, current.first_seat),
                                             "winner": _player_of(seats, current.winner_seat)}  # fmt: skip
        if now == {"first": first, "winner": winner}:
            return match  # already saved exactly so (by the opponent, or by this very request before)
        if now != previous:
            raise StaleVersion(
                _(
                    "Game %(n)s was saved differently meanwhile; check the result and save it again if it is wrong."
                )
                % {"n": number},
                current=match,
            )
    number = _game_number(number, match, stored)
    seat_of = {s.player_id: s.seat for s in seats}
    games = [
        {"first": _player_of(seats, g.first_seat), "winner": _player_of(seats, g.winner_seat),
         "chooser": _player_of(seats, g.chooser_seat)}
        for g in stored
    ]  # fmt: skip
    game = {"first": first, "winner": winner, "chooser": chooser}
    games[number - 1 : number] = [game]
    parsed = result_rules.parse_games(games, seat_of)
    need = wins_needed(tournament, match.round)
    top_cut = match.round.kind == Round.Kind.TOP_CUT
    result_rules.check_game_sequence(parsed, need=need, top_cut=top_cut)
    parsed = result_rules.check_first_players(
        game_rules(tournament.game).first_player,
        parsed,
        seeded=seeded_seat(match, seats),
        refill_after=number,
    )
    wins, draws = result_rules.games_to_result(parsed)
    old = match_result_dict(match)
    was = match.status
    winner_seat, first_seat, chooser_seat = parsed[number - 1]
    saved, _created = MatchGame.objects.update_or_create(
        match=match, number=number,
        defaults={"winner_seat": winner_seat, "first_seat": first_seat, "chooser_seat": chooser_seat},
    )  # fmt: skip
    _record_decks(match, seats, [saved])
    later = [g for g in stored if g.number > number and g.chooser_seat != parsed[g.number - 1][2]]
    for g in later:  # a corrected game changes who chose in the games after it
        g.chooser_seat = parsed[g.number - 1][2]
    MatchGame.objects.bulk_update(later, ["chooser_seat"])
    for s in seats:
        s.wins = wins[s.seat]
    MatchSeat.objects.bulk_update(seats, ["wins"])
    match.draws = draws
    match.ended_by = ""
    # The match is over once decided; drawn games never end it (MTR 2.1): at 1-1-1 the players go on to game 4,
    # or end it with "time is up", which decides by the games won.
    if max(wins) >= need:
        _settle_status(match, by, organizer, me)
    else:
        match.status = Match.Status.PENDING
        match.reported_by = match.reported_at = match.confirmed_by = None
        match.dispute_reason = ""
    match.version += 1
    match.save(update_fields=RESULT_FIELDS)
    _audit(match, by, "game", old)
    _announce_result(match, was=was)
    return match


def _player_of(seats: list[MatchSeat], seat: int | None) -> int | None:
    return next((s.player_id for s in seats if s.seat == seat), None) if seat is not None else None


@transaction.atomic
def match_finish_early(*, match: Match, by: Any, how: str, conceded_by: int | None = None) -> Match:
    """The players end the match before one side has the wins needed."""
    match, seats = locked_match(match)
    if match.bye or is_pod(match):
        raise StateConflict(_("Only a two-player match can end early."))
    organizer, me = _check_reporter(match, seats, by)
    top_cut = match.round.kind == Round.Kind.TOP_CUT
    need = wins_needed(match.round.tournament, match.round)
    wins = [s.wins for s in seats]
    if max(wins) >= need:
        raise StateConflict(_("The match is already decided."))
    has_games = match.games.exists()
    if how == "time":
        if not has_games:
            raise ValidationError(
                {"how": _("Save the games played first (an unfinished game is a drawn game).")}
            )
        if top_cut and wins[0] == wins[1]:
            raise ValidationError(
                {"how": _("A top cut match cannot end in a draw: play until there is a winner.")}
            )
        draws = match.draws
    elif how == "concession":
        loser = next((s for s in seats if s.player_id == conceded_by), None)
        if loser is None:
            raise ValidationError({"conceded_by": _("Say which player of this match concedes.")})
        wins[1 - loser.seat] = need
        draws = match.draws
    elif how == "intentional_draw":
        if top_cut:
            raise StateConflict({"how": _("There are no intentional draws in the top cut.")})
        if match.status != Match.Status.PENDING:
            raise StateConflict(
                {"how": _("The result is already reported: an intentional draw is agreed before that.")}
            )
        # MTR 2.4: players may agree to a draw at any point before the result is reported, games played or
        # not, and it is always reported as 0-0-3; the games saved stay as the record of what was played.
        wins, draws = [0, 0], 3
    else:
        raise ValidationError({"how": _("Say how the match ended: time, concession or intentional_draw.")})
    old = match_result_dict(match)
    for s in seats:
        s.wins = wins[s.seat]
    MatchSeat.objects.bulk_update(seats, ["wins"])
    match.draws = draws
    _settle_status(match, by, organizer, me)
    match.ended_by = how
    match.version += 1
    match.save(update_fields=RESULT_FIELDS)
    _audit(match, by, "finish", old)
    _announce_result(match)
    return match


@transaction.atomic
def match_confirm_result(*, match: Match, by: Any, version: int | None = None) -> Match:
    """The opponent (any other player of the match) confirms the reported result."""
    match, seats = locked_match(match)
    me = _seated_player(seats, by) if by is not None else None
    if me is None:
        raise PermissionDenied(_("Only a player of this match can confirm its result."))
    if version is not None and version != match.version:
        raise StaleVersion(
            _("The result changed since you read it; check the current result and confirm again."),
            current=match,
        )
    if match.status != Match.Status.REPORTED:
        raise StateConflict(_("There is no reported result waiting for confirmation."))
    reporter = _seated_player(seats, match.reported_by) if match.reported_by_id else None
    if match.reported_by_id == by.id or (reporter is not None and reporter.pk == me.pk):
        raise PermissionDenied(_("Your opponent must confirm the result you reported."))
    old = match_result_dict(match)
    match.status = Match.Status.CONFIRMED
    match.confirmed_by = by
    match.save(update_fields=["status", "confirmed_by"])
    _audit(match, by, "confirm", old)
    _announce_result(match)
    return match


@transaction.atomic
def match_dispute(*, match: Match, by: Any, reason: str = "") -> Match:
    """A player disagrees with the reported result; the organizer sees it with the reason and decides."""
    match, seats = locked_match(match)
    if by is None or _seated_player(seats, by) is None:
        raise PermissionDenied(_("Only a player of this match can dispute its result."))
    if match.status not in (Match.Status.REPORTED, Match.Status.CONFIRMED):
        raise StateConflict(_("Only a reported result can be disputed."))
    _check_round_open(match)
    old = match_result_dict(match)
    match.status = Match.Status.DISPUTED
    match.dispute_reason = (reason or "").strip()[:300]
    match.version += 1
    match.save(update_fields=["status", "dispute_reason", "version"])
    _audit(match, by, "dispute", old, reason)
    _announce_result(match)
    return match


def _require_reason(match: Match, reason: str) -> None:
    if match.status in (*SETTLED, Match.Status.DISPUTED) and not (reason or "").strip():
        raise ValidationError({"reason": _("Say why the result changes; it is kept in the audit trail.")})


@transaction.atomic
def match_correct_result(
    *,
    match: Match,
    by: Any,
    wins: Sequence[int] | None = None,
    draws: int = 0,
    games: Sequence[Mapping[str, Any]] | None = None,
    places: Sequence[Mapping[str, Any]] | None = None,
    reason: str = "",
    action: str = "correct",
) -> Match:
    """An organizer sets any result (also of earlier rounds); the change is recorded old → new."""
    match, seats = locked_match(match)
    require_organizer(match.round.tournament, by)
    parsed = _parse_result(match, seats, wins=wins, draws=draws, games=games, places=places)
    _require_reason(match, reason)
    old = match_result_dict(match)
    _store_result(match, seats, parsed)
    match.status = Match.Status.FINAL
    match.confirmed_by = by
    match.dispute_reason = ""
    match.ended_by = ""
    # The result that stands now is the organizer's: pages say who entered it (the player who reported the
    # replaced one is in the audit trail).
    match.reported_by = by
    match.reported_at = timezone.now()
    match.version += 1
    match.save(update_fields=RESULT_FIELDS)
    _audit(match, by, action, old, reason)
    _announce_result(match)
    return match


@transaction.atomic
def match_resolve_dispute(
    *, match: Match, by: Any, reason: str, wins: Sequence[int] | None = None, draws: int = 0,
    games: Sequence[Mapping[str, Any]] | None = None, places: Sequence[Mapping[str, Any]] | None = None,
) -> Match:  # fmt: skip
    """An organizer decides a disputed match: keep the reported result (no result given) or set another."""
    match, _seats = locked_match(match)
    require_organizer(match.round.tournament, by)
    if match.status != Match.Status.DISPUTED:
        raise StateConflict(_("This match is not disputed."))
    if not (reason or "").strip():
        raise ValidationError({"reason": _("Say why the result changes; it is kept in the audit trail.")})
    if wins is not None or games is not None or places is not None:
        return match_correct_result(match=match, by=by, wins=wins, draws=draws, games=games, places=places,
                                    reason=reason, action="resolve")  # fmt: skip
    old = match_result_dict(match)
    match.status = Match.Status.FINAL
    match.confirmed_by = by
    match.dispute_reason = ""
    match.version += 1
    match.save(update_fields=["status", "confirmed_by", "dispute_reason", "version"])
    _audit(match, by, "resolve", old, reason)
    _announce_result(match)
    return match


def next_first_player(match: Match) -> first_player.Decision:
    """Who chooses (or goes first) in the next game, by the game's rule; ``player`` is a player id."""
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    seeded = seeded_seat(match, seats)
    ids = (seats[0].player_id, seats[1].player_id) if len(seats) == 2 else (0, 0)
    by_seat = {s.seat: s.player_id for s in seats}
    records = [
        first_player.GameRecord(winner=by_seat.get(g.winner_seat) if g.winner_seat is not None else None,
                                first_player=by_seat.get(g.first_seat))
        for g in sorted(match.games.all(), key=lambda g: g.number)
    ]  # fmt: skip
    policy = game_rules(match.round.tournament.game).first_player
    seeded_id = by_seat.get(seeded) if seeded is not None else None
    try:
        return first_player.next_decision(policy, ids, records, seeded=seeded_id)
    except ValueError:
        return first_player.next_decision(first_player.DEFAULT_POLICY, ids, records, seeded=seeded_id)
