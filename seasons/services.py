"""Writes for series and ratings (keyword-only, atomic, permissions checked here).

- ``series_create(by=, name=, game=, best_of=, points_table=None) -> Series`` — organizers.
- ``series_add_event(series=, by=, tournament=) -> SeriesEvent`` — the series' owner, who organizes the event
  too; the event must be of the series' game.
- ``series_update(series=, by=, name=, best_of=, points_table=)`` — the series' owner edits it.
- ``series_remove_event(series=, by=, tournament=)`` — the series' owner takes an event out.
- ``ratings_rebuild(game=)`` — every finished event of the game rated again (manage.py ratings_rebuild).
- ``event_finished(tournament=)`` — when an event finishes (receivers.py): freeze its finishes and move the
  ratings by its matches, once.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from cards.models import Game
from config.api import MissingReference, StateConflict, Unprocessable
from tournaments.models import Match, MatchSeat, Player, Tournament
from tournaments.permissions import can_organize_any, is_organizer
from tournaments.reads.selectors import standings_compute

from .engine import ratings as rating_engine
from .engine.points import DEFAULT_TABLE, table_problems
from .models import EventFinish, RatedEvent, Rating, RatingChange, Series, SeriesEvent

MAX_BEST_OF = 200


def require_series_owner(series: Series, user: Any) -> None:
    if not (
        user is not None and user.is_authenticated and (user.is_staff or series.created_by_id == user.id)
    ):
        raise PermissionDenied(_("Only the organizer of this series may do that."))


def _series_fields_check(name: str, best_of: Any, table: Any) -> str:
    """The cleaned name, or a ``ValidationError`` naming every field that is wrong."""
    errors: dict[str, str] = {}
    name = (name or "").strip()
    if not name:
        errors["name"] = _("The series needs a name.")
    elif len(name) > 200:
        errors["name"] = _("The name is too long (at most 200 characters).")
    if isinstance(best_of, bool) or not isinstance(best_of, int) or not 0 <= best_of <= MAX_BEST_OF:
        errors["best_of"] = _("Best of must be a whole number from 0 (every event counts) to %(n)s.") % {
            "n": MAX_BEST_OF
        }
    problems = table_problems(table)
    if problems:
        errors["points_table"] = _("The points table is invalid at: %(where)s.") % {
            "where": ", ".join(problems)
        }
    if errors:
        raise ValidationError(errors)
    return name


@transaction.atomic
def series_create(*, by: Any, name: str, game: Game, best_of: Any = 0, points_table: Any = None) -> Series:
    if not can_organize_any(by):
        raise PermissionDenied(_("Only organizers may create a series."))
    table = DEFAULT_TABLE if points_table is None else points_table
    name = _series_fields_check(name, best_of, table)
    return Series.objects.create(name=name, game=game, best_of=best_of, points_table=table, created_by=by)


@transaction.atomic
def series_update(
    *, series: Series, by: Any, name: Any = None, best_of: Any = None, points_table: Any = None
) -> Series:
    """Change what is given (``None``: keep); standings follow at once, as they are computed on reading."""
    require_series_owner(series, by)
    series = Series.objects.select_for_update().get(pk=series.pk)
    name = series.name if name is None else name
    best_of = series.best_of if best_of is None else best_of
    table = series.points_table if points_table is None else points_table
    series.name = _series_fields_check(name, best_of, table)
    series.best_of, series.points_table = best_of, table
    series.save(update_fields=["name", "best_of", "points_table"])
    return series


@transaction.atomic
def series_remove_event(*, series: Series, by: Any, tournament: Tournament) -> None:
    require_series_owner(series, by)
    deleted, _rows = SeriesEvent.objects.filter(series=series, tournament=tournament).delete()
    if not deleted:
        raise MissingReference({"tournament": _("This event is not in the series.")})


@transaction.atomic
def series_add_event(*, series: Series, by: Any, tournament: Tournament) -> SeriesEvent:
    require_series_owner(series, by)
    if not is_organizer(tournament, by):
        raise PermissionDenied(_("Only events you organize can be added to your series."))
    if tournament.game_id != series.game_id:
        # A well-formed id of an event of another game: cannot go with this series (README "Errors": 422).
        raise Unprocessable(
            {"tournament": _("“%(event)s” is a %(game)s event; this series is for %(series_game)s.")
             % {"event": tournament.name, "game": tournament.game.name, "series_game": series.game.name}}
        )  # fmt: skip
    try:
        with transaction.atomic():
            return SeriesEvent.objects.create(series=series, tournament=tournament)
    except IntegrityError:
        raise StateConflict({"tournament": _("This event is already in the series.")}) from None


def finishes_of(tournament: Tournament) -> list[dict[str, Any]]:
    """Every entrant's place and record by the event's standings (the top cut first, then Swiss rank).

    No-shows never played and are left out; the size is the number of players who did play.
    """

    absent = set(Player.objects.filter(tournament=tournament, no_show=True).values_list("id", flat=True))
    users = dict(Player.objects.filter(tournament=tournament).values_list("id", "user_id"))
    rows = [row for row in standings_compute(tournament=tournament) if row["player"] not in absent]
    cut = _top_cut_records(tournament)
    return [
        {"player": row["player"], "user": users.get(row["player"]), "name": row["name"], "place": place,
         "size": len(rows), "wins": row["wins"] + cut.get(row["player"], (0, 0))[0],
         "losses": row["losses"] + cut.get(row["player"], (0, 0))[1], "draws": row["draws"]}
        for place, row in enumerate(rows, start=1)
    ]  # fmt: skip


def _top_cut_records(tournament: Tournament) -> dict[int, tuple[int, int]]:
    """Wins and losses of each player's top-cut matches: the standings' record is the Swiss one, but a
    history (and the rating, which counts every match) includes the cut."""
    seats: dict[int, list[tuple[int, int]]] = {}
    for match_id, player_id, wins in MatchSeat.objects.filter(
        match__round__tournament=tournament,
        match__round__kind="top_cut",
        match__bye=False,
        match__status__in=(Match.Status.CONFIRMED, Match.Status.FINAL),
    ).values_list("match_id", "player_id", "wins"):
        seats.setdefault(match_id, []).append((player_id, wins))
    out: dict[int, tuple[int, int]] = {}
    for pair in seats.values():
        if len(pair) != 2 or pair[0][1] == pair[1][1]:
            continue
        for (player, mine), (_other, theirs) in (pair, pair[::-1]):
            won, lost = out.get(player, (0, 0))
            out[player] = (won + (mine > theirs), lost + (mine < theirs))
    return out


@transaction.atomic
def event_finished(*, tournament: Tournament) -> None:
    """Freeze the event's finishes and apply its matches to the ratings (each only once)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.FINISHED:
        return
    if not EventFinish.objects.filter(tournament=tournament).exists():
        EventFinish.objects.bulk_create(
            [EventFinish(tournament=tournament, player_id=row["player"], user_id=row["user"], name=row["name"],
                         place=row["place"], size=row["size"], wins=row["wins"], losses=row["losses"],
                         draws=row["draws"]) for row in finishes_of(tournament)],
            batch_size=500,
        )  # fmt: skip
    _rate(tournament)


