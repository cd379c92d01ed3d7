"""The organizer's live pages: the round dashboard, check-in and the event page each carry a fragment that
polls ``organizer_live`` (the same ``live.js`` the phones use) and opens with what needs the organizer now —
judge calls, disputes, tables out of time, results waiting for confirmation (``live.organizer``).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from .. import selectors, services
from ..live import VARY, etags_parse
from ..live.organizer import organizer_context, organizer_etag
from ..models import JudgeCall, Match, Player, Round, Tournament
from ..permissions import is_organizer
from .helpers import int_or, live_config, tournament_or_404

PAGES = ("round", "check_in", "event")


def live_url(tournament: Tournament, page: str, number: int | None = None) -> str:
    url = reverse("tournaments:organizer_live", args=[tournament.pk]) + f"?page={page}"
    return url + (f"&round={number}" if number else "")


def live_shell_context(request: HttpRequest, tournament: Tournament, page: str, number: int | None = None) -> dict[str, Any]:  # fmt: skip
    """What the full page needs to start polling: the fragment's URL and tag, and the script's settings."""
    etag = organizer_etag(
        tournament_id=tournament.pk, page=f"{page}{number or ''}", language=get_language() or "en"
    )
    return {"live_url": live_url(tournament, page, number), "etag": etag or "", "live_config": live_config(),
            "server_now": timezone.now()}  # fmt: skip


def round_dashboard_context(tournament: Tournament, round_: Round) -> dict[str, Any]:
    matches = selectors.round_with_matches(round_=round_)
    overtime = selectors.overtime_matches(round_)
    # Outstanding first: disputes, then matches without a settled result (late ones on top), then the rest.
    order = {Match.Status.DISPUTED: 0, Match.Status.PENDING: 1, Match.Status.REPORTED: 2}
    matches.sort(key=lambda m: (m.bye, order.get(m.status, 3), m.pk not in overtime, m.table))
    round_.match_count = len(matches)
    has_results = any(m.status != Match.Status.PENDING and not m.bye for m in matches) or any(
        m.games.all() for m in matches
    )
    is_latest = not tournament.round_set.filter(number__gt=round_.number).exists()
    penalties = services.penalty_counts(tournament)
    open_calls = set(
        JudgeCall.objects.filter(match__round=round_, answered_at__isnull=True).values_list(
            "match_id", flat=True
        )
    )
    players = sorted((s.player for m in matches for s in m.seats.all()), key=lambda p: p.name.casefold())
    return {
        **organizer_context(tournament.pk),
        "page_path": reverse("tournaments:round", args=[tournament.pk, round_.number]),
        "tournament": tournament,
        "round": round_,
        "matches": matches,
        "outstanding": sum(1 for m in matches if not m.bye and m.status in order),
        "timer": selectors.round_timer(round_),
        "overtime": overtime,
        "organizer": True,
        "has_results": has_results,
        "is_latest": is_latest,
        "top_cut": round_.kind == Round.Kind.TOP_CUT,
        "pods": tournament.match_format == Tournament.MatchFormat.PODS and round_.kind == Round.Kind.SWISS,
        "penalties": {pid: sum(kinds.values()) for pid, kinds in penalties.items()},
        "open_calls": open_calls,
        "can_mend": is_latest and not has_results and round_.kind == Round.Kind.SWISS,
        "round_players": players,
        "pairing_changes": list(round_.pairing_changes.select_related("actor")),
    }


def check_in_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    players = list(tournament.players.order_by("name", "id"))
    return {
        **organizer_context(tournament.pk),
        "page_path": reverse("tournaments:check_in", args=[tournament.pk]),
        "tournament": tournament,
        "players": players,
        "present": sum(1 for p in players if p.checked_in_at),
        # Waitlisted entries have no place to check in to.
        "seated": sum(1 for p in players if not p.waitlisted),
        "no_shows": [p for p in players if p.no_show],
        "can_restore": tournament.status != Tournament.Status.REGISTRATION
        and any(p.no_show for p in players)
        and not services.round_one_has_results(tournament),
        "penalties": {pid: sum(kinds.values()) for pid, kinds in services.penalty_counts(tournament).items()},
    }


def event_context(tournament: Tournament) -> dict[str, Any]:
    """The event page's live part for organizers: the next step and what needs them."""
    latest = tournament.round_set.order_by("-number").first()
    if latest is not None and latest.kind == Round.Kind.TOP_CUT:
        latest.match_count = latest.matches.count()
    return {
        **organizer_context(tournament.pk),
        "page_path": reverse("tournaments:detail", args=[tournament.pk]),
        "tournament": tournament,
        "latest": latest,
        "latest_complete": latest is not None and services.records.round_complete(latest),
        "swiss_done": latest is not None
        and latest.kind == Round.Kind.SWISS
        and latest.number >= (tournament.rounds or 0),
    }


TEMPLATES = {
    "round": "tournaments/_round_dashboard.html",
    "check_in": "tournaments/_check_in_live.html",
    "event": "tournaments/_event_live.html",
}


def render_fragment(request: HttpRequest, tournament: Tournament, page: str, round_: Round | None) -> str:
    if page == "round":
        assert round_ is not None
        context = round_dashboard_context(tournament, round_)
    elif page == "check_in":
        context = check_in_context(request, tournament)
    else:
        context = event_context(tournament)
    return render_to_string(TEMPLATES[page], context, request=request)


@require_GET
def organizer_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The polled fragment of an organizer's page: 304 while nothing it shows changed."""
    tournament = tournament_or_404(pk)
    if not is_organizer(tournament, request.user):
        raise PermissionDenied
    page = request.GET.get("page", "")
    if page not in PAGES:
        raise Http404
    number = int_or(request.GET.get("round")) if page == "round" else None
    round_ = get_object_or_404(Round, tournament=tournament, number=number or 0) if page == "round" else None
    language = get_language() or "en"
    etag = organizer_etag(tournament_id=pk, page=f"{page}{number or ''}", language=language)
    if etag is None:
        raise Http404
    if etag in etags_parse(request.headers.get("If-None-Match", "")):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(render_fragment(request, tournament, page, round_))
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    response["Vary"] = VARY
    return response


def player_in(tournament: Tournament, raw: Any) -> Player:
    """A player of this event named by a form field (404 for anything else)."""
    return get_object_or_404(Player, pk=int_or(raw, 0) or 0, tournament=tournament)
