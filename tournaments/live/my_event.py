"""What one player's "My event" page shows, read in a fixed handful of hand-written queries.

After a round is posted every phone in the room asks for its page within a few seconds: 2,000 phones,
2,000 reads. Through the ORM each read was nine queries whose SQL compilation (not their execution) cost
most of the request, so these are written out once as SQL over the models' own columns and turned into
model instances with ``Model.from_db`` and the fields' own converters — the template gets the same objects
(``get_status_display``, ``round.stage`` …) it would get from the ORM.

``my_event_fingerprint`` is the one-query digest source the live polls compare; ``my_event_state`` the
page's data.

A player's matches are reached from their seats by primary key (a scalar subquery per seat), never by
joining the match table as a whole: on PostgreSQL a join's plan follows the table statistics, and right
after a round is posted — a thousand new matches, the moment every phone asks — they lag, and the planner
hashes every match of the event for each phone (5 ms instead of 0.2 for the new-round notice).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Model

from accounts.models import User
from cards.models import Game as CardGame

from ..models import Game, Match, MatchSeat, Player, Round, SideboardChange, Tournament
from ..reads.records import RESULT_STATUSES
from .etags import digest
from .sql import poll_fetch

_FINGERPRINT = """
SELECT p.name, p.dropped_at_round, p.checked_in_at, p.deck_submitted_at, p.no_show,
       t.status, t.check_in_opened_at, t.rounds,
       (SELECT r.id FROM tournaments_round r WHERE r.tournament_id = t.id AND NOT r.draft ORDER BY r.number DESC LIMIT 1),
       (SELECT r.timer_ends_at FROM tournaments_round r WHERE r.tournament_id = t.id AND NOT r.draft ORDER BY r.number DESC LIMIT 1),
       (SELECT SUM((SELECT m.version FROM tournaments_match m WHERE m.id = s.match_id))
          FROM tournaments_matchseat s WHERE s.player_id = p.id),
       (SELECT COUNT(*) FROM tournaments_matchseat s WHERE s.player_id = p.id),
       (SELECT COUNT(*) FROM tournaments_sideboardchange c WHERE c.player_id = p.id),
       (SELECT r.timer_paused_left FROM tournaments_round r WHERE r.tournament_id = t.id AND NOT r.draft ORDER BY r.number DESC LIMIT 1),
       (SELECT SUM((SELECT m.extra_minutes FROM tournaments_match m WHERE m.id = s.match_id))
          FROM tournaments_matchseat s WHERE s.player_id = p.id),
       (SELECT COUNT(*) FROM tournaments_matchseat s JOIN tournaments_judgecall j ON j.match_id = s.match_id
         WHERE s.player_id = p.id AND j.answered_at IS NULL),
       p.waitlisted, p.user_id,
       (SELECT COUNT(*) FROM tournaments_matchseat s WHERE s.player_id = p.id
           AND (SELECT m.status FROM tournaments_match m WHERE m.id = s.match_id) = 'confirmed'),
       CASE WHEN t.team_mode = '2hg' THEN (
         SELECT SUM((SELECT m.version + CASE WHEN m.status = 'confirmed' THEN 1000000 ELSE 0 END
                       FROM tournaments_match m WHERE m.id = s.match_id))
           FROM tournaments_matchseat s
          WHERE s.player_id = (SELECT a.player_id FROM tournaments_teammember b
                                 JOIN tournaments_teammember a ON a.team_id = b.team_id
                                WHERE b.player_id = p.id AND b.seat = 1 AND a.seat = 0)) END
  FROM tournaments_player p JOIN tournaments_tournament t ON t.id = p.tournament_id
 WHERE p.id = %s AND p.tournament_id = %s