def _rate(tournament: Tournament) -> None:
    if not tournament.rated:
        return  # a casual event the store did not mark as rated; marking it later and rebuilding rates it
    _rated, created = RatedEvent.objects.get_or_create(tournament=tournament)
    if not created:
        return
    games = _countable(_rated_games(tournament))
    users = {u for g in games for u in (g.a, g.b)}
    stored = {
        r.user_id: r
        for r in Rating.objects.select_for_update().filter(game_id=tournament.game_id, user_id__in=users)
    }
    before = {uid: rating_engine.Rating(r.rating, r.rd, r.volatility) for uid, r in stored.items()}
    after = rating_engine.rate_period(before, games)
    played: dict[int, int] = {}
    for g in games:
        played[g.a] = played.get(g.a, 0) + 1
        played[g.b] = played.get(g.b, 0) + 1
    changed, new = [], []
    for uid, value in after.items():
        row = stored.get(uid) or Rating(user_id=uid, game_id=tournament.game_id)
        row.rating, row.rd, row.volatility = value.rating, value.rd, value.volatility
        row.events += 1
        row.matches += played[uid]
        (changed if row.pk else new).append(row)
    opponents: dict[int, set[int]] = {}
    for g in games:
        opponents.setdefault(g.a, set()).add(g.b)
        opponents.setdefault(g.b, set()).add(g.a)
    history = [
        RatingChange(user_id=uid, game_id=tournament.game_id, tournament=tournament,
                     rating_before=(before.get(uid) or rating_engine.DEFAULT).rating, rating_after=value.rating,
                     rd_after=value.rd, matches=played[uid], opponents=len(opponents[uid]))
        for uid, value in after.items()
    ]  # fmt: skip
    Rating.objects.bulk_update(
        changed, ["rating", "rd", "volatility", "events", "matches", "updated_at"], batch_size=500
    )
    Rating.objects.bulk_create(new, batch_size=500)
    RatingChange.objects.bulk_create(history, batch_size=500)
    RatedEvent.objects.filter(tournament=tournament).update(players=len(after))


