"""The organizer's irreversible steps — pair, pair again, close registration, start, the top cut, finish,
drops, mending one match (swap, pair by hand, bye, match loss), publishing a draft round and penalties —
written once: each is an ``Action`` (what it does, in words, and how it is carried out), and every one
goes through the same confirmation page before it happens.

A step posted without the confirmation page's marker (``confirmed=yes``) is sent to that page instead, so no
button anywhere can pair a round or drop a player in one click by mistake. Steps whose players are chosen in
a form (``subject`` "round_players" / "event_player") and steps with fields of their own (``Action.carry``)
hand them on through the confirmation page as hidden fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
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
from ..reads import phases
from .helpers import back, int_or, local_path, run, tournament_or_404


@dataclass(frozen=True, slots=True)
class Target:
    """What one step acts on: the event, and for some steps a player or a round."""

    tournament: Tournament
    player: Player | None = None
    round: Round | None = None
    other: Player | None = None  # the second player of a swap or a pairing by hand
    data: Mapping[str, str] = field(default_factory=dict)  # the step's own form fields (``Action.carry``)


@dataclass(frozen=True, slots=True)
class Action:
    words: Callable[[Target], tuple[str, str]]  # the confirmation page's title and explanation
    perform: Callable[[HttpRequest, Target], HttpResponse]
    subject: str = ""  # "player" or "round" when the step names one in its URL; "round_players": a round and
    # one or two players chosen in a form (``player``, ``other``)
    carry: tuple[str, ...] = ()  # form fields the confirmation page hands on to the step


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
    tournament = target.tournament
    rounds = tournament.round_set.order_by("-number").values_list("number", flat=True)
    number = (rounds.first() or 0) + 1
    text = _(
        "Every phone shows the new pairings at once. Results can no longer be entered for earlier rounds "
        "without a correction."
    )
    phase = phases.phase_of_round(tournament, number)
    if phase is not None and phase.first_round == number and phase.entrants is None:
        preview = phases.cut_preview(tournament, min_points=phase.min_points, top=phase.top,
                                     min_count=phase.min_count)  # fmt: skip
        text = (
            _(
                "This starts phase %(phase)s: %(advance)s players advance, %(cut)s are cut and their phones say so. "
            )
            % {"phase": phase.number, "advance": preview.advance, "cut": preview.cut}
            + text
        )
    return _("Pair round %(n)s?") % {"n": number}, text


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


# --- mending one match and penalties (services.mending, services.judging) --------------------------------


def _mend(service: Callable[..., Any], success: str) -> Callable[[HttpRequest, Target], HttpResponse]:
    def perform(request: HttpRequest, target: Target) -> HttpResponse:
        assert target.round is not None and target.player is not None
        round_, player, other = target.round, target.player, target.other
        kwargs: dict[str, Any] = {"round_": round_, "by": request.user}
        if service in (services.pairing_swap, services.pairing_pair):
            if other is None:
                messages.error(request, _("Choose the second player."))
                return _round_page(target, round_)
            kwargs.update(player_a=player, player_b=other)
        else:
            kwargs["player"] = player
        names = {"a": player.name, "b": other.name if other else ""}
        run(request, lambda: service(**kwargs), success % names)
        return _round_page(target, round_)

    return perform


def _publish(request: HttpRequest, target: Target) -> HttpResponse:
    assert target.round is not None
    round_ = target.round
    run(request, lambda: services.round_publish(round_=round_, by=request.user),
        _("Round %(n)s is published.") % {"n": round_.number})  # fmt: skip
    return _round_page(target, round_)


def _two_names(target: Target) -> dict[str, str]:
    return {"a": target.player.name if target.player else "", "b": target.other.name if target.other else ""}


def _penalty(request: HttpRequest, target: Target) -> HttpResponse:
    assert target.player is not None
    data, player = target.data, target.player
    run(request, lambda: services.penalty_add(tournament=target.tournament, by=request.user, player=player,
        round_number=data.get("round") or None, infraction=data.get("infraction", ""),
        penalty=data.get("penalty", ""), note=data.get("note", "")),
        _("Penalty recorded for %(name)s.") % {"name": player.name})  # fmt: skip
    return redirect("tournaments:penalties", pk=target.tournament.pk)


def _penalty_words(target: Target) -> tuple[str, str]:
    from ..models import Penalty

    kind = target.data.get("penalty", "")
    label = Penalty.Kind(kind).label if kind in Penalty.Kind.values else kind
    words = {"name": target.player.name if target.player else "", "penalty": label}
    effects = {
        "game_loss": _("%(name)s loses the current game of their match in that round: the result changes."),
        "match_loss": _("%(name)s loses their match in that round: the result changes."),
        "disqualification": _("%(name)s is dropped from the event and loses their unfinished match."),
    }
    return _("Give %(name)s a %(penalty)s?") % words, (
        effects.get(kind, _("The penalty is kept in the event's penalty log.")) % words
    )


MEND_ACTIONS: dict[str, Action] = {
    "swap": Action(
        lambda t: (_("Swap %(a)s and %(b)s?") % _two_names(t),
                   _("They change seats and opponents. Phones and the projector show the new tables at once.")),
        _mend(services.pairing_swap, _("%(a)s and %(b)s swapped.")), subject="round_players",
    ),
    "pair_by_hand": Action(
        lambda t: (_("Pair %(a)s with %(b)s?") % _two_names(t),
                   _("They play each other; their former opponents play each other (or take the bye).")),
        _mend(services.pairing_pair, _("%(a)s and %(b)s paired by hand.")), subject="round_players",
    ),
    "give_bye": Action(
        lambda t: (_("Give %(a)s a bye?") % _two_names(t),
                   _("A bye counts as a 2-0 win. Their opponent plays whoever had the round's bye, or gets a "
                     "bye too.")),
        _mend(services.pairing_bye, _("%(a)s has a bye.")), subject="round_players",
    ),
    "give_loss": Action(
        lambda t: (_("Give %(a)s a match loss?") % _two_names(t),
                   _("Their opponent wins this match 2-0; the result is final and kept in the audit trail.")),
        _mend(services.pairing_loss, _("%(a)s has a match loss.")), subject="round_players",
    ),
    "publish": Action(
        lambda t: (_("Publish the pairings of round %(n)s?") % {"n": t.round.number if t.round else ""},
                   _("Players, their phones and the projector see the new tables at once.")),
        _publish, subject="round",
    ),
    "penalty": Action(_penalty_words, _penalty, subject="event_player",
                      carry=("round", "infraction", "penalty", "note")),
}  # fmt: skip
ACTIONS.update(MEND_ACTIONS)
DANGER = {"drop", "finish", "give_loss", "penalty"}


# Steps whose player (and second player) are chosen in a form rather than named by the URL.
FORM_PLAYER = ("round_players", "event_player")


def _target(
    tournament: Tournament, action: Action, *, player_id: int | None, number: int | None,
    other_id: int | None = None, data: Mapping[str, str] | None = None,
) -> Target:  # fmt: skip
    data = {key: (data or {}).get(key, "")[:500] for key in action.carry}
    if action.subject == "player":
        return Target(tournament, player=get_object_or_404(Player, pk=player_id or 0, tournament=tournament))
    round_ = None
    if action.subject in ("round", "round_players"):
        round_ = get_object_or_404(Round, tournament=tournament, number=number or 0)
    if action.subject in FORM_PLAYER:
        player = get_object_or_404(Player, pk=player_id or 0, tournament=tournament)
        other = get_object_or_404(Player, pk=other_id, tournament=tournament) if other_id else None
        return Target(tournament, player=player, round=round_, other=other, data=data)
    return Target(tournament, round=round_, data=data)


def _url_args(target: Target, step: Action) -> list[Any]:
    if target.round:
        return [target.tournament.pk, target.round.number]
    if step.subject == "player" and target.player:
        return [target.tournament.pk, target.player.pk]
    return [target.tournament.pk]


def _hidden_fields(target: Target, step: Action) -> dict[str, Any]:
    """What the confirmation page posts on besides ``confirmed``: the chosen players and carried fields."""
    fields: dict[str, Any] = dict(target.data)
    if step.subject in FORM_PLAYER and target.player:
        fields["player"] = target.player.pk
    if target.other:
        fields["other"] = target.other.pk
    return fields


@login_required
@require_POST
def act(
    request: HttpRequest, pk: int, action: str, player_id: int | None = None, number: int | None = None
) -> HttpResponse:
    """Carry out a confirmed step; an unconfirmed one goes to its confirmation page first. The services check
    who may do it."""
    step = ACTIONS[action]
    post = request.POST
    target = _target(tournament_or_404(pk), step, number=number,
                     player_id=player_id or int_or(post.get("player")), other_id=int_or(post.get("other")),
                     data={key: post.get(key, "") for key in step.carry})  # fmt: skip
    if post.get("confirmed") != "yes":
        query = {"player": player_id or int_or(post.get("player")), "other": int_or(post.get("other")),
                 "round": number, "next": post.get("next"), **target.data}  # fmt: skip
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
    get = request.GET
    target = _target(tournament, step, player_id=int_or(get.get("player"), 0), number=int_or(get.get("round")),
                     other_id=int_or(get.get("other")), data={key: get.get(key, "") for key in step.carry})  # fmt: skip
    # Players may drop themselves; every other step is the organizers'.
    mine = action == "drop" and target.player is not None and target.player.user_id == request.user.id
    if not is_organizer(tournament, request.user) and not mine:
        raise PermissionDenied
    title, text = step.words(target)
    return render(
        request,
        "tournaments/confirm.html",
        {"tournament": tournament, "title": title, "text": text, "action": action,
         "action_url": reverse(f"tournaments:{action}", args=_url_args(target, step)),
         "fields": _hidden_fields(target, step), "danger": action in DANGER,
         "back": local_path(request.GET.get("next", ""), reverse("tournaments:detail", args=[pk]))},
    )  # fmt: skip
