"""Printables: pairings, match slips, standings and deck lists (HTML with print CSS, or PDF), and the join
poster with its QR code.
"""

from __future__ import annotations

import re

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ..permissions import is_organizer
from ..printables import documents as printables
from .helpers import (
    int_or,
    join_url,
    phone_origin,
    qr_svg,
    tournament_or_404,
)


def _safe_filename(name: str) -> str:
    """Letters, digits, dot, dash and underscore only: a header value can never be split or re-quoted."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)[:120] or "document"


@require_GET
def printable(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    """Pairings (by table / by name), match slips, standings, deck lists: HTML with print CSS, or PDF."""
    tournament = tournament_or_404(pk)
    # A phase printable is chosen by ?phase=N, the round printables by ?round=N.
    number = int_or(request.GET.get("phase" if kind == "phase" else "round"))
    context = printables.context_for(tournament, kind, number=number, order=request.GET.get("order", "table"),
                                     user=request.user)  # fmt: skip
    if context is None:
        raise Http404
    # Official player IDs are personal (an e-mail address, for Magic): on the organizers' sheets only.
    context["show_ids"] = is_organizer(tournament, request.user)
    if request.GET.get("format") == "pdf":
        pdf = printables.render_pdf(request, context)
        response = HttpResponse(pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{_safe_filename(context["filename"])}.pdf"'
        return response
    return render(request, context["template"], context)


@login_required
@require_GET
def poster(request: HttpRequest, pk: int) -> HttpResponse:
    """A printable A4 poster: the join code in large letters and the QR code of the join link."""
    tournament = tournament_or_404(pk)
    if not is_organizer(tournament, request.user):
        raise PermissionDenied
    url = join_url(request, tournament)
    return render(
        request,
        "tournaments/poster.html",
        {"tournament": tournament, "url": url, "qr": qr_svg(url, scale=10), "phone": phone_origin(request)},
    )
