"""Pages many people watch at once: the projector (pairings, standings, clock), the players' pairings page
and the public round table. Each is a tiny shell around a fragment rendered once per change and language
and kept in the cache (``live.shared``); the fragment is what the pages poll.
"""

from __future__ import annotations

import html
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from .. import live
from ..live import standings as live_standings
from ..models import Round, Tournament
from ..permissions import is_organizer
from ..printables import documents as printables
from ..reads import selectors
from ..reads.teams import label_two_headed_seats
from ..services.rounds import collector_paused
from .helpers import (
    int_or,
    join_url,
    live_config,
    qr_svg,
    tournament_or_404,
)


def live_shell(request: HttpRequest, *, tournament_id: int, page: str, template: str, fragment_url: str,
                render_fragment: Any, shell: dict[str, Any] | None = None, **extra: Any) -> HttpResponse:  # fmt: skip
    """A shared page: its fragment polls answer 304 or come from the cache; the full page is a tiny shell
    rendered per request (it carries the server's clock for the timer) around the cached fragment."""
    if request.GET.get("fragment"):
        response = live.shared_page(request, tournament_id=tournament_id, page=page, render=render_fragment)
        if response is None:
            raise Http404
        return response
    entry = live.shared_entry(tournament_id=tournament_id, page=page, render=render_fragment)
    if entry is None:
        raise Http404
    etag = entry[0]
    # Our own template output (escaped when it was rendered), kept as bytes in the cache.
    fragment = mark_safe(live.entry_html(entry))  # noqa: S308
    tournament = tournament_or_404(tournament_id)
    return render(
        request,
        template,
        {"tournament": tournament, "fragment": fragment, "live_url": fragment_url, "etag": etag,
         "server_now": timezone.now(), "page": page, "live_config": live_config(**extra), **(shell or {})},
    )  # fmt: skip


def pairing_rows_html(rows: list[dict[str, Any]]) -> str:
    """The rows of the pairings page (one per player, by name), written in Python: the template loop cost
    about 0.6 s per render at 16,384 players, every time a round is posted. The same markup as the loop it
    replaces (tests/tournaments/test_pairings_rows_html.py compares the two)."""
    vs = escape(gettext("vs"))
    bye = f'</strong> <span class="badge">{escape(gettext("bye"))}</span></li>'
    names: dict[str, str] = {}

    def name(raw: str) -> str:
        safe = names.get(raw)
        if safe is None:
            safe = names[raw] = html.escape(raw)
        return safe

    out = []
    for r in rows:
        if r["bye"]:
            out.append('<li><span class="tbl">—</span> <strong>' + name(r["player"]) + bye)
        else:
            opponents = ", ".join(name(o) for o in r["opponents"])
            out.append(f'<li><span class="tbl">{r["table"]}</span> <strong>{name(r["player"])}</strong> '
                       f'<span class="muted">{vs}</span> {opponents}</li>')  # fmt: skip
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped


def pairings_fragment(tournament_id: int, number: int | None, projector: bool) -> Any:
    def render_fragment() -> str:
        tournament = tournament_or_404(tournament_id)
        rounds = tournament.round_set.filter(draft=False).order_by("-number")
        round_ = rounds.filter(number=number).first() if number else rounds.first()
        # 16,384 rows allocate a few hundred thousand small objects: see services.rounds.collector_paused.
        with collector_paused():
            rows = printables.pairing_rows(round_, "name") if round_ is not None else []
            rows_html = pairing_rows_html(rows)
        if round_ is not None and round_.kind == Round.Kind.TOP_CUT:
            round_.match_count = round_.matches.count()
        return render_to_string(
            "tournaments/_live_pairings.html",
            {"tournament": tournament, "round": round_, "rows_html": rows_html, "projector": projector,
             "timer": selectors.round_timer(round_) if round_ else None},
        )  # fmt: skip

    return render_fragment


