"""The organizer's pages: creating and editing an event, adding players, check-in, the round dashboard,
the round clock and deck checks. Irreversible steps (pair, start, cut, finish, drops) are in ``actions``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from cards.models import Game
from rules.models import BanList

from .. import services
from ..models import Player, Round, Tournament
from ..permissions import DECKLIST_STAGES, can_organize_any, decklist_timeline, is_organizer
from ..printables import documents as printables
from ..reads import selectors
from . import dashboard
from .helpers import (
    back,
    int_or,
    join_url,
    phone_origin,
    qr_svg,
    run,
    tournament_or_404,
)
from .projector import round_for_players


def decklist_form_rows(tournament: Tournament | None) -> list[dict[str, Any]]:
    """The deck list timeline's four selects (stage, its label, the level chosen)."""
    current = decklist_timeline(tournament) if tournament else dict.fromkeys(DECKLIST_STAGES, "closed")
    labels = {"registration": _("During registration"), "swiss": _("During the Swiss rounds"),
              "top_cut": _("During the top cut"), "finished": _("After the event")}  # fmt: skip
    return [{"stage": stage, "label": labels[stage], "level": current[stage]} for stage in DECKLIST_STAGES]


def _form_context(tournament: Tournament | None, data: Any = None) -> dict[str, Any]:
    games = list(Game.objects.prefetch_related("formats").order_by("name"))
    return {
        "tournament": tournament,
        "games": games,
        "banlists": BanList.objects.select_related("game").order_by("game__name", "-effective_date")[:300],
        "match_formats": Tournament.MatchFormat.choices,
        "tiebreak_policies": Tournament.Tiebreakers.choices,
        "top_cut_sizes": services.TOP_CUT_SIZES,
        "decklist_rows": decklist_form_rows(tournament),
        "decklist_levels": [
            ("closed", _("closed")),
            ("archetypes", _("archetypes only")),
            ("open", _("open lists (top cut: the cut's)")),
        ],
        "data": data or {},
        "co_organizers": ", ".join(tournament.co_organizers.values_list("username", flat=True))
        if tournament
        else "",
    }


def _settings_from_post(post: Any) -> dict[str, Any]:
    deadline = post.get("registration_deadline") or None
    banlist_id = int_or(post.get("banlist"))
    banlist = None
    if banlist_id:
        banlist = BanList.objects.filter(pk=banlist_id).first()
    return {
        "rounds": int_or(post.get("rounds")),
        "top_cut": int_or(post.get("top_cut"), 0) or 0,
        "deck_registration": post.get("deck_registration") == "on",
        "registration_deadline": _aware(parse_datetime(deadline)) if deadline else None,
        "banlist": banlist,
        "on_date": parse_date(post.get("on_date") or "") if post.get("on_date") else None,
        "allow_sideboard": post.get("allow_sideboard") == "on",
        "rated": post.get("rated") == "on",
        "late_entry_losses": post.get("late_entry_losses") == "on",
        "publish_decklists": post.get("publish_decklists") == "on",
        "decklist_timeline": {stage: post.get(f"decklists_{stage}", "closed") for stage in DECKLIST_STAGES},
        "round_minutes": int_or(post.get("round_minutes"), 50) or 50,
        "draft_pairings": post.get("draft_pairings") == "on",
        # Typed but not a number: -1, so the service names the field instead of silently meaning "none".
        "capacity": int_or(raw_cap, -1) if (raw_cap := (post.get("capacity") or "").strip()) else None,
        "late_entry_until_round": int_or(post.get("late_entry_until_round") or "2", -1),
    }


