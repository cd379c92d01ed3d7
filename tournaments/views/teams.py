"""The organizer's team page of an event: make it a team event (size and mode, before anyone registers) and
register its teams by name and members' usernames (decks by number when deck registration is on)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from decks.models import Deck

from ..models import Tournament
from ..permissions import is_organizer
from ..services.teams import team_event_configure, team_register
from .helpers import int_or, run, tournament_or_404


@login_required
@require_http_methods(["GET", "POST"])
def team_manage(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    if not is_organizer(tournament, request.user):
        raise PermissionDenied
    typed: dict[str, Any] = {}
    status = 200
    if request.method == "POST" and request.POST.get("form") == "setup":
        size = int_or(request.POST.get("team_size"), -1) or -1
        mode = request.POST.get("team_mode", "seats")
        if run(request, lambda: team_event_configure(tournament=tournament, by=request.user, team_size=size,
                                                     team_mode=mode), _("Team settings saved.")):  # fmt: skip
            return redirect("tournaments:team_manage", pk=pk)
        status = 400
    elif request.method == "POST":
        typed = {key: request.POST.get(key, "")[:150] for key in ("name", *_fields(tournament))}
        name = typed["name"]
        if run(
            request,
            lambda: _register(request, tournament, typed),
            _("Team %(name)s registered.") % {"name": name},
        ):
            return redirect("tournaments:team_manage", pk=pk)
        status = 400
    teams = [
        {"name": team.name, "members": [("ABC"[m.seat], m.player.name) for m in team.members.all()]}
        for team in tournament.teams.prefetch_related("members__player")
    ]
    seats = [
        {"letter": "ABC"[seat], "user": f"member_{seat}", "deck": f"deck_{seat}",
         "user_value": typed.get(f"member_{seat}", ""), "deck_value": typed.get(f"deck_{seat}", "")}
        for seat in range(tournament.team_size if tournament.team_size > 1 else 0)
    ]  # fmt: skip
    context = {
        "tournament": tournament,
        "teams": teams,
        "seats": seats,
        "typed_name": typed.get("name", ""),
        "can_configure": tournament.status == Tournament.Status.REGISTRATION
        and not tournament.players.exists(),
        "can_register": tournament.status == Tournament.Status.REGISTRATION and tournament.team_size > 1,
    }
    return render(request, "tournaments/team_manage.html", context, status=status)


def _fields(tournament: Tournament) -> list[str]:
    size = tournament.team_size if tournament.team_size > 1 else 0
    return [f"member_{seat}" for seat in range(size)] + [f"deck_{seat}" for seat in range(size)]


def _register(request: HttpRequest, tournament: Tournament, typed: dict[str, Any]) -> Any:
    """The typed usernames (and deck numbers) as accounts and decks, then the service's own checks."""

    size = tournament.team_size
    if size < 2:
        raise ValidationError(_("This event is not a team event."))
    names = [typed[f"member_{seat}"].strip() for seat in range(size)]
    if not all(names):
        raise ValidationError(_("Give the username of every member (%(n)s).") % {"n": size})
    users = {
        u.username.lower(): u for u in get_user_model().objects.filter(username__in=names, is_active=True)
    }
    missing = [n for n in names if n.lower() not in users]
    if missing:
        raise ValidationError(_("No account named %(names)s.") % {"names": ", ".join(missing)})
    members = [users[n.lower()] for n in names]
    decks = []
    numbers = [typed[f"deck_{seat}"].strip() for seat in range(size)]
    if any(numbers):
        for member, number in zip(members, numbers, strict=True):
            pk = int_or(number, 0) or 0
            # Out of the id column's range (typed or forged): no such deck, never a database error.
            deck = Deck.objects.filter(pk=pk).first() if 0 < pk < 2**63 else None
            # Only the organizer's own decks (lists entered by hand): a player's deck, even one the organizer
            # can read, is never registered without the player (they join and choose it themselves).
            if deck is None or deck.owner_id != request.user.pk:
                raise ValidationError(
                    _(
                        "No deck %(number)s of yours for %(member)s: players register their own decks themselves."
                    )
                    % {"number": number or "—", "member": member.username}
                )
            decks.append(deck)
    return team_register(
        tournament=tournament, by=request.user, name=typed["name"], members=members, decks=decks
    )
