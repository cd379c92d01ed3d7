"""Public pages of the pairing checks: a Swiss round's pairing report and an event's phases."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .. import pairing_report, pairing_words, phases
from ..models import Phase, Round, Tournament
from .helpers import tournament_or_404


@require_GET
def round_report(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    round_ = Round.objects.filter(tournament=tournament, number=number, kind=Round.Kind.SWISS).first()
    if round_ is None or tournament.match_format == Tournament.MatchFormat.PODS or tournament.team_size > 1:
        raise Http404
    report = pairing_report.round_report(round_)
    for bye in report["byes"]:
        bye["words"] = pairing_words.bye_reason_report(bye["reason"], bye["points"])
    return render(
        request,
        "tournaments/round_report.html",
        {"tournament": tournament, "round": round_, "report": report,
         "at_bound": report["pair_downs"] == report["pair_downs_lower_bound"]},
    )  # fmt: skip


@require_GET
def phase_standings(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    added = list(Phase.objects.filter(tournament=tournament).order_by("number"))
    if number == 1:
        phase = None
    else:
        phase = next((p for p in added if p.number == number), None)
        if phase is None:
            raise Http404
    rows = phases.phase_rows(tournament, phase)
    return render(
        request,
        "tournaments/phase_standings.html",
        {"tournament": tournament, "phase": phase, "number": number, "rows": rows, "phases": added},
    )


@require_GET
def team_standings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    if tournament.team_size < 2:
        raise Http404
    from ..printables import CUT_LABELS
    from ..services import team_standings_rows

    rows = team_standings_rows(tournament)
    for row in rows:
        row["top_cut_label"] = CUT_LABELS.get(row["top_cut"], row["top_cut"]) if row["top_cut"] else ""
    return render(request, "tournaments/team_standings.html", {"tournament": tournament, "rows": rows})
