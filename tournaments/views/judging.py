"""Judge tools on the organizer's pages and the players' phones: the penalty log, a table's extra time, judge
calls (made from My event, cleared from the dashboard), the round clock's pause / resume / added time, and
fixed tables. Penalties go through the confirmation step (``actions``); the rest is undone by another click.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from .. import services
from ..models import JudgeCall, Match, Penalty, Round
from ..permissions import is_organizer
from .dashboard import player_in
from .helpers import back, run, tournament_or_404


@login_required
@require_GET
def penalties(request: HttpRequest, pk: int) -> HttpResponse:
    """The event's penalty log, counts per player, and the form to add one (organizers only)."""
    tournament = tournament_or_404(pk)
    if not is_organizer(tournament, request.user):
        raise PermissionDenied
    counts = services.penalty_counts(tournament)
    players = list(tournament.players.order_by("name", "id"))
    kinds = Penalty.Kind.choices
    summary = [
        (p, [(label, counts[p.pk].get(kind, 0)) for kind, label in kinds]) for p in players if p.pk in counts
    ]
    latest = tournament.round_set.order_by("-number").first()
    return render(
        request,
        "tournaments/penalties.html",
        # The form offers the players who play: not the waitlist, not those who dropped.
        {"tournament": tournament, "kinds": kinds, "summary": summary,
         "players": [p for p in players if not p.waitlisted and p.dropped_at_round is None],
         "rows": tournament.penalties.select_related("player", "round", "judge").order_by("-created_at", "-id"),
         "rounds": tournament.round_set.order_by("number"), "latest": latest,
         "page_path": reverse("tournaments:penalties", args=[pk])},
    )  # fmt: skip


@login_required
@require_POST
def match_extend(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("round__tournament"), pk=match_id)
    minutes = request.POST.get("minutes", "")
    run(request, lambda: services.match_extend(match=match, by=request.user, minutes=minutes),
        _("Table %(t)s has %(n)s more minutes.") % {"t": match.table, "n": minutes})  # fmt: skip
    return back(request, reverse("tournaments:round", args=[match.round.tournament_id, match.round.number]))


@login_required
@require_POST
def judge_call(request: HttpRequest, match_id: int) -> HttpResponse:
    """A player's "call a judge" button on My event."""
    match = get_object_or_404(Match.objects.select_related("round__tournament"), pk=match_id)
    run(request, lambda: services.judge_call(match=match, by=request.user),
        _("A judge is called to table %(t)s.") % {"t": match.table})  # fmt: skip
    return back(request, reverse("tournaments:my_event", args=[match.round.tournament_id]))


@login_required
@require_POST
def judge_answer(request: HttpRequest, call_id: int) -> HttpResponse:
    call = get_object_or_404(JudgeCall.objects.select_related("match__round"), pk=call_id)
    run(request, lambda: services.judge_call_answer(call=call, by=request.user))
    return back(request, reverse("tournaments:detail", args=[call.match.round.tournament_id]))


@login_required
@require_POST
def clock(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round.objects.select_related("tournament"), tournament_id=pk, number=number)
    what = request.POST.get("do", "")
    steps = {
        "pause": (lambda: services.round_timer_pause(round_=round_, by=request.user), _("The clock is paused.")),
        "resume": (lambda: services.round_timer_resume(round_=round_, by=request.user), _("The clock runs again.")),
        "add": (lambda: services.round_timer_add(round_=round_, by=request.user,
                                                 minutes=request.POST.get("minutes", "")), _("Time added.")),
    }  # fmt: skip
    if what in steps:
        run(request, *steps[what])
    return back(request, reverse("tournaments:round", args=[pk, number]))


@login_required
@require_POST
def fix_table(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    player = player_in(tournament, request.POST.get("player"))
    table = request.POST.get("table", "")
    done = _("%(name)s keeps table %(t)s.") if table else _("%(name)s no longer has a fixed table.")
    run(request, lambda: services.player_fix_table(player=player, by=request.user, table=table),
        done % {"name": player.name, "t": table})  # fmt: skip
    return back(request, reverse("tournaments:detail", args=[pk]))
