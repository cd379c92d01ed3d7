"""The organizer's live pages: the round dashboard, check-in and the event page each carry a fragment that
polls ``organizer_live`` (the same ``live.js`` the phones use) and opens with what needs the organizer now —
judge calls, disputes, tables out of time, results waiting for confirmation (``live.organizer``).

At a 2,000-player event these pages stay cheap while the room polls: the round's fragment holds only the
tables that need someone (the full match list is a paginated, searchable part of the page that does not
poll), the check-in list is one searchable page of 50 names, counts come from grouped queries, and a
fragment is rendered once per tag for every organizer of the event (it carries no CSRF token: the page
around it carries one, and ``organizer.js`` adds it to the form being sent).
"""

from __future__ import annotations

from typing import Any, NamedTuple
from urllib.parse import urlencode

from django.core.exceptions import PermissionDenied
from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET

from .. import services
from ..live import VARY, etags_parse
from ..live.organizer import (
    fragment_cached,
    organizer_context,
    organizer_etag,
    round_attention,
    round_counts,
    seats_prefetch,
)
from ..models import JudgeCall, Match, Player, Round, Tournament
from ..permissions import is_organizer
from ..reads import selectors
from ..reads.teams import label_two_headed_seats, two_headed_labels
from .helpers import int_or, live_config, tournament_or_404

PAGES = ("round", "check_in", "event")


class _Named(NamedTuple):
    """A player in a menu of names: three columns instead of a model instance per entry."""

    pk: int
    name: str
    fixed_table: int | None


# Unsettled tables the round's live fragment shows (most urgent first); the rest are counted and found in
# the full list below it.
ATTENTION_ROWS = 25
# Rows per page of the round's full match list and of the check-in list (a search finds anyone at once).
LIST_ROWS = 50
MAX_QUERY = 100


def list_query(request: HttpRequest) -> tuple[str, int]:
    """The search and page number of a list (a page number that is not one is the first page)."""
    q = (request.GET.get("q") or "").strip()[:MAX_QUERY]
    return q, max(1, int_or(request.GET.get("p"), 1) or 1)


def live_url(tournament: Tournament, page: str, number: int | None = None, q: str = "", p: int = 1) -> str:
    params: dict[str, Any] = {"page": page}
    if number:
        params["round"] = number
    if q:
        params["q"] = q
    if p > 1:
        params["p"] = p
    return reverse("tournaments:organizer_live", args=[tournament.pk]) + "?" + urlencode(params)


def _tag_page(page: str, number: int | None, q: str, p: int) -> str:
    return f"{page}{number or ''}" + (f"|{q}|{p}" if page == "check_in" else "")


def live_shell_context(request: HttpRequest, tournament: Tournament, page: str, number: int | None = None) -> dict[str, Any]:  # fmt: skip
    """What the full page needs to start polling: the fragment's URL and tag, and the script's settings."""
    q, p = list_query(request) if page == "check_in" else ("", 1)
    etag = organizer_etag(
        tournament_id=tournament.pk, page=_tag_page(page, number, q, p), language=get_language() or "en"
    )
    return {"live_url": live_url(tournament, page, number, q, p), "etag": etag or "",
            "live_config": live_config(), "server_now": timezone.now()}  # fmt: skip


def round_dashboard_context(tournament: Tournament, round_: Round) -> dict[str, Any]:
    """The round's live fragment: the clock, counts by state and the tables that need someone."""
    overtime = selectors.overtime_matches(round_)
    open_calls = set(
        JudgeCall.objects.filter(match__round=round_, answered_at__isnull=True).values_list(
            "match_id", flat=True
        )
    )
    counts = round_counts(round_)
    matches, unsettled = round_attention(round_, overtime=overtime, calls=open_calls, limit=ATTENTION_ROWS)
    label_two_headed_seats(tournament, matches)  # Two-Headed Giant: each seat names its team
    round_.match_count = sum(counts.values())
    facts = round_facts(tournament, round_, counts)
    penalties = services.penalty_counts(tournament)
    return {
        **organizer_context(tournament.pk),
        **facts,
        "page_path": reverse("tournaments:round", args=[tournament.pk, round_.number]),
        "tournament": tournament,
        "round": round_,
        "matches": matches,
        "counts": counts,
        "outstanding": unsettled,
        "more_outstanding": unsettled - len(matches),
        "timer": selectors.round_timer(round_),
        "overtime": overtime,
        "organizer": True,
        "penalties": {pid: sum(kinds.values()) for pid, kinds in penalties.items()},
        "open_calls": open_calls,
        "pairing_changes": list(round_.pairing_changes.select_related("actor")),
    }