"""


# Where the latest round's id sits in the fingerprint (player-page ETags carry it).
FINGERPRINT_ROUND = 8
# Where the latest round's clock sits (timer_ends_at, timer_paused_left): kept out of the page's mark, so a
# clock start, pause or extension costs each phone a tiny clock notice instead of a full render.
FINGERPRINT_CLOCK = (9, 13)
FINGERPRINT_STATUS = 5


def fingerprint_marks(fingerprint: list[Any]) -> tuple[str, str]:
    """(page mark, clock mark) of a fingerprint: what the page shows apart from the round clock, and the
    clock itself. A player-page ETag carries both, so a poll can tell "only the clock moved"."""
    page = [value for i, value in enumerate(fingerprint) if i not in FINGERPRINT_CLOCK]
    clock = [fingerprint[i] for i in FINGERPRINT_CLOCK]
    return digest(page), digest(clock)[:8]


def my_event_fingerprint(*, tournament_id: int, player_id: int) -> list[Any] | None:
    """What decides whether a player's page changed, in one small query: their entry, the event's state, the
    latest round and its clock, the versions of all their matches (each result change bumps one), how many
    of them are confirmed (a confirmation names the version it confirms and so does not bump it: without
    this the reporter's phone kept its 304 after the opponent confirmed), their swaps, their tables' extra
    time and open judge calls; for seat B of a Two-Headed Giant team, the versions and confirmations of the
    team's game (seated on seat A). Changes elsewhere in a big event leave it alone, so those polls still end
    in 304. None when the player is not in the event."""
    row = poll_fetch(_FINGERPRINT, [player_id, tournament_id])
    return None if not row else list(row[0])


# --- model instances from hand-written joins -----------------------------------------------------------


@cache
def _columns(model: type[Model], alias: str) -> str:
    return ", ".join(f'{alias}."{field.column}"' for field in model._meta.concrete_fields)


def _converters(model: type[Model]) -> list[tuple[Any, list[Any]]]:
    """Per concrete field, the converters the ORM applies to a value read from this database (aware
    datetimes, JSON, booleans on SQLite …); looked up per connection vendor, once."""
    return _converters_for(model, connection.vendor)


@cache
def _converters_for(model: type[Model], vendor: str) -> list[tuple[Any, list[Any]]]:
    result = []
    for field in model._meta.concrete_fields:
        column = field.get_col(model._meta.db_table)
        result.append(
            (column, connection.ops.get_db_converters(column) + column.get_db_converters(connection))
        )
    return result


def _instance(model: type[Model], values: Sequence[Any]) -> Any:
    """A model instance from its columns in ``_columns`` order, or None for an all-NULL outer join."""
    fields = model._meta.concrete_fields
    if values[0] is None:
        return None
    converted = []
    for (column, converters), value in zip(_converters(model), values, strict=True):
        for convert in converters:
            value = convert(value, column, connection)
        converted.append(value)
    return model.from_db(connection.alias, [field.attname for field in fields], converted)


def _split(row: Sequence[Any], *models: type[Model]) -> list[Any]:
    """Cut a joined row into one instance per model (the columns were selected in this order)."""
    instances, start = [], 0
    for model in models:
        width = len(model._meta.concrete_fields)
        instances.append(_instance(model, row[start : start + width]))
        start += width
    return instances


# --- the page's data -------------------------------------------------------------------------------------


@cache
def _player_sql() -> str:
    # Only column names from the models and %s parameters go into the SQL.
    return f"""
SELECT {_columns(Player, "p")}, {_columns(Tournament, "t")}, {_columns(CardGame, "g")}, {_columns(Round, "r")}
  FROM tournaments_player p
  JOIN tournaments_tournament t ON t.id = p.tournament_id
  JOIN {CardGame._meta.db_table} g ON g.id = t.game_id
  LEFT JOIN tournaments_round r ON r.id = (
       SELECT r2.id FROM tournaments_round r2 WHERE r2.tournament_id = t.id AND NOT r2.draft
        ORDER BY r2.number DESC LIMIT 1)
 WHERE p.id = %s AND p.tournament_id = %s"""  # noqa: S608


@cache
def _seats_sql() -> str:
    return f"""
SELECT {_columns(MatchSeat, "s")}, {_columns(Player, "p")}, {_columns(Match, "m")}, u.id, u.username
  FROM tournaments_matchseat s
  JOIN tournaments_player p ON p.id = s.player_id
  JOIN tournaments_match m ON m.id = s.match_id
  LEFT JOIN {User._meta.db_table} u ON u.id = m.reported_by_id
 WHERE s.match_id = (SELECT s2.match_id FROM tournaments_matchseat s2
                      WHERE s2.player_id = %s
                        AND (SELECT m2.round_id FROM tournaments_match m2 WHERE m2.id = s2.match_id) = %s)
 ORDER BY s.seat"""  # noqa: S608


@cache
def _games_sql() -> str:
    return f"SELECT {_columns(Game, 'x')} FROM tournaments_game x WHERE x.match_id = %s ORDER BY x.number"  # noqa: S608


@cache
def _swaps_sql() -> str:
    return (
        f"SELECT {_columns(SideboardChange, 'x')} FROM tournaments_sideboardchange x "  # noqa: S608
        "WHERE x.match_id = %s AND x.player_id = %s ORDER BY x.game_number, x.id"
    )


_JUDGE_CALL_SQL = "SELECT 1 FROM tournaments_judgecall WHERE match_id = %s AND answered_at IS NULL LIMIT 1"


def my_event_state(*, tournament_id: int, player_id: int) -> dict[str, Any] | None:
    """Everything the player's page shows, whatever the size of the event: the player with the event and
    the latest round (one query), the seats of their match in it with the players and the match (one),
    its games and their own swaps (one each), their record (one). None when the player is not in it."""

    rows = poll_fetch(_player_sql(), [player_id, tournament_id])
    if not rows:
        return None
    player, tournament, game, round_ = _split(rows[0], Player, Tournament, CardGame, Round)
    tournament.game = game
    player.tournament = tournament
    match, seats, games, swaps, judge_called = None, [], [], [], False
    if round_ is not None:
        round_.tournament = tournament
        # Two-Headed Giant: the team's one game is seated on seat A; seat B's page shows that game.
        seated = _record_holder(tournament, player_id)
        for row in poll_fetch(_seats_sql(), [seated, round_.pk]):
            seat, seat_player, seat_match = _split(row, MatchSeat, Player, Match)
            if match is None:
                match = seat_match
                match.round = round_
                reporter_id, reporter_name = row[-2:]
                match.reported_by = (
                    None
                    if reporter_id is None
                    else User.from_db(None, ["id", "username"], [reporter_id, reporter_name])
                )
            seat.match, seat.player = match, (player if seat_player.pk == player.pk else seat_player)
            seats.append(seat)
        if match is not None and not match.bye:
            judge_called = bool(poll_fetch(_JUDGE_CALL_SQL, [match.pk]))
            games = [_instance(Game, row) for row in poll_fetch(_games_sql(), [match.pk])]
            swaps = [
                _instance(SideboardChange, row) for row in poll_fetch(_swaps_sql(), [match.pk, player.pk])
            ]
        if round_.kind == Round.Kind.TOP_CUT:
            round_.match_count = poll_fetch(
                "SELECT COUNT(*) FROM tournaments_match WHERE round_id = %s", [round_.pk]
            )[0][0]
    return {
        "tournament": tournament,
        "player": player,
        "round": round_,
        "match": match,
        "seats": seats,
        "games": games,
        "swaps": swaps,
        "judge_called": judge_called,
        "record": _record(_record_holder(tournament, player.pk)),
    }


_SEAT_A_SQL = """
SELECT a.player_id FROM tournaments_teammember b JOIN tournaments_teammember a ON a.team_id = b.team_id
 WHERE b.player_id = %s AND b.seat = 1 AND a.seat = 0"""


def _record_holder(tournament: Tournament, player_id: int) -> int:
    """Whose matches make this player's record: their own, except seat B of a Two-Headed Giant team, whose
    team's one game is seated on seat A (team_records.py credits it to both in the standings likewise)."""
    if tournament.team_mode != "2hg":
        return player_id
    rows = poll_fetch(_SEAT_A_SQL, [player_id])
    return int(rows[0][0]) if rows else player_id


_RECORD_SQL = """
SELECT s.match_id, s.player_id, s.wins, s.place, m.bye
  FROM tournaments_match m JOIN tournaments_matchseat s ON s.match_id = m.id
 WHERE m.id {in_theirs}
   AND m.status IN ({statuses})
   AND NOT (SELECT r.draft FROM tournaments_round r WHERE r.id = m.round_id)
 ORDER BY s.match_id, s.seat"""


@cache
def _record_sql(vendor: str) -> str:
    theirs = "SELECT s2.match_id FROM tournaments_matchseat s2 WHERE s2.player_id = %s"
    # PostgreSQL: the player's few matches as an array first, then read by primary key. As a semi-join the
    # plan depends on the table's statistics, which lag right after a round adds a thousand matches, the
    # moment every phone asks (a hash join over every match in the event: 1 ms instead of 0.04).
    in_theirs = f"= ANY (ARRAY({theirs}))" if vendor == "postgresql" else f"IN ({theirs})"
    return _RECORD_SQL.format(in_theirs=in_theirs, statuses=", ".join(["%s"] * len(RESULT_STATUSES)))


def _record(player_id: int) -> dict[str, int]:
    """Wins, losses and draws of the player's settled matches (pods: placement points are in standings)."""
    sql = _record_sql(connection.vendor)
    by_match: dict[int, list[tuple[int, int, int | None, bool]]] = {}
    for match_id, seat_player, wins, place, bye in poll_fetch(sql, [player_id, *map(str, RESULT_STATUSES)]):
        by_match.setdefault(match_id, []).append((seat_player, wins, place, bool(bye)))
    record = {"wins": 0, "losses": 0, "draws": 0}
    for seats in by_match.values():
        mine = next(s for s in seats if s[0] == player_id)
        others = [s for s in seats if s[0] != player_id]
        if mine[3] or not others:
            record["wins"] += 1
        elif mine[2] is not None:  # a pod: first place (shared or not) counts as a win
            record["wins" if mine[2] == 1 else "losses"] += 1
        elif mine[1] > max(o[1] for o in others):
            record["wins"] += 1
        elif mine[1] < max(o[1] for o in others):
            record["losses"] += 1
        else:
            record["draws"] += 1
    return record


_PAIRING_SQL = """
SELECT q.id, q.number, q.kind, q.matches, m.id, m."table", m.bye
  FROM (SELECT r.id, r.number, r.kind,
               (SELECT COUNT(*) FROM tournaments_match c WHERE c.round_id = r.id) AS matches,
               (SELECT s.match_id FROM tournaments_matchseat s
                 WHERE s.player_id = %s
                   AND (SELECT x.round_id FROM tournaments_match x WHERE x.id = s.match_id) = r.id) AS match_id
          FROM tournaments_round r WHERE r.tournament_id = %s AND NOT r.draft ORDER BY r.number DESC LIMIT 1) q
  LEFT JOIN tournaments_match m ON m.id = q.match_id"""

_OPPONENTS_SQL = """
SELECT p.name FROM tournaments_matchseat s JOIN tournaments_player p ON p.id = s.player_id
 WHERE s.match_id = %s AND s.player_id <> %s ORDER BY s.seat"""


def my_event_pairing(*, tournament_id: int, player_id: int) -> dict[str, Any] | None:
    """The latest round and this player's place in it — table, bye, opponents' names — in two small
    queries: what the new-round notice shows. None before round 1."""
    rows = poll_fetch(_PAIRING_SQL, [player_id, tournament_id])
    if not rows:
        return None
    round_id, number, kind, match_count, match_id, table, bye = rows[0]
    round_ = Round(id=round_id, number=number, kind=kind, tournament_id=tournament_id)
    round_.match_count = match_count
    opponents = (
        [] if match_id is None else [name for (name,) in poll_fetch(_OPPONENTS_SQL, [match_id, player_id])]
    )
    match = None if match_id is None else {"table": table, "bye": bool(bye)}
    return {"round": round_, "match": match, "opponents": opponents, "pods": len(opponents) > 1}
