"""Players register a team themselves: the captain names it and the teammates on the event's page, each teammate
accepts or declines there on their own phone, and the captain names someone else for a declined seat."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import services
from ..models import EntryRequest, Team, TeamInvite
from .helpers import int_or, run, tournament_or_404


def _accounts(names: list[str]) -> list[Any]:
    wanted = [n.strip() for n in names if n.strip()]
    found = {
        u.username.lower(): u for u in get_user_model().objects.filter(username__in=wanted, is_active=True)
    }
    missing = [n for n in wanted if n.lower() not in found]
    if missing:
        raise ValidationError(_("No account named %(names)s.") % {"names": ", ".join(missing)})
    return [found[n.lower()] for n in wanted]


@login_required
@require_POST
def team_propose(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    names = [request.POST.get(f"mate_{seat}", "")[:150] for seat in range(1, max(tournament.team_size, 1))]
    name = request.POST.get("name", "")[:150]
    run(
        request,
        lambda: services.team_propose(
            tournament=tournament, by=request.user, name=name, teammates=_accounts(names)
        ),
        _("Team %(name)s registered: your teammates accept on their phones.") % {"name": name.strip()},
    )
    return redirect("tournaments:detail", pk=pk)


@login_required
@require_POST
def team_invite_answer(request: HttpRequest, invite_id: int) -> HttpResponse:
    invite = get_object_or_404(TeamInvite.objects.select_related("team"), pk=invite_id)
    accept = request.POST.get("answer") == "accept"
    done = _("You are on team %(name)s.") if accept else _("You declined the invitation to %(name)s.")
    answered = run(
        request,
        lambda: services.team_invite_answer(invite=invite, by=request.user, accept=accept),
        done % {"name": invite.team.name},
    )
    for problem in getattr(answered, "deck_problems", []):
        messages.warning(request, problem)
    return redirect("tournaments:detail", pk=invite.team.tournament_id)


@login_required
@require_POST
def team_invite_replace(request: HttpRequest, team_id: int) -> HttpResponse:
    team = get_object_or_404(Team, pk=team_id)
    seat = int_or(request.POST.get("seat"), -1) or -1
    username = request.POST.get("username", "")[:150]

    def invite() -> Any:
        if not username.strip():
            raise ValidationError(_("Give the teammate's username."))
        return services.team_invite_replace(
            team=team, by=request.user, seat=seat, user=_accounts([username])[0]
        )

    run(
        request,
        invite,
        _("Invitation sent."),
    )
    return redirect("tournaments:detail", pk=team.tournament_id)


@login_required
@require_POST
def entry_request_answer(request: HttpRequest, request_id: int) -> HttpResponse:
    """The player's answer to a registration an organizer asked of them (only they can answer it)."""
    asked = get_object_or_404(
        EntryRequest.objects.select_related("tournament"), pk=request_id, user=request.user
    )
    accept = request.POST.get("answer") == "accept"
    outcome = run(request, lambda: services.entry_request_answer(entry_request=asked, by=request.user,
                                                                  accept=accept))  # fmt: skip
    if outcome and accept:
        messages.success(request, _("You are registered for %(event)s.") % {"event": asked.tournament.name})
        for problem in outcome.deck_problems:
            messages.warning(request, problem)
        return redirect("tournaments:my_event", pk=asked.tournament_id)
    if outcome:
        messages.success(
            request, _("You declined to register for %(event)s.") % {"event": asked.tournament.name}
        )
    return redirect("tournaments:list")