def round_facts(
    tournament: Tournament, round_: Round, counts: dict[str, int] | None = None
) -> dict[str, Any]:
    """What the round's controls depend on: latest round, results in, pods, mending allowed."""
    counts = counts if counts is not None else round_counts(round_)
    settled = sum(n for status, n in counts.items() if status not in ("bye", Match.Status.PENDING))
    has_results = settled > 0 or round_.matches.filter(games__isnull=False).exists()
    is_latest = not tournament.round_set.filter(number__gt=round_.number).exists()
    return {
        "has_results": has_results,
        "is_latest": is_latest,
        "top_cut": round_.kind == Round.Kind.TOP_CUT,
        "pods": tournament.match_format == Tournament.MatchFormat.PODS and round_.kind == Round.Kind.SWISS,
        "can_mend": is_latest and not has_results and round_.kind == Round.Kind.SWISS,
    }


def _matches_found(round_: Round, q: str) -> QuerySet[Match]:
    matches = round_.matches.order_by("table")
    if not q:
        return matches
    by_name = Q(seats__player__name__icontains=q)
    if round_.tournament.team_size > 1:
        # A team's name, or (Two-Headed Giant) seat B's name, finds the table its seat A player holds.
        team = "seats__player__team_member__team"
        by_name |= Q(**{f"{team}__name__icontains": q}) | Q(
            **{f"{team}__members__player__name__icontains": q}
        )
    return matches.filter(by_name | Q(table=int(q)) if q.isdecimal() else by_name).distinct()


def round_page_context(request: HttpRequest, tournament: Tournament, round_: Round) -> dict[str, Any]:
    """The full page around the fragment: one page of the searchable match list, and the mending tools
    (their player menus only before the round has a result, the one time they can be used)."""
    q, p = list_query(request)
    listing = Paginator(_matches_found(round_, q), LIST_ROWS).get_page(p)
    listing.object_list = list(listing.object_list.prefetch_related(seats_prefetch()))
    label_two_headed_seats(tournament, listing.object_list)
    facts = round_facts(tournament, round_)
    players: list[_Named] = []
    if facts["can_mend"]:
        found = Player.objects.filter(seats__match__round=round_).values_list("id", "name", "fixed_table")
        teams = two_headed_labels(tournament)  # Two-Headed Giant: a seat A player stands for the team
        players = sorted((_Named(pk, teams.get(pk, name), table) for pk, name, table in found),
                         key=lambda p: (p.name.casefold(), p.pk))  # fmt: skip
    return {**facts, "listing": listing, "q": q, "page_links": page_links(listing, q),
            **_player_options(players), "organizer": True,
            "page_path": reverse("tournaments:round", args=[tournament.pk, round_.number])}  # fmt: skip


def _player_options(players: list[_Named]) -> dict[str, str]:
    """The mending tools' six menus of every player of the round, built once each: right after a pairing
    of 2,000 players, six template loops over 2,000 names were most of the dashboard's load."""
    tables = gettext("table")
    return {
        "player_options": format_html_join("", '<option value="{}">{}</option>', ((p.pk, p.name) for p in players)),
        "player_options_tables": format_html_join(
            "", '<option value="{}">{}{}</option>',
            ((p.pk, p.name, f" ({tables} {p.fixed_table})" if p.fixed_table else "") for p in players),
        ),
    }  # fmt: skip


def _list_query_string(q: str, p: int) -> str:
    params = {**({"q": q} if q else {}), **({"p": p} if p > 1 else {})}
    return "?" + urlencode(params) if params else ""


