"""Public pages: the series list, a series' standings, a player's history (events, places, decks, ratings)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournaments.permissions import can_organize_any

from . import selectors
from .models import RatingChange, Series


@require_GET
def series_list(request: HttpRequest) -> HttpResponse:
    return render(request, "seasons/series_list.html", {"series_list": selectors.series_list()[:200]})


@require_GET
def series_detail(request: HttpRequest, pk: int) -> HttpResponse:
    series = get_object_or_404(Series.objects.select_related("game"), pk=pk)
    rows, usernames = selectors.series_standings_compute(series)
    events = selectors.series_finishes(series)
    return render(
        request,
        "seasons/series_detail.html",
        {
            "series": series,
            "rows": [(row, usernames.get(row.key)) for row in rows],
            "events": [event for event, _finishes in events],
            "tiers": sorted(series.points_table.get("tiers", []), key=lambda t: t["min_players"]),
        },
    )


@require_GET
def rating_audit(request: HttpRequest, username: str) -> HttpResponse:
    """Organizers: every event that moved this player's ratings, with matches and distinct opponents, so a
    rating lifted by a few events against the same accounts shows at a glance."""
    if not can_organize_any(request.user):
        raise PermissionDenied
    person = get_object_or_404(get_user_model(), username=username, is_active=True)
    changes = (
        RatingChange.objects.filter(user=person)
        .select_related("game", "tournament")
        .order_by("game__name", "created_at", "id")[:1000]
    )
    return render(request, "seasons/rating_audit.html", {"person": person, "changes": changes})


@require_GET
def player_history(request: HttpRequest, username: str) -> HttpResponse:
    person = get_object_or_404(get_user_model(), username=username, is_active=True)
    history = selectors.player_history(person, request.user)
    return render(
        request,
        "seasons/player_history.html",
        {"person": person, "can_audit": can_organize_any(request.user), **history},
    )