def _countable(games: list[rating_engine.Game]) -> list[rating_engine.Game]:
    """The matches an event may move ratings by. Farming needs few accounts: an organizer running 2-player
    events against a sock account lifted it from 1500 to 1753 in three events. So an event counts only with
    at least RATING_MIN_PLAYERS rated players, and a match only between two players who each met at least
    RATING_MIN_OPPONENTS different rated opponents in the event (a handful of socks cannot make a real field)."""
    min_players = getattr(settings, "RATING_MIN_PLAYERS", 4)
    min_opponents = getattr(settings, "RATING_MIN_OPPONENTS", 2)
    opponents: dict[int, set[int]] = {}
    for g in games:
        opponents.setdefault(g.a, set()).add(g.b)
        opponents.setdefault(g.b, set()).add(g.a)
    if len(opponents) < min_players:
        return []
    return [g for g in games if min(len(opponents[g.a]), len(opponents[g.b])) >= min_opponents]


def _rated_games(tournament: Tournament) -> list[rating_engine.Game]:
    """Two-player matches with a final result between two account holders (byes and guests are not rated;
    pod events neither: a place among four is not a two-player outcome)."""
    if tournament.match_format == Tournament.MatchFormat.PODS:
        return []
    seats: dict[int, list[tuple[int, int, int | None]]] = {}
    for mid, seat, wins, uid in (
        MatchSeat.objects.filter(
            match__round__tournament=tournament,
            match__bye=False,
            match__status__in=(Match.Status.CONFIRMED, Match.Status.FINAL),
        )
        .order_by("match_id", "seat")
        .values_list("match_id", "seat", "wins", "player__user_id")
    ):
        seats.setdefault(mid, []).append((seat, wins, uid))
    games = []
    for rows in seats.values():
        if len(rows) != 2 or rows[0][2] is None or rows[1][2] is None or rows[0][2] == rows[1][2]:
            continue
        (_, wa, ua), (_, wb, ub) = rows
        games.append(rating_engine.Game(ua, ub, 1.0 if wa > wb else 0.0 if wa < wb else 0.5))
    return games


@transaction.atomic
def ratings_rebuild(*, game: Game) -> int:
    """Rate every finished event of ``game`` again from unrated, in the order they were first rated (events
    never rated come last, oldest first): after a result was corrected in a finished event. Returns the
    number of events rated."""
    order = {
        tid: i for i, tid in enumerate(
            RatedEvent.objects.filter(tournament__game=game).order_by("rated_at", "id").values_list("tournament_id", flat=True)
        )
    }  # fmt: skip
    events = sorted(
        Tournament.objects.filter(game=game, status=Tournament.Status.FINISHED),
        key=lambda t: (order.get(t.pk, len(order)), t.created_at, t.pk),
    )
    Rating.objects.filter(game=game).delete()
    RatingChange.objects.filter(game=game).delete()
    RatedEvent.objects.filter(tournament__game=game).delete()
    for event in events:
        _rate(event)
    return len(events)