@require_GET
def projector(request: HttpRequest, pk: int, page: str) -> HttpResponse:
    if page == "pairings":
        render_fragment = pairings_fragment(pk, None, projector=True)
    elif page == "standings":

        def render_fragment() -> str:
            # From the standings computed once per change (live.standings), shared with the standings page.
            tournament = tournament_or_404(pk)
            # fresh: this render is kept under the counter's version, so never the previous rows.
            data = live_standings.standings_data(pk, fresh=True)
            rows = data[1] if data is not None else []
            columns = live_standings.columns_for(tournament, rows)
            # A team event's room reads the teams (each with its members, so everyone finds their name).
            from .reports import team_rows_labelled

            team_rows = team_rows_labelled(tournament) if tournament.team_size > 1 else None
            return render_to_string("tournaments/_live_standings.html", {"tournament": tournament,
                                    "rows": live_standings.shown_rows(rows, columns), "columns": columns,
                                    "team_rows": team_rows})  # fmt: skip

    elif page == "timer":

        def render_fragment() -> str:
            tournament = tournament_or_404(pk)
            round_ = tournament.round_set.filter(draft=False).order_by("-number").first()
            if round_ is not None and round_.kind == Round.Kind.TOP_CUT:
                round_.match_count = round_.matches.count()
            return render_to_string("tournaments/_live_timer.html", {"tournament": tournament, "round": round_,
                                    "timer": selectors.round_timer(round_) if round_ else None,
                                    "extensions": selectors.table_extensions(round_)})  # fmt: skip

    else:
        raise Http404
    url = reverse("tournaments:projector", args=[pk, page]) + "?fragment=1"
    return live_shell(request, tournament_id=pk, page=f"projector-{page}", template="tournaments/projector.html",
                       fragment_url=url, render_fragment=render_fragment, page_ms=10_000,
                       shell=_join_box(request, pk))  # fmt: skip


def _join_box(request: HttpRequest, pk: int) -> dict[str, Any]:
    """While registration runs, the organizer's projector shows the join code and its QR code (the code admits
    people, so only the organizer's own screen carries it, like the poster)."""
    tournament = tournament_or_404(pk)
    if tournament.status != Tournament.Status.REGISTRATION or not is_organizer(tournament, request.user):
        return {}
    url = join_url(request, tournament)
    return {"join": {"code": tournament.join_code, "url": url, "qr": qr_svg(url, scale=8)}}


@require_GET
def pairings(request: HttpRequest, pk: int) -> HttpResponse:
    """The players' pairings page (find your name): shared by everyone, served from the cache."""
    number = int_or(request.GET.get("round"))
    # Only rounds that exist get a cache entry: made-up round numbers would each render and store a page,
    # and a few hundred of them pushed everything else out of the venue's cache.
    if number and not Round.objects.filter(tournament_id=pk, number=number).exists():
        raise Http404
    url = reverse("tournaments:pairings", args=[pk]) + (f"?round={number}&" if number else "?") + "fragment=1"
    return live_shell(request, tournament_id=pk, page=f"pairings-{number or 'latest'}",
                       template="tournaments/pairings.html", fragment_url=url,
                       render_fragment=pairings_fragment(pk, number, projector=False))  # fmt: skip


def round_for_players(
    request: HttpRequest, tournament: Tournament, round_: Round, timer: Any
) -> HttpResponse:
    """Everyone but the organizers sees the same table: rendered once per change of the event (and once more
    when time runs out, for the late-table flags) and kept in the cache, whatever the size of the event."""
    if round_.draft:
        raise Http404  # paired as a draft: nobody but the organizers sees it before it is published

    def render_table() -> str:
        matches = selectors.round_with_matches(round_=round_)
        label_two_headed_seats(tournament, matches)  # Two-Headed Giant: each seat names its team
        overtime = selectors.overtime_matches(round_)
        pods = tournament.match_format == Tournament.MatchFormat.PODS and round_.kind == Round.Kind.SWISS
        return render_to_string("tournaments/_round_public.html",
                                {"matches": matches, "overtime": overtime, "pods": pods})  # fmt: skip

    entry = live.shared_entry(tournament_id=tournament.pk, page=f"round-{round_.number}-{int(timer.expired)}",
                              render=render_table)  # fmt: skip
    if entry is None:
        raise Http404
    round_.match_count = round_.matches.count() if round_.kind == Round.Kind.TOP_CUT else None
    return render(
        request,
        "tournaments/round.html",
        {"tournament": tournament, "round": round_, "timer": timer, "server_now": timezone.now(),
         "organizer": False, "public_table": mark_safe(live.entry_html(entry))},  # noqa: S308 - our own escaped render
    )  # fmt: skip
