"""The organizer's irreversible steps — pair, pair again, close registration, start, the top cut, finish and
drops — written once: each is an ``Action`` (what it does, in words, and how it is carried out), and every one
goes through the same confirmation page before it happens.

A step posted without the confirmation page's marker (``confirmed=yes``) is sent to that page instead, so no
button anywhere can pair a round or drop a player in one click by mistake.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from .. import services
from ..models import Player, Round, Tournament
from ..permissions import is_organizer
from .helpers import back, int_or, local_path, run, tournament_or_404


@dataclass(frozen=True, slots=True)
class Target:
    """What one step acts on: the event, and for some steps a player or a round."""

    tournament: Tournament
    player: Player | None = None
    round: Round | None = None


@dataclass(frozen=True, slots=True)
class Action:
    words: Callable[[Target], tuple[str, str]]  # the confirmation page's title and explanation
    perform: Callable[[HttpRequest, Target], HttpResponse]
    subject: str = ""  # "player" or "round" when the step names one in its URL


def _detail(target: Target) -> HttpResponse:
    return redirect("tournaments:detail", pk=target.tournament.pk)


def _round_page(target: Target, round_: Round) -> HttpResponse:
    return redirect("tournaments:round", pk=target.tournament.pk, number=round_.number)


def _pair(request: HttpRequest, target: Target) -> HttpResponse:
    round_ = run(request, lambda: services.round_pair_next(tournament=target.tournament, by=request.user))
    if not round_:
        return _detail(target)
    messages.success(request, _("Round %(n)s paired.") % {"n": round_.number})
    return _round_page(target, round_)


def _repair(request: HttpRequest, target: Target) -> HttpResponse:
    assert target.round is not None
    round_ = target.round
    run(request, lambda: services.round_repair(round_=round_, by=request.user),
        _("Round %(n)s paired again.") % {"n": round_.number})  # fmt: skip
    return _round_page(target, round_)


def _freeze(request: HttpRequest, target: Target) -> HttpResponse:
    run(request, lambda: services.registration_freeze(tournament=target.tournament, by=request.user),
        _("Registration closed; deck lists are frozen."))  # fmt: skip
    return _detail(target)


def _start(request: HttpRequest, target: Target) -> HttpResponse:
    """Close check-in (dropping the no-shows) and pair round 1."""
    tournament = target.tournament
    if not run(request, lambda: services.tournament_start(tournament=tournament, by=request.user)):
        return _detail(target)
    round_ = run(request, lambda: services.round_pair_next(tournament=tournament, by=request.user))
    if not round_:
        return _detail(target)
    messages.success(request, _("The event has started: round %(n)s is paired.") % {"n": round_.number})
    return _round_page(target, round_)


def _topcut(request: HttpRequest, target: Target) -> HttpResponse:
    tournament = target.tournament
    step = (
        services.topcut_advance if tournament.status == Tournament.Status.TOP_CUT else services.topcut_start
    )
    result = run(request, lambda: step(tournament=tournament, by=request.user))
    if isinstance(result, Round):
        return _round_page(target, result)
    return redirect("tournaments:bracket", pk=tournament.pk)


def _finish(request: HttpRequest, target: Target) -> HttpResponse:
    run(request, lambda: services.tournament_finish(tournament=target.tournament, by=request.user),
        _("Event finished."))  # fmt: skip
    return _detail(target)


def _drop(request: HttpRequest, target: Target) -> HttpResponse:
    player = target.player
    assert player is not None
    run(request, lambda: services.player_drop(player=player, by=request.user),
        _("%(name)s dropped.") % {"name": player.name})  # fmt: skip
    return back(request, reverse("tournaments:detail", args=[target.tournament.pk]))


def _pair_words(target: Target) -> tuple[str, str]:
    rounds = target.tournament.round_set.order_by("-number").values_list("number", flat=True)
    return _("Pair round %(n)s?") % {"n": (rounds.first() or 0) + 1}, _(
        "Every phone shows the new pairings at once. Results can no longer be entered for earlier rounds "
        "without a correction."
    )


def _topcut_words(target: Target) -> tuple[str, str]:
    if target.tournament.status == Tournament.Status.TOP_CUT:
        return _("Pair the next top-cut round?"), _("The winners of this round meet in the next one.")
    size = {"n": target.tournament.top_cut}
    return _("Start the top %(n)s?") % size, _(
        "The Swiss rounds end here: the best %(n)s players by the standings play the cut."
    ) % size


def _drop_words(target: Target) -> tuple[str, str]:
    name = {"name": target.player.name if target.player else ""}
    return _("Drop %(name)s?") % name, _(
        "%(name)s is not paired in later rounds and stays in the standings. You can undo this until the next "
        "round is paired."
    ) % name


ACTIONS: dict[str, Action] = {
    "pair": Action(_pair_words, _pair),
    "repair": Action(
        lambda t: (
            _("Pair round %(n)s again?") % {"n": t.round.number if t.round else ""},
            _(
                "The current pairings of this round are replaced by new ones; players who already found "
                "their table must look again."
            ),
        ),
        _repair,
        subject="round",
    ),
    "freeze": Action(
        lambda t: (
            _("Close registration?"),
            _("Nobody can join any more and every registered deck list is frozen."),
        ),
        _freeze,
    ),
    "start": Action(
        lambda t: (
            _("Start the event?"),
            _(
                "Players who have not checked in are dropped as no-shows (you can bring them back until round 1 "
                "has results) and round 1 is paired."
            ),
        ),
        _start,
    ),
    "topcut": Action(_topcut_words, _topcut),
    "finish": Action(
        lambda t: (
            _("Finish the event?"),
            _("The final standings are published and no result can be entered any more."),
        ),
        _finish,
    ),
    "drop": Action(_drop_words, _drop, subject="player"),
}


def _target(tournament: Tournament, action: Action, *, player_id: int | None, number: int | None) -> Target:
    if action.subject == "player":
        return Target(tournament, player=get_object_or_404(Player, pk=player_id or 0, tournament=tournament))
    if action.subject == "round":
        return Target(tournament, round=get_object_or_404(Round, tournament=tournament, number=number or 0))
    return Target(tournament)


def _url_args(target: Target) -> list[Any]:
    extra = [target.player.pk] if target.player else [target.round.number] if target.round else []
    return [target.tournament.pk, *extra]


@login_required
@require_POST
def act(
    request: HttpRequest, pk: int, action: str, player_id: int | None = None, number: int | None = None
) -> HttpResponse:
    """Carry out a confirmed step; an unconfirmed one goes to its confirmation page first. The services check
    who may do it."""
    step = ACTIONS[action]
    target = _target(tournament_or_404(pk), step, player_id=player_id, number=number)
    if request.POST.get("confirmed") != "yes":
        query = {"player": player_id, "round": number, "next": request.POST.get("next")}
        params = urlencode({key: value for key, value in query.items() if value})
        url = reverse("tournaments:confirm", args=[pk, action])
        return HttpResponseRedirect(f"{url}?{params}" if params else url)
    return step.perform(request, target)


@login_required
@require_GET
def confirm(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    """The confirmation page: what the step does, in words, and one button that posts it confirmed."""
    tournament = tournament_or_404(pk)
    step = ACTIONS.get(action)
    if step is None:
        raise Http404
    target = _target(tournament, step, player_id=int_or(request.GET.get("player"), 0),
                     number=int_or(request.GET.get("round")))  # fmt: skip
    # Players may drop themselves; every other step is the organizers'.
    mine = target.player is not None and target.player.user_id == request.user.id
    if not is_organizer(tournament, request.user) and not mine:
        raise PermissionDenied
    title, text = step.words(target)
    return render(
        request,
        "tournaments/confirm.html",
        {"tournament": tournament, "title": title, "text": text, "action": action,
         "action_url": reverse(f"tournaments:{action}", args=_url_args(target)),
         "back": local_path(request.GET.get("next", ""), reverse("tournaments:detail", args=[pk]))},
    )  # fmt: skip
