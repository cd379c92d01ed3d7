"""Reads for series and player histories: series standings, an account's events and ratings."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from tournaments.models import Tournament
from tournaments.permissions import can_see_decklist

from .engine.points import Finish, SeriesRow, event_points, series_standings
from .models import EventFinish, Rating, Series
from .services import finishes_of


def series_list() -> QuerySet[Series]:
    return Series.objects.select_related("game", "created_by")


def _key(user_id: int | None, name: str) -> str:
    # Guests have no account: the same name in two events of one store's league is taken as one person.
    return f"u{user_id}" if user_id is not None else "g" + " ".join(name.split()).casefold()


def series_finishes(series: Series) -> list[tuple[Tournament, list[dict[str, Any]]]]:
    """Each event of the series with its finishes: frozen ones once finished, the live standings before."""
    events = list(
        Tournament.objects.filter(pk__in=series.series_events.values("tournament_id"))
        .select_related("game")
        .order_by("created_at", "id")
    )
    frozen: dict[int, list[dict[str, Any]]] = {}
    for row in EventFinish.objects.filter(tournament__in=[e.pk for e in events]).values(
        "tournament_id", "player_id", "user_id", "name", "place", "size", "wins", "losses", "draws"
    ):
        frozen.setdefault(row["tournament_id"], []).append(
            {**row, "player": row["player_id"], "user": row["user_id"]}
        )
    out = []
    for event in events:
        if event.pk in frozen:
            out.append((event, frozen[event.pk]))
        elif event.round_set.exists():
            out.append((event, finishes_of(event)))
        else:
            out.append((event, []))
    return out


def series_standings_compute(series: Series) -> tuple[list[SeriesRow], dict[str, str | None]]:
    """The series standings and, per row key, the account's username (None for guests)."""
    from django.contrib.auth import get_user_model

    finishes = []
    usernames: dict[str, str | None] = {}
    user_ids = set()
    for event, rows in series_finishes(series):
        for row in rows:
            key = _key(row["user"], row["name"])
            finishes.append(Finish(key, row["name"], event.pk, row["place"], row["size"]))
            if row["user"] is not None:
                user_ids.add(row["user"])
    names = dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username"))
    for finish in finishes:
        usernames[finish.key] = names.get(int(finish.key[1:])) if finish.key.startswith("u") else None
    return series_standings(finishes, series.points_table, series.best_of), usernames


def player_history(user: Any, viewer: Any) -> dict[str, Any]:
    """An account's finished events (place, record, points, the deck when its list is public) and ratings."""
    finishes = list(
        EventFinish.objects.filter(user=user)
        .select_related("tournament__game", "player")
        .order_by("-tournament__created_at", "-tournament_id")
    )
    events = [
        {
            "tournament": f.tournament,
            "place": f.place,
            "size": f.size,
            "record": (f.wins, f.losses, f.draws),
            "deck_player": f.player
            if f.player.deck and can_see_decklist(f.tournament, f.player, viewer)
            else None,
        }
        for f in finishes
    ]
    ratings = list(Rating.objects.filter(user=user).select_related("game").order_by("game__name"))
    return {"events": events, "ratings": ratings}


def points_for(series: Series, place: int, size: int) -> int:
    return event_points(series.points_table, place, size)
