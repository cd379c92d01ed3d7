"""The organizer's team page of an event: make it a team event (size and mode, before anyone registers) and
register its teams by name and members' usernames (decks by number when deck registration is on)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
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
from ..services.entry_requests import team_invite_by_organizer
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
        made = run(request, lambda: _register(request, tournament, typed))
        if made:
            invited = made.invites.filter(answered_at__isnull=True).exists()
            messages.success(
                request,
                (_("Team %(name)s invited: each member accepts on their phone.") if invited
                 else _("Team %(name)s registered.")) % {"name": name},
            )  # fmt: skip
            return redirect("tournaments:team_manage", pk=pk)
        status = 400
    teams = [
        {
            "name": team.name,
            "members": [("ABC"[m.seat], m.player.name, m.player.deck_entered_by_organizer and m.player.deck)
                        for m in team.members.all()],
            "waiting": [("ABC"[i.seat], i.user.username) for i in team.invites.all() if i.answered_at is None],
        }
        for team in tournament.teams.prefetch_related("members__player", "invites__user")
    ]  # fmt: skip
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
    numbers = [typed[f"deck_{seat}"].strip() for seat in range(size)]
    if not any(numbers):
        return team_register(tournament=tournament, by=request.user, name=typed["name"], members=members)
    decks = []
    for number in numbers:
        pk = int_or(number, 0) or 0
        # Out of the id column's range (typed or forged): no such deck, never a database error.
        decks.append(Deck.objects.filter(pk=pk).first() if 0 < pk < 2**63 else None)
    if all(deck is not None and deck.owner_id == m.pk for deck, m in zip(decks, members, strict=True)):
        # Each member's own deck: they accept on their phones; nothing is registered (or read) before.
        return team_invite_by_organizer(
            tournament=tournament, by=request.user, name=typed["name"], members=members, decks=decks
        )
    for member, number, deck in zip(members, numbers, decks, strict=True):
        # Otherwise only the organizer's own copies (lists entered by hand, marked so on every page).
        if deck is None or deck.owner_id != request.user.pk:
            raise ValidationError(
                _(
                    "No deck %(number)s of yours for %(member)s: give your own copy for every member, or each "
                    "member's own deck (they then accept on their phones)."
                )
                % {"number": number or "—", "member": member.username}
            )
    return team_register(
        tournament=tournament, by=request.user, name=typed["name"], members=members, decks=decks
    )
