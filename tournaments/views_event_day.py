"""Event-day pages: joining by code, check-in, "My event" on a phone, projector pages, confirmation steps.

Views parse input and call one service; the live mechanism (ETag/304, shared renders) is in live.py.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from . import live, printables, selectors, services
from .models import Match, Player, Round, Tournament
from .my_event import my_event_state
from .permissions import is_organizer, player_for_user
from .services.registration import normalize_join_code
from .views import _back, _deck_for, _errors, _int, _run, _tournament


def _json_script_config(**values: Any) -> dict[str, Any]:
    return {"poll_ms": live.POLL_MS, **values}


# --- joining --------------------------------------------------------------------------------------------


def join_url(request: HttpRequest, tournament: Tournament) -> str:
    return request.build_absolute_uri(reverse("tournaments:join_code", args=[tournament.join_code or "-"]))


def qr_svg(data: str, *, scale: int = 6) -> str:
    """The QR code of ``data`` as inline SVG (drawn on the server: no script, no request to anyone)."""
    import segno

    return segno.make(data, error="m").svg_inline(scale=scale, border=2, dark="#000", light="#fff")


@require_GET
def join_start(request: HttpRequest) -> HttpResponse:
    """Type the code shown on the poster or projector."""
    code = request.GET.get("code", "").strip()
    if code:
        return redirect("tournaments:join_code", code=normalize_join_code(code) or code[:20])
    return render(request, "tournaments/join_start.html", {})


@require_http_methods(["GET", "POST"])
def join_code(request: HttpRequest, code: str) -> HttpResponse:
    """One screen: a signed-in player picks a deck (or pastes a list) and joins; a newcomer also chooses a
    username and password here, and the account and the entry are created together."""
    try:
        tournament = services.tournament_by_join_code(code)
    except ValidationError as error:
        return render(
            request, "tournaments/join_start.html", {"errors": _errors(error), "code": code}, status=404
        )
    user = request.user
    if user.is_authenticated and player_for_user(tournament, user) is not None:
        return redirect("tournaments:my_event", pk=tournament.pk)
    signup_form = None
    if request.method == "POST":
        from accounts.forms import SignupForm

        if not user.is_authenticated:
            signup_form = SignupForm(request.POST)
            if not signup_form.is_valid():
                return _join_page(request, tournament, signup_form, status=400)
        try:
            with transaction.atomic():
                if signup_form is not None:
                    user = signup_form.save()
                deck = _deck_for(request) if user.is_authenticated else None
                services.player_join(code=tournament.join_code or "", by=user, deck=deck,
                                     text=request.POST.get("deck_text", ""))  # fmt: skip
        except ValidationError as error:
            for message in _errors(error):
                messages.error(request, message)
            return _join_page(request, tournament, signup_form, status=400)
        except PermissionDenied as error:
            messages.error(request, str(error))
            return _join_page(request, tournament, signup_form, status=403)
        if signup_form is not None:
            login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
        messages.success(request, _("You are registered for %(event)s.") % {"event": tournament.name})
        return redirect("tournaments:my_event", pk=tournament.pk)
    return _join_page(request, tournament, signup_form)


def _join_page(
    request: HttpRequest, tournament: Tournament, signup_form: Any, status: int = 200
) -> HttpResponse:
    from accounts.forms import SignupForm
    from decks.models import Deck

    decks = []
    if request.user.is_authenticated:
        decks = list(Deck.objects.filter(owner=request.user, game=tournament.game).order_by("name"))
    return render(
        request,
        "tournaments/join.html",
        {
            "tournament": tournament,
            "decks": decks,
            "signup_form": signup_form or (None if request.user.is_authenticated else SignupForm()),
            "deck_text": request.POST.get("deck_text", ""),
        },
        status=status,
    )


@login_required
@require_GET
def poster(request: HttpRequest, pk: int) -> HttpResponse:
    """A printable A4 poster: the join code in large letters and the QR code of the join link."""
    tournament = _tournament(pk)
    if not is_organizer(tournament, request.user):
        raise PermissionDenied
    url = join_url(request, tournament)
    return render(
        request,
        "tournaments/poster.html",
        {"tournament": tournament, "url": url, "qr": qr_svg(url, scale=10)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def players_bulk(request: HttpRequest, pk: int) -> HttpResponse:
    """Organizers paste names (one per line) or CSV rows (name, optional deck list)."""
    tournament = _tournament(pk)
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

        added = _run(request, action)
        if added:
            messages.success(request, _("%(n)s players added.") % {"n": len(added)})
            return redirect("tournaments:check_in", pk=pk)
    return render(request, "tournaments/players_bulk.html", {"tournament": tournament, "text": text})


# --- check-in -------------------------------------------------------------------------------------------


@login_required
@require_GET
def check_in(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(pk)
    organizer = is_organizer(tournament, request.user)
    if not organizer:
        return redirect("tournaments:my_event", pk=pk)
    players = list(tournament.players.order_by("name", "id"))
    return render(
        request,
        "tournaments/check_in.html",
        {
            "tournament": tournament,
            "players": players,
            "present": sum(1 for p in players if p.checked_in_at),
            "no_shows": [p for p in players if p.no_show],
            "can_restore": tournament.status != Tournament.Status.REGISTRATION
            and any(p.no_show for p in players)
            and not services.round_one_has_results(tournament),
            "qr": qr_svg(join_url(request, tournament), scale=4),
        },
    )


@login_required
@require_POST
def check_in_open(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(pk)
    _run(
        request, lambda: services.checkin_open(tournament=tournament, by=request.user), _("Check-in is open.")
    )
    return redirect("tournaments:check_in", pk=pk)


@login_required
@require_POST
def player_check_in(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    tournament = _tournament(pk)
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    present = request.POST.get("present", "1") != "0"
    _run(
        request,
        lambda: services.player_check_in(player=player, by=request.user, present=present),
        _("%(name)s is checked in.") % {"name": player.name}
        if present
        else _("%(name)s is marked absent.") % {"name": player.name},
    )
    return _back(request, reverse("tournaments:check_in", args=[pk]))


@login_required
@require_POST
def no_shows_restore(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(pk)
    _run(request, lambda: services.no_shows_restore(tournament=tournament, by=request.user),
         _("The no-shows are back in the event."))  # fmt: skip
    return redirect("tournaments:check_in", pk=pk)


@login_required
@require_POST
def player_drop_undo(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    tournament = _tournament(pk)
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    _run(request, lambda: services.player_drop_undo(player=player, by=request.user),
         _("%(name)s is back in the event.") % {"name": player.name})  # fmt: skip
    return _back(request, reverse("tournaments:detail", args=[pk]))


# --- confirmation steps ---------------------------------------------------------------------------------

# Every irreversible organizer action goes through this page: what it does, in words, and one button.
CONFIRMABLE = {
    "pair": "tournaments:pair",
    "repair": "tournaments:repair",
    "freeze": "tournaments:freeze",
    "start": "tournaments:start",
    "topcut": "tournaments:topcut",
    "finish": "tournaments:finish",
    "drop": "tournaments:drop",
}


def _confirm_text(
    tournament: Tournament, action: str, player: Player | None, number: int | None
) -> tuple[str, str]:
    if action == "pair":
        n = (tournament.round_set.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        return _("Pair round %(n)s?") % {"n": n}, _(
            "Every phone shows the new pairings at once. Results can no longer be entered for earlier rounds "
            "without a correction."
        )
    if action == "repair":
        return _("Pair round %(n)s again?") % {"n": number}, _(
            "The current pairings of this round are replaced by new ones; players who already found their "
            "table must look again."
        )
    if action == "freeze":
        return _("Close registration?"), _(
            "Nobody can join any more and every registered deck list is frozen."
        )
    if action == "start":
        return _("Start the event?"), _(
            "Players who have not checked in are dropped as no-shows (you can bring them back until round 1 "
            "has results) and round 1 is paired."
        )
    if action == "topcut":
        if tournament.status == Tournament.Status.TOP_CUT:
            return _("Pair the next top-cut round?"), _("The winners of this round meet in the next one.")
        return _("Start the top %(n)s?") % {"n": tournament.top_cut}, _(
            "The Swiss rounds end here: the best %(n)s players by the standings play the cut."
        ) % {"n": tournament.top_cut}
    if action == "finish":
        return _("Finish the event?"), _(
            "The final standings are published and no result can be entered any more."
        )
    assert player is not None
    return _("Drop %(name)s?") % {"name": player.name}, _(
        "%(name)s is not paired in later rounds and stays in the standings. You can undo this until the next "
        "round is paired."
    ) % {"name": player.name}


@login_required
@require_GET
def confirm(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    tournament = _tournament(pk)
    if action not in CONFIRMABLE:
        raise Http404
    player = None
    number = _int(request.GET.get("round"))
    args: list[Any] = [pk]
    if action == "drop":
        player = get_object_or_404(Player, pk=_int(request.GET.get("player"), 0), tournament=tournament)
        if not is_organizer(tournament, request.user) and player.user_id != request.user.id:
            raise PermissionDenied
        args.append(player.pk)
    else:
        if not is_organizer(tournament, request.user):
            raise PermissionDenied
        if action == "repair":
            round_ = get_object_or_404(Round, tournament=tournament, number=number or 0)
            args.append(round_.number)
    title, text = _confirm_text(tournament, action, player, number)
    back = request.GET.get("next", "")
    if not (back.startswith("/") and not back.startswith("//")):
        back = reverse("tournaments:detail", args=[pk])
    return render(
        request,
        "tournaments/confirm.html",
        {"tournament": tournament, "title": title, "text": text, "action_url": reverse(CONFIRMABLE[action], args=args),
         "action": action, "back": back},
    )  # fmt: skip


# --- "My event" -----------------------------------------------------------------------------------------


@login_required
@require_GET
def my_event(request: HttpRequest, pk: int) -> HttpResponse:
    return my_event_page(request, pk)


def my_event_page(request: HttpRequest, pk: int, status: int = 200) -> HttpResponse:
    tournament = _tournament(pk)
    player = player_for_user(tournament, request.user)
    if player is None:
        if is_organizer(tournament, request.user):
            return redirect("tournaments:detail", pk=pk)
        messages.info(request, _("You are not registered for this event."))
        return redirect("tournaments:detail", pk=pk)
    token = live.my_event_token(player_id=player.pk, user_id=request.user.pk)
    etag = live.my_event_etag(tournament_id=pk, player_id=player.pk, language=request.LANGUAGE_CODE)
    context = my_event_state(tournament_id=pk, player_id=player.pk)
    if context is None or etag is None:
        raise Http404
    fragment = _render_my_event(request, context)
    return render(
        request,
        "tournaments/my_event.html",
        {
            "tournament": tournament,
            "fragment": fragment,
            "live_url": reverse("tournaments:my_event_live", args=[pk]) + f"?k={token}",
            "etag": etag,
            "server_now": timezone.now(),
            "live_config": _json_script_config(),
        },
        status=status,
    )


@require_GET
def my_event_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The polled fragment. Unchanged: one query and 304, without reading the session."""
    ids = live.my_event_token_read(request.GET.get("k", ""))
    if ids is None:
        return HttpResponseForbidden(_("This link has expired; reload the page."))
    player_id, user_id = ids

    def render_fragment() -> str:
        if request.user.pk != user_id:
            raise PermissionDenied
        context = my_event_state(tournament_id=pk, player_id=player_id)
        if context is None:
            raise Http404
        return _render_my_event(request, context)

    response = live.personal_page(
        request,
        tournament_id=pk,
        player_id=player_id,
        render=render_fragment,
    )
    if response is None:
        raise Http404
    return response


