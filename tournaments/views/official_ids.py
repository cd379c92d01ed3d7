"""Official player IDs on pages: a player's IDs per game, an entry's ID from My event, and the standings
exports (CSV and JSON) with them for the organizers, which the official systems can read."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cards.models import Game

from .. import services
from ..models import Player
from ..permissions import is_organizer
from ..reads.selectors import standings_compute
from .helpers import back, run, tournament_or_404


def _games_with_ids() -> list[tuple[Game, Any]]:
    games = []
    for game in Game.objects.order_by("name"):
        try:
            rule = services.game_rules(game).player_id
        except KeyError:  # a game whose rule set is gone: nothing to ask
            continue
        if rule is not None:
            games.append((game, rule))
    return games


@login_required
@require_http_methods(["GET", "POST"])
def my_official_ids(request: HttpRequest) -> HttpResponse:
    """The player's official IDs, one per game that has them."""
    if request.method == "POST":
        game = get_object_or_404(Game, slug=request.POST.get("game", ""))
        value = request.POST.get("value", "")
        if run(request, lambda: services.official_id_save(by=request.user, game=game, value=value),
               _("Saved: your entries in this game's events carry it.")):  # fmt: skip
            return redirect(request.POST.get("next") or "tournaments:my_official_ids")
    lang = get_language() or "en"
    rows = [
        {"game": game, "title": rule.title(lang), "example": rule.example,
         "value": services.official_id_of(request.user, game)}
        for game, rule in _games_with_ids()
    ]  # fmt: skip
    return render(request, "tournaments/official_ids.html", {"rows": rows})


@login_required
@require_POST
def player_official_id(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    run(
        request,
        lambda: services.player_official_id_set(
            player=player, by=request.user, value=request.POST.get("value", "")
        ),
        _("Player ID saved."),
    )
    return back(request, f"/tournaments/{tournament.pk}/me/")


def _export_rows(tournament: Any) -> list[dict[str, Any]]:
    ids = dict(Player.objects.filter(tournament=tournament).values_list("id", "official_id"))
    return [
        {"rank": row["rank"], "name": row["name"], "official_id": ids.get(row["player"], ""),
         "points": row["points"], "wins": row["wins"], "losses": row["losses"], "draws": row["draws"],
         "dropped": row["dropped"], "top_cut": row["top_cut"] or "", **{f"tb_{k}": v for k, v in row["tiebreakers"].items()}}
        for row in standings_compute(tournament=tournament)
    ]  # fmt: skip


@login_required
@require_GET
def standings_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    """The standings with each player's official ID, for the official systems (organizers only: the IDs are
    personal)."""
    if fmt not in ("csv", "json"):
        raise Http404
    tournament = tournament_or_404(pk)
    if not is_organizer(tournament, request.user):
        raise PermissionDenied(_("Only the event's organizers may export the standings with player IDs."))
    rows = _export_rows(tournament)
    rule = services.game_rules(tournament.game).player_id
    filename = f"standings-{tournament.pk}"
    if fmt == "json":
        document = {
            "event": {"id": tournament.pk, "name": tournament.name, "game": tournament.game.slug,
                      "status": tournament.status, "official_id": rule.name if rule else None},
            "standings": rows,
        }  # fmt: skip
        response = HttpResponse(
            json.dumps(document, ensure_ascii=False, indent=1), content_type="application/json"
        )
    else:
        out = io.StringIO()
        fields = ["rank", "name", "official_id", "points", "wins", "losses", "draws", "dropped", "top_cut"]
        fields += sorted({key for row in rows for key in row if key.startswith("tb_")})
        writer = csv.DictWriter(out, fieldnames=fields, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            # A name starting with = + - @ would run as a formula in a spreadsheet: quote it.
            writer.writerow(
                {**row, "name": ("'" + row["name"]) if row["name"][:1] in "=+-@" else row["name"]}
            )
        response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
        fmt = "csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    return response
