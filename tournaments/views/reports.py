"""Public pages of the pairing checks: a Swiss round's pairing report and an event's phases."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ..models import Phase, Round, Tournament
from ..pairings import report as pairing_report
from ..pairings import team_report as team_pairing_report
from ..pairings import words as pairing_words
from ..reads import phases
from .helpers import tournament_or_404


@require_GET
def round_report(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    round_ = Round.objects.filter(tournament=tournament, number=number, kind=Round.Kind.SWISS).first()
    if round_ is None or tournament.match_format == Tournament.MatchFormat.PODS:
        raise Http404
    report = team_pairing_report.report_of_round(round_)
    words = _team_bye_words if tournament.team_size > 1 else pairing_words.bye_reason_report
    for bye in report["byes"]:
        bye["words"] = words(bye["reason"], bye["points"])
    return render(
        request,
        "tournaments/round_report.html",
        {"tournament": tournament, "round": round_, "report": report,
         "at_bound": report["pair_downs"] == report["pair_downs_lower_bound"]},
    )  # fmt: skip


def _team_bye_words(code: str, points: int) -> str:
    """Why a team got the bye, for a team round's report (the engine pairs teams as it pairs players)."""
    params = {"points": points}
    if code == pairing_report.BYE_LOWEST:
        return _("the lowest-ranked team without a bye (%(points)s team points)") % params
    if code == pairing_report.BYE_LOWER_HAD_BYES:
        return _("every team below %(points)s team points has already had a bye") % params
    return _("a bye lower down would have forced two teams to meet again (%(points)s team points)") % params


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


def team_rows_labelled(tournament: Tournament) -> list[dict[str, Any]]:
    """The team standings' rows with the name of each team's stage in the cut."""
    from ..printables.documents import CUT_LABELS
    from ..services import team_standings_rows

    rows = team_standings_rows(tournament)
    for row in rows:
        row["top_cut_label"] = CUT_LABELS.get(row["top_cut"], row["top_cut"]) if row["top_cut"] else ""
    return rows


@require_GET
def team_standings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    if tournament.team_size < 2:
        raise Http404
    rows = team_rows_labelled(tournament)
    return render(request, "tournaments/team_standings.html", {"tournament": tournament, "team_rows": rows})