def _render_my_event(request: HttpRequest, context: dict[str, Any]) -> str:
    return render_to_string("tournaments/_my_event.html", my_event_context(request, context), request=request)


def my_event_context(request: HttpRequest, base: dict[str, Any]) -> dict[str, Any]:
    """What the template needs beyond the raw state: whose turn it is to choose, which forms to offer."""
    from . import first_player

    tournament: Tournament = base["tournament"]
    player: Player = base["player"]
    match: Match | None = base["match"]
    seats = base["seats"]
    games = base["games"]
    mine = next((s for s in seats if s.player_id == player.pk), None)
    opponents = [s for s in seats if s.player_id != player.pk]
    round_: Round | None = base["round"]
    two_player = match is not None and not match.bye and len(seats) == 2
    done = match is not None and match.status in (Match.Status.CONFIRMED, Match.Status.FINAL)
    need = services.wins_needed(tournament, round_) if round_ is not None else 2
    max_games = 2 * need - 1 if two_player else 0
    decided = bool(two_player and max(s.wins for s in seats) >= need) or (
        match is not None and match.status != Match.Status.PENDING
    )
    next_first = None
    if two_player and not decided and len(games) < max_games:
        policy = services.game_rules(tournament.game).first_player
        records = [first_player.GameRecord(winner=g.winner_seat, first_player=g.first_seat) for g in games]
        try:
            decision = first_player.next_decision(policy, (0, 1), records)
        except ValueError:
            decision = None
        if decision is not None:
            next_first = {
                "toss": decision.toss,
                "name": None if decision.player is None else seats[decision.player].player.name,
                "is_me": decision.player is not None and seats[decision.player].player_id == player.pk,
                "chooses": decision.action == first_player.Action.CHOOSES,
                "game": len(games) + 1,
            }
    current_deck = base["swaps"][-1].deck if base["swaps"] else player.deck
    can_side = (
        two_player
        and not done
        and player.deck is not None
        and services.sideboarding_allowed(tournament)
        and 1 <= len(games) < max_games
        and not decided
    )
    return {
        **base,
        "back": reverse("tournaments:my_event", args=[tournament.pk]),
        "swap_lines": swap_lines(player.deck, base["swaps"]),
        "me": mine,
        "opponents": opponents,
        "two_player": two_player,
        "pods": match is not None and len(seats) > 2,
        "done": done,
        "decided": decided,
        "need": need,
        "game_numbers": list(range(1, max_games + 1)),
        "next_game": len(games) + 1 if two_player and not decided and len(games) < max_games else None,
        "next_first": next_first,
        "can_confirm": match is not None
        and match.status == Match.Status.REPORTED
        and match.reported_by_id != request.user.pk,
        "can_dispute": match is not None and match.status == Match.Status.REPORTED,
        "current_deck": current_deck,
        "deck_entry": printables.snapshot_entry(current_deck) if current_deck else None,
        "can_side": can_side,
        "side_rows": printables.sideboard_rows(current_deck) if can_side else None,
    }


