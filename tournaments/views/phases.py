"""The organizer's phases page: add a day-2 phase (more Swiss after a cut by points and/or rank) with a preview
of who advances by today's standings, and set the closing top cut's size."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from .. import services
from ..models import Phase, Tournament
from ..permissions import require_organizer
from ..reads import phases
from .helpers import int_or, run, tournament_or_404


def _optional(post: Any, name: str) -> int | None:
    raw = (post.get(name) or "").strip()
    return int_or(raw) if raw else None


def _cut_rule(post: Any) -> dict[str, Any]:
    return {"min_points": _optional(post, "min_points"), "top": _optional(post, "top"),
            "min_count": _optional(post, "min_count")}  # fmt: skip


@login_required
@require_http_methods(["GET", "POST"])
def phases_manage(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    require_organizer(tournament, request.user)
    post = request.POST
    preview = None
    if request.method == "POST" and post.get("do") == "cut":
        size = int_or(post.get("size"), -1)
        if run(request, lambda: services.phase_set_cut(tournament=tournament, by=request.user, size=size),
               _("Top cut saved.")):  # fmt: skip
            return redirect("tournaments:phases", pk=tournament.pk)
    elif request.method == "POST":
        rule = _cut_rule(post)
        if post.get("do") == "add":
            rounds = int_or(post.get("rounds"), 0)
            added = run(
                request,
                lambda: services.phase_create(
                    tournament=tournament,
                    by=request.user,
                    rounds=rounds,
                    carry_points=post.get("points") != "reset",
                    **rule,
                ),
                _("Phase added: its cut is applied when its first round is paired."),
            )
            if added:
                return redirect("tournaments:phases", pk=tournament.pk)
        if tournament.status == Tournament.Status.RUNNING and not any(
            value is not None and value < 0 for value in rule.values()
        ):
            preview = phases.cut_preview(tournament, **rule)
    added_phases = list(Phase.objects.filter(tournament=tournament).order_by("number"))
    can_add = (
        tournament.status not in (Tournament.Status.TOP_CUT, Tournament.Status.FINISHED)
        and tournament.match_format != Tournament.MatchFormat.PODS
        and tournament.rounds is not None
    )
    return render(
        request,
        "tournaments/phases_manage.html",
        {
            "tournament": tournament,
            "phases": added_phases,
            "first_rounds": added_phases[0].first_round - 1 if added_phases else tournament.rounds,
            "preview": preview,
            "data": post if request.method == "POST" else {"rounds": 2, "points": "carry"},
            "can_add": can_add,
            "top_cut_sizes": [size for size in services.TOP_CUT_SIZES if size <= 64],
        },
    )
