"""A match's page and its forms, for its players and the organizers: games one by one, a whole result, a
confirm naming the version it confirms, disputes and their resolution, corrections and sideboarding.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from idempotency.decorators import idempotent

from .. import services
from ..models import Match, Player, Round, Tournament
from ..permissions import is_organizer, user_seat_player
from ..printables import documents as printables
from ..printables.documents import swap_lines
from ..printables.teams import label_team_slips
from ..reads import history, selectors
from ..reads.teams import label_two_headed_seat_list
from ..services.teams import two_headed_side
from .helpers import (
    back,
    int_or,
    refused,
    run,
)
from .player import my_event_page


def match_or_404(match_id: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("round__tournament__game").prefetch_related("seats__player", "games"),
        pk=match_id,
    )


@require_GET
def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    return match_page(request, match_id)


def match_page(request: HttpRequest, match_id: int, status: int = 200) -> HttpResponse:

    match = match_or_404(match_id)
    tournament = match.round.tournament
    organizer = is_organizer(tournament, request.user)
    me = user_seat_player(match, request.user)
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    # Two-Headed Giant: seat B reports and confirms the game seated on their seat A (never sides for them).
    side, side_users = two_headed_side(tournament, seats, me, request.user)
    if tournament.team_size > 1:
        label_team_slips(tournament, [match])  # which teams (and in 2HG, which heads) play this match
        label_two_headed_seat_list(tournament, seats)  # 2HG: the forms and lines name the teams
    done = match.status in (Match.Status.CONFIRMED, Match.Status.FINAL)
    games = list(match.games.all())
    side_game = len(games) + 1
    limit = services.max_games(tournament, match.round, drawn=sum(1 for g in games if g.winner_seat is None))
    can_side = (
        services.sideboarding_allowed(tournament) and not match.bye and not done and 2 <= side_game <= limit
    )
    policy = services.game_rules(tournament.game).first_player
    seeded = services.seeded_seat(match, seats) if len(seats) == 2 else None
    # Swaps are hidden information: a player sees their own, organizers see everyone's, nobody else any.
    side_player = me or (seats[0].player if organizer and seats else None)
    visible = match.sideboard_changes.select_related("player").order_by("game_number", "id")
    if not organizer:
        visible = visible.filter(player=me) if me is not None else visible.none()
    side_lines = [{**line, "name": change.player.name}
                  for change in visible for line in swap_lines(change.player.deck, [change])]  # fmt: skip
    current = services.current_deck(match, side_player) if can_side and side_player else None
    return render(
        request,
        "tournaments/match.html",
        {
            "tournament": tournament,
            "match": match,
            "seats": seats,
            "organizer": organizer,
            "me": me,
            "can_report": (organizer or side is not None) and not match.bye and not done,
            "can_confirm": side is not None
            and match.status == Match.Status.REPORTED
            and match.reported_by_id not in side_users,
            "can_side": can_side and (organizer or me is not None),
            "side_player": side_player,
            "side_game": side_game,
            "next_game": side_game if side_game <= limit else None,
            # Game 1 of the top cut: the higher seed chooses (MTR 2.2) where the game's rule set says so.
            "cut_chooser": seats[seeded].player if seeded is not None else None,
            "ask_chooser": len(seats) == 2 and policy == "loser_chooses",
            "chosen_seat": seeded if not games else None,
            "side_rows": printables.sideboard_rows(
                current, game_slug=tournament.game.slug, format_slug=tournament.format_slug
            )
            if current
            else None,
            "side_lines": side_lines,
            "pod_labels": printables.pod_labels(tournament),
            "audit": history.audit_rows(selectors.match_audit(match))
            if organizer or side is not None
            else [],
            "game_rows": range(
                1, services.max_games(tournament, match.round, drawn=services.EXTRA_DRAWS) + 1
            ),
            "pods": tournament.match_format == Tournament.MatchFormat.PODS
            and match.round.kind == Round.Kind.SWISS,
        },
        status=status,
    )


def result_from_post(post: Any, match: Match) -> dict[str, Any]:
    """Three ways to enter a result: per-game rows, game wins (+ draws), or pod places."""
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    if post.get("mode") == "pods":
        rows = []
        for s in seats:
            row: dict[str, Any] = {"player": s.player_id}
            for key in ("score", "tiebreak", "place"):
                value = int_or(post.get(f"{key}_{s.player_id}"))
                if value is not None:
                    row[key] = value
            rows.append(row)
        return {"places": rows}
    if post.get("mode") == "games":
        games = []
        for n in range(1, 8):
            winner = post.get(f"game{n}_winner", "")
            first = post.get(f"game{n}_first", "")
            if not winner and not first:
                continue
            games.append({"winner": None if winner == "draw" else int_or(winner), "first": int_or(first),
                          "chooser": int_or(post.get(f"game{n}_chooser"))})  # fmt: skip
        return {"games": games}
    if post.get("intentional_draw"):
        return {"wins": [0, 0], "draws": 3}
    wins = [int_or(post.get("wins_a"), -1), int_or(post.get("wins_b"), -1)]
    if min(wins) < 0:
        raise ValidationError({"wins": _("Enter both players' game wins.")})
    return {"wins": wins, "draws": int_or(post.get("draws"), 0) or 0}


@login_required
@require_POST
@idempotent
def match_report(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_or_404(match_id)

    def action() -> Any:
        return services.match_report_result(
            match=match, by=request.user, **result_from_post(request.POST, match)
        )

    run(request, action, _("Result saved."))
    return back(request, reverse("tournaments:match", args=[match_id]))


@login_required
@require_POST
def match_correct(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_or_404(match_id)

    def action() -> Any:
        return services.match_correct_result(
            match=match,
            by=request.user,
            reason=request.POST.get("reason", ""),
            **result_from_post(request.POST, match),
        )

    run(request, action, _("Result corrected."))
    return back(request, reverse("tournaments:match", args=[match_id]))


@login_required
@require_POST
@idempotent
def match_confirm(request: HttpRequest, match_id: int) -> HttpResponse:
    """A confirm names the version it confirms; a result that changed since is refused (409) and shown."""
    match = match_or_404(match_id)
    version = int_or(request.POST.get("version"))
    if version is None:
        messages.error(request, _("Reload the page and confirm the result you see."))
        return back(request, reverse("tournaments:match", args=[match_id]))
    try:
        services.match_confirm_result(match=match, by=request.user, version=version)
    except services.StaleVersion as error:
        return _conflict(request, match, error)
    except (ValidationError, PermissionDenied) as error:
        refused(request, error)
        return back(request, reverse("tournaments:match", args=[match_id]))
    messages.success(request, _("Result confirmed."))
    return back(request, reverse("tournaments:match", args=[match_id]))


@login_required
@require_POST
@idempotent
def match_game(request: HttpRequest, match_id: int) -> HttpResponse:
    """Save (or correct) one game: who went first and who won, or a drawn game."""
    match = match_or_404(match_id)
    winner = request.POST.get("winner", "")
    check = {"previous": _previous_game(request.POST["previous"])} if "previous" in request.POST else {}
    try:
        services.match_save_game(
            match=match, by=request.user, number=int_or(request.POST.get("number")),
            first=int_or(request.POST.get("first")), winner=None if winner == "draw" else int_or(winner, -1),
            chooser=int_or(request.POST.get("chooser")), **check,
        )  # fmt: skip
    except services.StaleVersion as error:
        return _conflict(request, match, error)
    except (ValidationError, PermissionDenied) as error:
        refused(request, error)
    else:
        messages.success(request, _("Game %(n)s saved.") % {"n": request.POST.get("number", "")})
    return back(request, reverse("tournaments:match", args=[match_id]))


def _previous_game(value: str) -> dict[str, int | None] | None:
    """The game as the form showed it: "" (not saved yet) or "<first>:<winner>" (player ids, winner "draw")."""
    first, _sep, winner = value.partition(":")
    if not value:
        return None
    return {"first": int_or(first, -1), "winner": None if winner == "draw" else int_or(winner, -1)}


def _conflict(request: HttpRequest, match: Match, error: Exception) -> HttpResponse:
    """A write based on a result that changed meanwhile: 409, on the page the player came from, showing the
    result as it is now (never overwritten silently)."""
    messages.error(request, error.messages[0])  # type: ignore[attr-defined]
    if request.POST.get("next") == reverse("tournaments:my_event", args=[match.round.tournament_id]):
        return my_event_page(request, match.round.tournament_id, status=409)
    return match_page(request, match.pk, status=409)


@login_required
@require_POST
@idempotent
def match_finish(request: HttpRequest, match_id: int) -> HttpResponse:
    """The players end the match before it is decided: time, a concession or an intentional draw."""
    match = match_or_404(match_id)
    run(
        request,
        lambda: services.match_finish_early(match=match, by=request.user, how=request.POST.get("how", ""),
                                            conceded_by=int_or(request.POST.get("conceded_by"))),
        _("Result saved."),
    )  # fmt: skip
    return back(request, reverse("tournaments:match", args=[match_id]))


@login_required
@require_POST
def match_resolve(request: HttpRequest, match_id: int) -> HttpResponse:
    """An organizer decides a dispute with a reason: keep the reported result, or enter another."""
    match = match_or_404(match_id)
    keep = request.POST.get("keep") == "1"

    def action() -> Any:
        result = {} if keep else result_from_post(request.POST, match)
        return services.match_resolve_dispute(match=match, by=request.user, reason=request.POST.get("reason", ""),
                                              **result)  # fmt: skip

    run(request, action, _("Dispute resolved."))
    return back(request, reverse("tournaments:match", args=[match_id]))


@login_required
@require_POST
@idempotent
def match_dispute(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_or_404(match_id)
    run(request, lambda: services.match_dispute(match=match, by=request.user, reason=request.POST.get("reason", "")),
         _("The organizer will look at this result."))  # fmt: skip
    return back(request, reverse("tournaments:match", args=[match_id]))


@login_required
@require_POST
@idempotent
def match_sideboard(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_or_404(match_id)
    player = get_object_or_404(
        Player, pk=int_or(request.POST.get("player"), 0), tournament=match.round.tournament
    )
    swaps = swaps_from_post(request.POST)
    game_number = int_or(request.POST.get("game_number"), 0) or 0
    run(
        request,
        lambda: services.match_sideboard(
            match=match, player=player, by=request.user, game_number=game_number, swaps=swaps
        ),
        _("Sideboard swap recorded."),
    )
    return back(request, reverse("tournaments:match", args=[match_id]))


def swaps_from_post(post: Any) -> list[dict[str, Any]]:
    """The clicked sideboarding form: ``out:<section>:<card>`` and ``in:<card>`` counts (``into:<card>``
    names the section a side card goes into, the first one by default). Names are never typed."""
    swaps: list[dict[str, Any]] = []
    for key, value in post.items():
        count = int_or(value, 0) or 0
        if count <= 0:
            continue
        kind, _sep, rest = key.partition(":")
        if kind == "out" and ":" in rest:
            section, _sep, card = rest.partition(":")
            swaps.append({"section": section, "out": card, "in": None, "count": count})
        elif kind == "in" and rest:
            swaps.append(
                {"section": post.get(f"into:{rest}") or "main", "out": None, "in": rest, "count": count}
            )
    return swaps
