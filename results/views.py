"""The metagame page and the organizers' archetype review queue."""

from __future__ import annotations

import csv
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from seasons.models import Series
from tournaments.models import Player, Tournament
from tournaments.permissions import is_organizer, require_organizer
from tournaments.reads.selectors import standings_compute

from . import calendar, charts, selectors, services
from .models import DeckArchetype, PublishedEvent, Webhook, WebhookDelivery
from .webhooks import webhook_create


@require_GET
def metagame(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("game"), pk=pk)
    data = selectors.metagame(tournament, request.user)
    # The SVG is built from escaped names and numbers only (charts.share_bars).
    chart = mark_safe(charts.share_bars(data["archetypes"])) if data["archetypes"] else ""  # noqa: S308
    return render(request, "results/metagame.html", {"tournament": tournament, "data": data, "chart": chart,
                                                      "organizer": is_organizer(tournament, request.user)})  # fmt: skip


def _ics(request: HttpRequest, name: str, tournaments: Any, filename: str) -> HttpResponse:
    base = f"{request.scheme}://{request.get_host()}"
    body = calendar.feed(name, tournaments, host=request.get_host().split(":")[0], base_url=base)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}.ics"'
    return response


@require_GET
def series_calendar(request: HttpRequest, pk: int) -> HttpResponse:
    """A series' events as an ICS feed (subscribe once, updates follow: UIDs are stable)."""
    series = get_object_or_404(Series, pk=pk)
    events = series.events.select_related("game").order_by("created_at", "pk")
    return _ics(request, series.name, events, f"series-{series.pk}")


@require_GET
def store_calendar(request: HttpRequest) -> HttpResponse:
    """Every event of this Deckhall site (the store's own) as one ICS feed."""
    events = Tournament.objects.select_related("game").order_by("created_at", "pk")[:2000]
    return _ics(request, _("Events"), events, "events")


@login_required
@require_http_methods(["GET", "POST"])
def webhooks(request: HttpRequest) -> HttpResponse:
    """An organizer's webhooks (add one here) and the delivery log: each event, its attempts, the answer."""
    if request.method == "POST":
        try:
            webhook_create(by=request.user, url=request.POST.get("url", "").strip(),
                           events=request.POST.getlist("events"), secret=request.POST.get("secret", ""))  # fmt: skip
            messages.success(request, _("Webhook added."))
        except ValidationError as error:
            messages.error(request, " ".join(m for ms in error.message_dict.values() for m in ms))
        except PermissionDenied as error:
            messages.error(request, str(error))
        return redirect("results:webhooks")
    hooks = list(Webhook.objects.filter(owner=request.user))
    log = (WebhookDelivery.objects.filter(webhook__owner=request.user).select_related("webhook", "tournament")
           .order_by("-id")[:200])  # fmt: skip
    return render(request, "results/webhooks.html", {"hooks": hooks, "log": log, "events": Webhook.EVENTS})


@require_GET
def published(request: HttpRequest, pk: int) -> HttpResponse:
    """A venue event published here: its standings, archetypes and the lists that were public there."""
    row = get_object_or_404(PublishedEvent, pk=pk)
    doc = row.document
    names = {p["id"]: p for p in doc.get("players", [])}
    standings = [{**r, "entry": names.get(r["player"], {})} for r in doc.get("standings", [])]
    return render(request, "results/published.html", {"row": row, "standings": standings})


@require_GET
def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings as CSV (public like the standings page): rank, name, points, record, tiebreakers, cut."""
    tournament = get_object_or_404(Tournament, pk=pk)
    rows = standings_compute(tournament=tournament) if tournament.round_set.exists() else []
    keys = sorted({k for row in rows for k in (row.get("tiebreakers") or {})})
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="standings-{tournament.pk}.csv"'
    writer = csv.writer(response)
    writer.writerow(
        ["rank", "player", "name", "points", "wins", "losses", "draws", "dropped", "top_cut", *keys]
    )
    for row in rows:
        # A name starting with = + - @ would be a formula in a spreadsheet: quoted as text.
        name = "'" + row["name"] if row["name"][:1] in ("=", "+", "-", "@") else row["name"]
        writer.writerow([row["rank"], row["player"], name, row["points"], row["wins"], row["losses"], row["draws"],
                         int(bool(row["dropped"])), row.get("top_cut") or "",
                         *[(row.get("tiebreakers") or {}).get(k, "") for k in keys]])  # fmt: skip
    return response


@require_GET
def series_metagame(request: HttpRequest, pk: int) -> HttpResponse:
    """A series' metagame: its events added up, each under its own deck list timeline."""
    series = get_object_or_404(Series, pk=pk)
    events = list(series.events.select_related("game").order_by("created_at", "pk"))
    data = selectors.metagame_of_events(events, request.user)
    chart = mark_safe(charts.share_bars(data["archetypes"])) if data["archetypes"] else ""  # noqa: S308
    return render(request, "results/metagame.html", {"series": series, "data": data, "chart": chart})


@login_required
@require_http_methods(["GET", "POST"])
def review(request: HttpRequest, pk: int) -> HttpResponse:
    """Decks no rule caught, or two rules did: a human label wins and is kept."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if not is_organizer(tournament, request.user):
        raise PermissionDenied
    if request.method == "POST":
        player = get_object_or_404(Player, pk=request.POST.get("player") or 0, tournament=tournament)
        try:
            services.archetype_set(player=player, by=request.user, name=request.POST.get("name", ""))
            messages.success(request, _("Archetype saved."))
        except ValidationError as error:
            messages.error(request, " ".join(m for ms in error.message_dict.values() for m in ms))
        return redirect("results:review", pk=pk)
    require_organizer(tournament, request.user)
    labels = services.archetypes_of(tournament)
    queue = [a for a in labels.values() if a.needs_review]
    decided = [a for a in labels.values() if a.source == DeckArchetype.Source.HUMAN]
    players = {p.pk: p for p in tournament.players.filter(pk__in=[a.player_id for a in queue + decided])}
    rows = [{"label": a, "player": players[a.player_id]} for a in queue]
    kept = [{"label": a, "player": players[a.player_id]} for a in decided]
    return render(request, "results/review.html", {"tournament": tournament, "rows": rows, "kept": kept})