def swap_lines(deck: dict[str, Any] | None, changes: list[Any]) -> list[dict[str, Any]]:
    """A player's swaps in words ("−1 Card A; +1 Card B"), with card names from their registered deck."""
    names = {line["external_id"]: line["name"] for lines in (deck or {}).get("sections", {}).values()
             for line in lines}  # fmt: skip
    lines = []
    for change in changes:
        items = []
        for swap in change.swaps:
            if swap.get("out"):
                items.append(("−", swap.get("count", 1), names.get(swap["out"], swap["out"])))
            if swap.get("in"):
                items.append(("+", swap.get("count", 1), names.get(swap["in"], swap["in"])))
        lines.append({"game": change.game_number, "items": items})
    return lines


# --- shared pages: projector and the players' pairings ------------------------------------------------


def _live_shell(request: HttpRequest, *, tournament_id: int, page: str, template: str, fragment_url: str,
                render_fragment: Any, **extra: Any) -> HttpResponse:  # fmt: skip
    """A shared page: its fragment polls answer 304 or come from the cache; the full page is a tiny shell
    rendered per request (it carries the server's clock for the timer) around the cached fragment."""
    if request.GET.get("fragment"):
        response = live.shared_page(request, tournament_id=tournament_id, page=page, render=render_fragment)
        if response is None:
            raise Http404
        return response
    entry = live.shared_entry(tournament_id=tournament_id, page=page, render=render_fragment)
    if entry is None:
        raise Http404
    etag = entry[0]
    # Our own template output (escaped when it was rendered), kept as bytes in the cache.
    fragment = mark_safe(live.entry_html(entry))  # noqa: S308
    tournament = _tournament(tournament_id)
    return render(
        request,
        template,
        {"tournament": tournament, "fragment": fragment, "live_url": fragment_url, "etag": etag,
         "server_now": timezone.now(), "page": page, "live_config": _json_script_config(**extra)},
    )  # fmt: skip


