"""The event's public pages: the list of events, an event's page, standings, the bracket and deck lists.

Everyone opens these; what an organizer or a registered player sees in addition is decided here from
``is_organizer`` / ``player_for_user``, and every write they offer goes to another module's view.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from decks.models import Deck

from .. import live, services
from ..live import standings as live_standings
from ..models import Player, Round, Tournament
from ..permissions import can_organize_any, can_see_decklist, is_organizer, player_for_user
from ..printables import documents as printables
from ..reads import selectors
from ..reads.teams import label_two_headed_seats, two_headed_labels
from . import dashboard
from .helpers import (
    int_or,
    join_url,
    live_config,
    phone_origin,
    qr_svg,
    tournament_or_404,
)
from .projector import live_shell
from .reports import team_rows_labelled


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/list.html",
        {
            "tournaments": selectors.tournament_list()[:200],
            "can_create": can_organize_any(request.user),
            # Registrations and team seats organizers asked of you: answered here, on your phone.
            "entry_requests": services.open_entry_requests(request.user),
            "team_invites": services.open_team_invites(request.user),
        },
    )


@require_GET
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    organizer = is_organizer(tournament, request.user)
    me = player_for_user(tournament, request.user)
    rounds = list(tournament.round_set.order_by("number").annotate(match_count=Count("matches")))
    if not organizer:
        rounds = [r for r in rounds if not r.draft]  # a draft round is the organizers' until published
    latest = rounds[-1] if rounds else None
    my_match = None
    if me is not None and latest is not None:
        my_match = latest.matches.filter(seats__player=me).first()
    my_decks = []
    if request.user.is_authenticated and tournament.deck_registration:
        my_decks = list(Deck.objects.filter(owner=request.user, game=tournament.game).order_by("name"))
    players = _players_listing(request, tournament, me, organizer)
    live_part: dict[str, Any] = {}
    if organizer:
        live_part = dashboard.live_shell_context(request, tournament, "event")
        live_part["fragment"] = render_to_string(
            "tournaments/_event_live.html", dashboard.event_context(tournament), request=request
        )
    return render(
        request,
        "tournaments/detail.html",
        {
            **live_part,
            "tournament": tournament,
            "organizer": organizer,
            "me": me,
            **players,
            "join_qr": _join_qr(request, tournament)
            if organizer and tournament.status == "registration"
            else "",
            "phone": phone_origin(request) if organizer else None,
            # On the venue's own network the event page is only seen in the room, where the code is on the
            # poster anyway; online the code stays on the organizer's pages (it is what admits people).
            "join_prefill": tournament.join_code if settings.VENUE_MODE else "",
            "rounds": rounds,
            "latest": latest,
            "latest_complete": latest is not None and services.records.round_complete(latest),
            "my_match": my_match,
            "my_decks": my_decks,
            "registration_open": services.registration_open(tournament),
            "entry_requests": services.open_entry_requests(request.user, tournament),
            "team_entry": {
                "invites": services.open_invites(tournament, request.user),
                "captain": services.team_of_captain(tournament, request.user),
                "mate_seats": [{"seat": s, "letter": "ABC"[s]} for s in range(1, tournament.team_size)],
            }
            if tournament.team_size > 1 and tournament.status == Tournament.Status.REGISTRATION
            else None,
            "decks_frozen": services.decks_frozen(tournament),
            "uses_pool": tournament.deck_registration and services.format_uses_pool(tournament),
            "champion": selectors.tournament_champion(tournament),
            "entry_changes": selectors.entry_changes(tournament) if organizer else [],
            "late_entry_refusal": services.late_entry_refusal(tournament)
            if tournament.status == Tournament.Status.RUNNING
            else None,
            "swiss_done": latest is not None
            and latest.kind == Round.Kind.SWISS
            and latest.number >= (tournament.rounds or 0),
        },
    )


# Players listed per page of the event page: a 2,000-player event is found by name, not scrolled through,
# and the page stays a few kilobytes on a phone.
PLAYERS_PER_PAGE = 100


def _players_listing(
    request: HttpRequest, tournament: Tournament, me: Player | None, organizer: bool
) -> dict[str, Any]:
    """One page of the (searchable) player list, the visitor's own entry first, and the counts the page
    shows — read with counts and one page of rows, never every player's deck document."""
    q, p = dashboard.list_query(request)
    everyone = tournament.players.all()
    active = everyone.filter(dropped_at_round__isnull=True)
    line = list(active.filter(waitlisted=True).order_by("pk").values_list("pk", flat=True))
    found = (everyone.filter(name__icontains=q) if q else everyone).select_related("user")
    # Whether a deck is registered, not the deck itself (a document of kilobytes per player).
    found = found.defer("deck", "pool", "deck_report").annotate(has_deck=Q(deck__isnull=False))
    listing = Paginator(found.order_by("name", "id"), PLAYERS_PER_PAGE).get_page(p)
    rows = list(listing.object_list)
    if me is not None and all(row.pk != me.pk for row in rows):
        rows.insert(0, found.get(pk=me.pk) if found.filter(pk=me.pk).exists() else
                    everyone.annotate(has_deck=Q(deck__isnull=False)).get(pk=me.pk))  # fmt: skip
    places = {pk: number for number, pk in enumerate(line, start=1)}
    for row in rows:
        row.waitlist_number = places.get(row.pk)
    undoable = {r.pk for r in rows if organizer and r.dropped and services.drop_undoable(tournament, r)}
    return {
        "players": rows,
        "players_total": everyone.count(),
        "players_listing": listing,
        "players_q": q,
        "players_links": dashboard.page_links(listing, q),
        "undoable_drops": undoable,
        "waitlist": line,
        "entered": active.filter(waitlisted=False).count(),
    }


