"""Pages: the series list, a series' standings, a player's history, and the organizer's series pages (create,
edit the points table and best N, add and remove events — from the series or from an event's page)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cards.models import Game
from tournaments.models import Tournament
from tournaments.permissions import can_organize_any, is_organizer

from . import selectors, services
from .engine.points import DEFAULT_TABLE, TierLineError, tiers_from_text, tiers_to_text
from .models import RatingChange, Series


@require_GET
def series_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "seasons/series_list.html",
        {"series_list": selectors.series_list()[:200], "can_create": can_organize_any(request.user)},
    )


def _is_owner(series: Series, user: Any) -> bool:
    return bool(user.is_authenticated and (user.is_staff or series.created_by_id == user.id))


def _own_events(user: Any, game_id: int) -> list[Tournament]:
    """The events of a game this user organizes (newest first), the ones a series of theirs can take."""
    recent = (
        Tournament.objects.filter(game_id=game_id).select_related("game").order_by("-created_at", "-id")[:300]
    )
    return [event for event in recent if is_organizer(event, user)]


@require_GET
def series_detail(request: HttpRequest, pk: int) -> HttpResponse:
    series = get_object_or_404(Series.objects.select_related("game"), pk=pk)
    rows, usernames = selectors.series_standings_compute(series)
    events = [event for event, _finishes in selectors.series_finishes(series)]
    owner = _is_owner(series, request.user)
    in_series = {event.pk for event in events}
    return render(
        request,
        "seasons/series_detail.html",
        {
            "series": series,
            "rows": [(row, usernames.get(row.key)) for row in rows],
            "events": events,
            "tiers": sorted(series.points_table.get("tiers", []), key=lambda t: t["min_players"]),
            "owner": owner,
            "addable": [e for e in _own_events(request.user, series.game_id) if e.pk not in in_series]
            if owner
            else [],
        },
    )


def _form_values(post: Any) -> tuple[dict[str, Any], dict[str, str]]:
    """The series fields from a page's form, and the errors of those that cannot even be read."""
    errors: dict[str, str] = {}
    values: dict[str, Any] = {"name": post.get("name", "")}
    try:
        values["best_of"] = int(post.get("best_of") or 0)
    except ValueError:
        errors["best_of"] = _("Best of must be a whole number (0: every event counts).")
    try:
        participation = int(post.get("participation") or 0)
    except ValueError:
        participation = -1
    try:
        tiers = tiers_from_text(post.get("tiers", ""))
    except TierLineError as error:
        errors["points_table"] = _(
            "Line %(n)s of the points table cannot be read: “%(text)s”. Write it as “16+: 1=10, 2=7, 4=5”."
        ) % {"n": error.line, "text": error.text[:80]}
        tiers = []
    values["points_table"] = {"participation": participation, "tiers": tiers}
    return values, errors


def _errors_of(error: ValidationError) -> dict[str, str]:
    if hasattr(error, "message_dict"):
        return {field: " ".join(texts) for field, texts in error.message_dict.items()}
    return {"form": " ".join(error.messages)}


def _form_page(
    request: HttpRequest, *, series: Series | None, data: dict[str, Any], errors: dict[str, str]
) -> HttpResponse:
    return render(
        request,
        "seasons/series_form.html",
        {
            "series": series,
            "data": data,
            "errors": errors,
            "games": Game.objects.order_by("name") if series is None else [],
        },
        status=400 if errors else 200,
    )


def _initial(series: Series | None) -> dict[str, Any]:
    table = series.points_table if series is not None else DEFAULT_TABLE
    return {
        "name": series.name if series else "",
        "best_of": series.best_of if series else 0,
        "participation": table.get("participation", 0),
        "tiers": tiers_to_text(table),
        "game": series.game.slug if series else "",
    }


@login_required
@require_http_methods(["GET", "POST"])
def series_new(request: HttpRequest) -> HttpResponse:
    if not can_organize_any(request.user):
        raise PermissionDenied(_("Only organizers may create a series."))
    if request.method == "GET":
        initial = _initial(None)
        initial["game"] = request.GET.get("game", "")
        return _form_page(request, series=None, data=initial, errors={})
    values, errors = _form_values(request.POST)
    game = Game.objects.filter(slug=request.POST.get("game", "")).first()
    if game is None:
        errors["game"] = _("Choose the game of the series.")
    if not errors:
        try:
            series = services.series_create(by=request.user, game=game, **values)
        except ValidationError as error:
            errors = _errors_of(error)
        else:
            messages.success(request, _("Series created. Add its events below."))
            return redirect("seasons:series", pk=series.pk)
    return _form_page(request, series=None, data=request.POST.dict(), errors=errors)


@login_required
@require_http_methods(["GET", "POST"])
def series_edit(request: HttpRequest, pk: int) -> HttpResponse:
    series = get_object_or_404(Series.objects.select_related("game"), pk=pk)
    services.require_series_owner(series, request.user)
    if request.method == "GET":
        return _form_page(request, series=series, data=_initial(series), errors={})
    values, errors = _form_values(request.POST)
    if not errors:
        try:
            services.series_update(series=series, by=request.user, **values)
        except ValidationError as error:
            errors = _errors_of(error)
        else:
            messages.success(request, _("Series saved: the standings use the new points at once."))
            return redirect("seasons:series", pk=series.pk)
    return _form_page(request, series=series, data=request.POST.dict(), errors=errors)


def _event_from_post(request: HttpRequest) -> Tournament | None:
    raw = request.POST.get("tournament", "")
    if not raw.isdecimal() or len(raw) > 18:
        return None
    return Tournament.objects.select_related("game").filter(pk=int(raw)).first()


@login_required
@require_POST
def series_event_add(request: HttpRequest, pk: int) -> HttpResponse:
    series = get_object_or_404(Series.objects.select_related("game"), pk=pk)
    tournament = _event_from_post(request)
    if tournament is None:
        messages.error(request, _("Choose one of your events to add."))
        return redirect("seasons:series", pk=series.pk)
    try:
        services.series_add_event(series=series, by=request.user, tournament=tournament)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("“%(event)s” now counts for this series.") % {"event": tournament.name})
    if request.POST.get("back") == "event":
        return redirect("tournaments:detail", pk=tournament.pk)
    return redirect("seasons:series", pk=series.pk)


@login_required
@require_POST
def series_event_remove(request: HttpRequest, pk: int, tournament_id: int) -> HttpResponse:
    series = get_object_or_404(Series, pk=pk)
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        services.series_remove_event(series=series, by=request.user, tournament=tournament)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request, _("“%(event)s” no longer counts for this series.") % {"event": tournament.name}
        )
    return redirect("seasons:series", pk=series.pk)


@login_required
@require_GET
def event_series(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """From an event's page: the organizer's series of its game, to add the event to one (or start one)."""
    tournament = get_object_or_404(Tournament.objects.select_related("game"), pk=tournament_id)
    if not is_organizer(tournament, request.user):
        raise PermissionDenied(_("Only the event's organizers may add it to a series."))
    mine = Series.objects.filter(game_id=tournament.game_id).select_related("game")
    if not request.user.is_staff:
        mine = mine.filter(created_by=request.user)
    current = set(tournament.series.values_list("pk", flat=True))
    return render(
        request,
        "seasons/event_series.html",
        {"tournament": tournament, "choices": [(s, s.pk in current) for s in mine[:200]]},
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