def page_links(listing: Page, q: str) -> dict[str, str]:
    """Query strings of the previous and next page (the search kept)."""
    links = {}
    if listing.has_previous():
        links["previous"] = "?" + urlencode({**({"q": q} if q else {}), "p": listing.previous_page_number()})
    if listing.has_next():
        links["next"] = "?" + urlencode({**({"q": q} if q else {}), "p": listing.next_page_number()})
    return links


def check_in_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """Check-in: counts by state and one page of the (searchable) list of players."""
    q, p = list_query(request)
    everyone = tournament.players.all()
    found = everyone.filter(name__icontains=q) if q else everyone
    # Whether a deck is registered, not the deck itself (a document of kilobytes per player).
    found = found.defer("deck", "pool", "deck_report").annotate(has_deck=Q(deck__isnull=False))
    listing = Paginator(found.order_by("name", "id"), LIST_ROWS).get_page(p)
    # Who is here of those who have a place: a drop or a waitlisted entry is not a player to wait for.
    playing = everyone.filter(waitlisted=False, dropped_at_round__isnull=True)
    present = playing.filter(checked_in_at__isnull=False).count()
    shown = list(listing.object_list)
    undoable = {p.pk for p in shown if p.dropped and services.drop_undoable(tournament, p)}
    no_shows = everyone.filter(no_show=True).exists()
    return {
        **organizer_context(tournament.pk),
        "page_path": reverse("tournaments:check_in", args=[tournament.pk]),
        # Where the list's forms come back to: the same search and page.
        "list_path": reverse("tournaments:check_in", args=[tournament.pk]) + _list_query_string(q, p),
        "tournament": tournament,
        "players": shown,
        "undoable_drops": undoable,
        "listing": listing,
        "q": q,
        "page_links": page_links(listing, q),
        "present": present,
        # Waitlisted entries have no place to check in to.
        "seated": playing.count(),
        "over_cap": services.admitted_over_cap(tournament),
        "waitlist_open": services.waitlist_may_move_up(tournament),
        "next_round": services.latest_swiss_round(tournament) + 1,
        "can_restore": tournament.status != Tournament.Status.REGISTRATION
        and no_shows
        and not services.round_one_has_results(tournament),
        "penalties": {pid: sum(kinds.values()) for pid, kinds in services.penalty_counts(tournament).items()},
    }


def check_in_page_context(tournament: Tournament, players: list[Player]) -> dict[str, Any]:
    """The full check-in page around the fragment: the fixed-table tool offers the players of the page
    shown (search for anyone first) — a menu of every name of a 2,000-player event would weigh more than
    the rest of the page."""
    if tournament.status == Tournament.Status.FINISHED:
        return {"fixable": []}
    return {"fixable": [_Named(p.pk, p.name, p.fixed_table) for p in players if p.dropped_at_round is None]}


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


def render_fragment(
    request: HttpRequest, tournament: Tournament, page: str, round_: Round | None, *, full_page: bool = False
) -> str:
    if page == "round":
        assert round_ is not None
        context = round_dashboard_context(tournament, round_)
    elif page == "check_in":
        context = check_in_context(request, tournament)
    else:
        context = event_context(tournament)
    # Polled fragments are shared by every organizer of the event (cached per tag), so they carry no token:
    # organizer.js adds the page's one token to the form sent. A full page load renders them with a token per
    # form, so the forms of a page opened with JavaScript off still work.
    context["live_fragment"] = not full_page
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
    q, p = list_query(request) if page == "check_in" else ("", 1)
    language = get_language() or "en"
    etag = organizer_etag(tournament_id=pk, page=_tag_page(page, number, q, p), language=language)
    if etag is None:
        raise Http404
    if etag in etags_parse(request.headers.get("If-None-Match", "")):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(
            fragment_cached(etag, lambda: render_fragment(request, tournament, page, round_))
        )
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    response["Vary"] = VARY
    return response


def player_in(tournament: Tournament, raw: Any) -> Player:
    """A player of this event named by a form field (404 for anything else)."""
    return get_object_or_404(Player, pk=int_or(raw, 0) or 0, tournament=tournament)