def _join_qr(request: HttpRequest, tournament: Tournament) -> str:
    return qr_svg(join_url(request, tournament), scale=3)


@require_GET
def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """Standings as a live page: a page of 50 places (the player's own place first on their phone), the
    whole list with ``?all=1`` (projector, print), a search by name with ``?q=``. The list is computed once
    per change and polled as a fragment (``live.standings``)."""
    tournament = tournament_or_404(pk)
    base = reverse("tournaments:standings", args=[pk])
    full = bool(request.GET.get("all"))
    # A page being opened shows the latest results; the polls may trail them by a few seconds (every_s).
    polled = bool(request.GET.get("fragment"))
    data = live_standings.standings_data(pk, fresh=not polled)
    if data is None:
        raise Http404
    # Only pages that exist get a cache entry (made-up page numbers would each store a render).
    pages = live_standings.page_count(data[1])
    number = 0 if full else min(max(int_or(request.GET.get("page"), 1) or 1, 1), pages)
    if polled:
        mine = 0 if full else max(int_or(request.GET.get("me"), 0) or 0, 0)
        response = live.fragment_page(
            request, tournament_id=pk, page=live_standings.page_name(number=number, mine=mine),
            entry=lambda: live_standings.standings_fragment(tournament=tournament, number=number, mine=mine,
                                                            url=base),
        )  # fmt: skip
        if response is None:
            raise Http404
        return response
    me = player_for_user(tournament, request.user) if request.user.is_authenticated else None
    mine = me.pk if me is not None and not me.waitlisted else None
    context: dict[str, Any] = {"tournament": tournament, "base_url": base, "full": full, "mine": mine}
    if tournament.team_size > 1:
        # A team event is won by teams: their standings first, named with their members (per request, as the
        # team page reads them; team events are small).
        context["team_rows"] = team_rows_labelled(tournament)
    query = request.GET.get("q", "").strip()[:60]
    if query:
        context.update(live_standings.search(tournament, query), query=query)
        return render(request, "tournaments/standings.html", context)
    own = None if full else mine
    entry = live_standings.standings_fragment(
        tournament=tournament, number=number, mine=own, url=base, fresh=True
    )
    if entry is None:
        raise Http404
    query_string = f"?fragment=1&page={number}" + ("&all=1" if full else "") + (f"&me={own}" if own else "")
    # Our own template output (escaped when it was rendered).
    context.update(fragment=mark_safe(live.entry_html(entry)), etag=entry[0], live_url=base + query_string,  # noqa: S308
                   live_config=live_config(poll_ms=live_standings.POLL_MS))  # fmt: skip
    return render(request, "tournaments/standings.html", context)


@require_GET
def bracket(request: HttpRequest, pk: int) -> HttpResponse:
    """The top cut as a live page: the bracket is rendered once per change and language and polled as a
    fragment; the organizer's button stays outside it, in the per-request shell."""

    def render_fragment() -> str:
        tournament = tournament_or_404(pk)
        rounds = selectors.top_cut_rounds(tournament)
        champion = selectors.tournament_champion(tournament)
        label_two_headed_seats(tournament, [m for _round, matches in rounds for m in matches])
        return render_to_string("tournaments/_live_bracket.html", {"tournament": tournament,
                                "rounds": rounds, "champion": champion,
                                "champion_label": two_headed_labels(tournament).get(getattr(champion, "pk", 0), "")})  # fmt: skip

    shell = None
    if not request.GET.get("fragment"):
        shell = {"organizer": is_organizer(tournament_or_404(pk), request.user)}
    return live_shell(request, tournament_id=pk, page="bracket", template="tournaments/bracket.html",
                      fragment_url=reverse("tournaments:bracket", args=[pk]) + "?fragment=1",
                      render_fragment=render_fragment, shell=shell)  # fmt: skip


@require_GET
def decklists(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    return render(
        request,
        "tournaments/decklists.html",
        {
            "tournament": tournament,
            "players": printables.decklist_entries(selectors.visible_decklists(tournament, request.user)),
        },
    )


@require_GET
def player_deck(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    if not can_see_decklist(tournament, player, request.user):
        raise Http404
    return render(
        request,
        "tournaments/decklists.html",
        {"tournament": tournament, "players": printables.decklist_entries([player]), "single": True},
    )