def _aware(value: datetime | None) -> datetime | None:
    if value is not None and timezone.is_naive(value):
        return timezone.make_aware(value)
    return value


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    if not can_organize_any(request.user):
        raise PermissionDenied(_("Only organizers may create tournaments."))
    if request.method == "POST":
        post = request.POST
        # One select sends "game:format" so a format can never be paired with the wrong game.
        game_slug, _sep, game_format = post.get("game_format", "").partition(":")
        game = Game.objects.filter(slug=game_slug).first()
        if game is None:
            messages.error(request, _("Choose a game and format."))
        else:
            tournament = run(
                request,
                lambda: services.tournament_create(
                    created_by=request.user,
                    name=post.get("name", ""),
                    game=game,
                    format_slug=game_format,
                    match_format=post.get("match_format") or None,
                    tiebreakers=post.get("tiebreakers") or None,
                    seed=int_or(post.get("seed")),
                    **_settings_from_post(post),
                ),
                _("Tournament created."),
            )
            if tournament:
                return redirect("tournaments:detail", pk=tournament.pk)
    return render(request, "tournaments/form.html", _form_context(None, request.POST))


@login_required
@require_http_methods(["GET", "POST"])
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    if not is_organizer(tournament, request.user):
        raise PermissionDenied
    if request.method == "POST":
        fields = {"name": request.POST.get("name", ""), **_settings_from_post(request.POST)}
        if tournament.created_by_id == request.user.id or request.user.is_staff:
            # Only the creator appoints co-organizers (a co-organizer cannot add more of them).

            names = [n.strip() for n in request.POST.get("co_organizers", "").split(",") if n.strip()]
            found = list(User.objects.filter(username__in=names))
            unknown = sorted(set(names) - {u.username for u in found})
            if unknown:
                messages.error(request, _("Unknown users: %(names)s.") % {"names": ", ".join(unknown)})
                return render(request, "tournaments/form.html", _form_context(tournament))
            fields["co_organizers"] = found
        if tournament.round_set.exists():
            for key in services.EDITABLE_BEFORE_ROUND_1:
                fields.pop(key, None)
        elif services.decks_frozen(tournament):
            # The form always posts the deadline; once frozen it is history, not a setting.
            fields.pop("registration_deadline", None)
        if run(request, lambda: services.tournament_update(tournament=tournament, by=request.user, **fields),
                _("Settings saved.")):  # fmt: skip
            return redirect("tournaments:detail", pk=pk)
    return render(request, "tournaments/form.html", _form_context(tournament))