def _pairings_fragment(tournament_id: int, number: int | None, projector: bool) -> Any:
    def render_fragment() -> str:
        tournament = _tournament(tournament_id)
        rounds = tournament.round_set.order_by("-number")
        round_ = rounds.filter(number=number).first() if number else rounds.first()
        rows = printables.pairing_rows(round_, "name") if round_ is not None else []
        if round_ is not None and round_.kind == Round.Kind.TOP_CUT:
            round_.match_count = round_.matches.count()
        return render_to_string(
            "tournaments/_live_pairings.html",
            {"tournament": tournament, "round": round_, "rows": rows, "projector": projector,
             "timer": selectors.round_timer(round_) if round_ else None},
        )  # fmt: skip

    return render_fragment


@require_GET
def projector(request: HttpRequest, pk: int, page: str) -> HttpResponse:
    if page == "pairings":
        render_fragment = _pairings_fragment(pk, None, projector=True)
    elif page == "standings":

        def render_fragment() -> str:
            tournament = _tournament(pk)
            rows, columns = printables.standings_rows(tournament)
            return render_to_string("tournaments/_live_standings.html",
                                    {"tournament": tournament, "rows": rows, "columns": columns})  # fmt: skip

    elif page == "timer":

        def render_fragment() -> str:
            tournament = _tournament(pk)
            round_ = tournament.round_set.order_by("-number").first()
            if round_ is not None and round_.kind == Round.Kind.TOP_CUT:
                round_.match_count = round_.matches.count()
            return render_to_string("tournaments/_live_timer.html", {"tournament": tournament, "round": round_,
                                    "timer": selectors.round_timer(round_) if round_ else None})  # fmt: skip

    else:
        raise Http404
    url = reverse("tournaments:projector", args=[pk, page]) + "?fragment=1"
    return _live_shell(request, tournament_id=pk, page=f"projector-{page}", template="tournaments/projector.html",
                       fragment_url=url, render_fragment=render_fragment, page_ms=10_000)  # fmt: skip


@require_GET
def pairings(request: HttpRequest, pk: int) -> HttpResponse:
    """The players' pairings page (find your name): shared by everyone, served from the cache."""
    number = _int(request.GET.get("round"))
    url = reverse("tournaments:pairings", args=[pk]) + (f"?round={number}&" if number else "?") + "fragment=1"
    return _live_shell(request, tournament_id=pk, page=f"pairings-{number or 'latest'}",
                       template="tournaments/pairings.html", fragment_url=url,
                       render_fragment=_pairings_fragment(pk, number, projector=False))  # fmt: skip