@login_required
@require_POST
def guest_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Organizers add a guest by name, or an existing account by username (whose phone then works)."""
    tournament = tournament_or_404(pk)
    name = request.POST.get("name", "").strip()
    username = request.POST.get("username", "").strip()
    over_cap = request.POST.get("over_cap") == "on"

    def action() -> Any:
        user = services.user_by_username(username) if username else None
        if tournament.status == Tournament.Status.RUNNING:
            return services.player_add_late(
                tournament=tournament, by=request.user, name=name, user=user, over_cap=over_cap
            )
        return services.player_register(
            tournament=tournament, by=request.user, name=name, user=user, over_cap=over_cap
        )

    player = run(request, action)
    if player:
        if player.waitlisted:
            messages.success(request, _("%(name)s is on the waitlist.") % {"name": player.name})
        else:
            messages.success(request, _("%(name)s added.") % {"name": player.name})
    return redirect("tournaments:detail", pk=pk)


@login_required
@require_POST
def waitlist_admit(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    """Organizers let one waitlisted player in, whatever their place in line (over the cap if need be)."""
    tournament = tournament_or_404(pk)
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    run(
        request,
        lambda: services.waitlist_admit(player=player, by=request.user),
        _("%(name)s is in the event.") % {"name": player.name},
    )
    return back(request, reverse("tournaments:check_in", args=[pk]))


@login_required
@require_POST
def player_link(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    """Organizers: a guest entry now belongs to an account (audited)."""
    tournament = tournament_or_404(pk)
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    username = request.POST.get("username", "")
    run(
        request,
        lambda: services.player_link(player=player, by=request.user, username=username),
        _("%(name)s now belongs to the account %(username)s.")
        % {"name": player.name, "username": username.strip()},
    )
    return back(request, reverse("tournaments:detail", args=[pk]))


@login_required
@require_http_methods(["GET", "POST"])
def players_bulk(request: HttpRequest, pk: int) -> HttpResponse:
    """Organizers paste names (one per line) or CSV rows (name, optional deck list)."""
    tournament = tournament_or_404(pk)
    if not is_organizer(tournament, request.user):
        raise PermissionDenied
    text = request.POST.get("text", "")
    if request.method == "POST":

        def action() -> Any:
            if request.POST.get("kind") == "csv":
                rows: Any = services.players_from_csv(text)
            else:
                rows = [line for line in text.splitlines() if line.strip()]
            return services.players_bulk_add(tournament=tournament, by=request.user, rows=rows)

        added = run(request, action)
        if added:
            messages.success(request, _("%(n)s players added.") % {"n": len(added)})
            return redirect("tournaments:check_in", pk=pk)
    return render(request, "tournaments/players_bulk.html", {"tournament": tournament, "text": text})


@login_required
@require_GET
def check_in(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    organizer = is_organizer(tournament, request.user)
    if not organizer:
        return redirect("tournaments:my_event", pk=pk)
    context = dashboard.check_in_context(request, tournament)
    fragment = render_to_string("tournaments/_check_in_live.html", context, request=request)
    return render(request, "tournaments/check_in.html",
                  {**context, **dashboard.live_shell_context(request, tournament, "check_in"), "fragment": fragment,
                   **dashboard.check_in_page_context(tournament, context["players"]),
                   "qr": qr_svg(join_url(request, tournament), scale=4), "phone": phone_origin(request)})  # fmt: skip


@login_required
@require_POST
def check_in_open(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    run(
        request, lambda: services.checkin_open(tournament=tournament, by=request.user), _("Check-in is open.")
    )
    return redirect("tournaments:check_in", pk=pk)


@login_required
@require_POST
def no_shows_restore(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    run(request, lambda: services.no_shows_restore(tournament=tournament, by=request.user),
         _("The no-shows are back in the event."))  # fmt: skip
    return redirect("tournaments:check_in", pk=pk)


@login_required
@require_POST
def player_drop_undo(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    run(request, lambda: services.player_drop_undo(player=player, by=request.user),
         _("%(name)s is back in the event.") % {"name": player.name})  # fmt: skip
    return back(request, reverse("tournaments:detail", args=[pk]))


@require_GET
def round_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The organizer's round dashboard; everyone else gets the shared (cached, live) pairings page."""
    tournament = tournament_or_404(pk)
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    organizer = is_organizer(tournament, request.user)
    timer = selectors.round_timer(round_)
    if not organizer:
        return round_for_players(request, tournament, round_, timer)
    # The fragment is rendered afresh on a full load (the cache serves the polls): a reload always shows
    # the database as it is, even right after a change whose counter bump is still on its way.
    fragment = dashboard.render_fragment(request, tournament, "round", round_, full_page=True)
    return render(request, "tournaments/round.html",
                  {**dashboard.round_page_context(request, tournament, round_), "tournament": tournament,
                   "round": round_, "timer": timer, "fragment": fragment,
                   **dashboard.live_shell_context(request, tournament, "round", round_.number)})  # fmt: skip


@login_required
@require_POST
def round_timer(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, tournament_id=pk, number=number)
    minutes = int_or(request.POST.get("minutes"))
    run(request, lambda: services.round_timer_start(round_=round_, by=request.user, minutes=minutes),
         _("Round timer started."))  # fmt: skip
    return redirect("tournaments:round", pk=pk, number=number)


@login_required
@require_http_methods(["GET", "POST"])
def deck_check(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    """Organizers compare a presented list (pasted as text or chosen deck) with the registered one."""
    tournament = tournament_or_404(pk)
    if not is_organizer(tournament, request.user):
        raise PermissionDenied
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    diffs = None
    if request.method == "POST":
        diffs = run(request, lambda: printables.deck_check(tournament, player, request.POST.get("text", "")))
        if diffs is True:
            diffs = []
    return render(
        request,
        "tournaments/deck_check.html",
        {"tournament": tournament, "player": player, "diffs": diffs, "text": request.POST.get("text", ""),
         "entry": printables.decklist_entries([player])[0]},
    )  # fmt: skip
