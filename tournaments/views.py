"""HTML pages for tournaments. Views parse the form, call one service and redirect; rules live in services."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cards.models import Game

from . import history, printables, selectors, services
from .models import Match, Player, Round, Tournament
from .permissions import can_organize_any, can_see_decklist, is_organizer, player_for_user, user_seat_player


def _errors(error: ValidationError) -> list[str]:
    if hasattr(error, "error_dict"):
        return [f"{field}: {msg}" if field != "__all__" else msg for field, msgs in error.message_dict.items()
                for msg in msgs]  # fmt: skip
    return list(error.messages)


def _refused(request: HttpRequest, error: ValidationError | PermissionDenied) -> None:
    if isinstance(error, ValidationError):
        for message in _errors(error):
            messages.error(request, message)
    else:
        messages.error(request, str(error) or _("You are not allowed to do that."))


def _run(request: HttpRequest, action: Callable[[], Any], success: str | None = None) -> Any:
    """Call a service; report a refusal as a message instead of an error page."""
    try:
        result = action()
    except (ValidationError, PermissionDenied) as error:
        _refused(request, error)
        return None
    if success:
        messages.success(request, success)
    return result if result is not None else True


def _needs_confirmation(request: HttpRequest, pk: int, action: str, **query: Any) -> HttpResponse | None:
    """An irreversible action posted without the confirmation page's marker shows that page instead."""
    if request.POST.get("confirmed") == "yes":
        return None
    params = {key: value for key, value in query.items() if value}
    url = reverse("tournaments:confirm", args=[pk, action])
    return HttpResponseRedirect(f"{url}?{urlencode(params)}" if params else url)


def _back(request: HttpRequest, fallback: str) -> HttpResponseRedirect:
    target = request.POST.get("next", "")
    # Only local paths: never redirect to another site.
    if target.startswith("/") and not target.startswith("//"):
        return HttpResponseRedirect(target)
    return HttpResponseRedirect(fallback)


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("game", "created_by", "banlist"), pk=pk)


def _int(value: Any, default: int | None = None) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


# --- list, create, edit, detail -------------------------------------------------------------------------


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/list.html",
        {"tournaments": selectors.tournament_list()[:200], "can_create": can_organize_any(request.user)},
    )


def _form_context(tournament: Tournament | None, data: Any = None) -> dict[str, Any]:
    from rules.models import BanList

    games = list(Game.objects.prefetch_related("formats").order_by("name"))
    return {
        "tournament": tournament,
        "games": games,
        "banlists": BanList.objects.select_related("game").order_by("game__name", "-effective_date")[:300],
        "match_formats": Tournament.MatchFormat.choices,
        "tiebreak_policies": Tournament.Tiebreakers.choices,
        "top_cut_sizes": services.TOP_CUT_SIZES,
        "data": data or {},
        "co_organizers": ", ".join(tournament.co_organizers.values_list("username", flat=True))
        if tournament
        else "",
    }


def _settings_from_post(post: Any) -> dict[str, Any]:
    deadline = post.get("registration_deadline") or None
    banlist_id = _int(post.get("banlist"))
    banlist = None
    if banlist_id:
        from rules.models import BanList

        banlist = BanList.objects.filter(pk=banlist_id).first()
    return {
        "rounds": _int(post.get("rounds")),
        "top_cut": _int(post.get("top_cut"), 0) or 0,
        "deck_registration": post.get("deck_registration") == "on",
        "registration_deadline": _aware(parse_datetime(deadline)) if deadline else None,
        "banlist": banlist,
        "on_date": parse_date(post.get("on_date") or "") if post.get("on_date") else None,
        "allow_sideboard": post.get("allow_sideboard") == "on",
        "late_entry_losses": post.get("late_entry_losses") == "on",
        "publish_decklists": post.get("publish_decklists") == "on",
        "round_minutes": _int(post.get("round_minutes"), 50) or 50,
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
            tournament = _run(
                request,
                lambda: services.tournament_create(
                    created_by=request.user,
                    name=post.get("name", ""),
                    game=game,
                    format_slug=game_format,
                    match_format=post.get("match_format") or None,
                    tiebreakers=post.get("tiebreakers") or None,
                    seed=_int(post.get("seed")),
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
    tournament = _tournament(pk)
    if not is_organizer(tournament, request.user):
        raise PermissionDenied
    if request.method == "POST":
        fields = {"name": request.POST.get("name", ""), **_settings_from_post(request.POST)}
        if tournament.created_by_id == request.user.id or request.user.is_staff:
            # Only the creator appoints co-organizers (a co-organizer cannot add more of them).
            from accounts.models import User

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
        if _run(request, lambda: services.tournament_update(tournament=tournament, by=request.user, **fields),
                _("Settings saved.")):  # fmt: skip
            return redirect("tournaments:detail", pk=pk)
    return render(request, "tournaments/form.html", _form_context(tournament))


@require_GET
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(pk)
    organizer = is_organizer(tournament, request.user)
    me = player_for_user(tournament, request.user)
    rounds = list(tournament.round_set.order_by("number").annotate(match_count=Count("matches")))
    latest = rounds[-1] if rounds else None
    my_match = None
    if me is not None and latest is not None:
        my_match = latest.matches.filter(seats__player=me).first()
    my_decks = []
    if request.user.is_authenticated and tournament.deck_registration:
        from decks.models import Deck

        my_decks = list(Deck.objects.filter(owner=request.user, game=tournament.game).order_by("name"))
    players = list(tournament.players.select_related("user").order_by("name", "id"))
    undoable = {p.pk for p in players if organizer and p.dropped and services.drop_undoable(tournament, p)}
    return render(
        request,
        "tournaments/detail.html",
        {
            "tournament": tournament,
            "organizer": organizer,
            "me": me,
            "players": players,
            "undoable_drops": undoable,
            "join_qr": _join_qr(request, tournament)
            if organizer and tournament.status == "registration"
            else "",
            "rounds": rounds,
            "latest": latest,
            "latest_complete": latest is not None and services.records.round_complete(latest),
            "my_match": my_match,
            "my_decks": my_decks,
            "registration_open": services.registration_open(tournament),
            "decks_frozen": services.decks_frozen(tournament),
            "uses_pool": tournament.deck_registration and services.format_uses_pool(tournament),
            "attention": list(selectors.attention_matches(tournament)) if organizer else [],
            "champion": selectors.tournament_champion(tournament),
            "swiss_done": latest is not None
            and latest.kind == Round.Kind.SWISS
            and latest.number >= (tournament.rounds or 0),
        },
    )


def _join_qr(request: HttpRequest, tournament: Tournament) -> str:
    from .views_event_day import join_url, qr_svg

    return qr_svg(join_url(request, tournament), scale=3)


# --- registration ---------------------------------------------------------------------------------------


def _deck_for(request: HttpRequest) -> Any:
    deck_id = _int(request.POST.get("deck"))
    if not deck_id:
        return None
    from decks.models import Deck

    deck = Deck.objects.filter(pk=deck_id).first()
    if deck is None or not deck.readable_by(request.user):
        raise Http404
    return deck


@login_required
@require_POST
def tournament_join(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(pk)
    deck = _deck_for(request)
    _run(
        request,
        lambda: services.player_register(tournament=tournament, by=request.user, deck=deck),
        _("You are registered."),
    )
    return redirect("tournaments:detail", pk=pk)


@login_required
@require_POST
def guest_add(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(pk)
    name = request.POST.get("name", "")
    if tournament.status == Tournament.Status.RUNNING:
        action = lambda: services.player_add_late(tournament=tournament, by=request.user, name=name)  # noqa: E731
    else:
        action = lambda: services.player_register(tournament=tournament, by=request.user, name=name)  # noqa: E731
    _run(request, action, _("%(name)s added.") % {"name": name})
    return redirect("tournaments:detail", pk=pk)


@login_required
@require_POST
def deck_submit(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    tournament = _tournament(pk)
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    deck = _deck_for(request)
    _run(
        request,
        lambda: services.player_submit_deck(player=player, by=request.user, deck=deck),
        _("Deck registered."),
    )
    return redirect("tournaments:detail", pk=pk)


def _upload_text(request: HttpRequest, text_field: str, file_field: str) -> tuple[str | bytes, str]:
    """A pasted list, or an uploaded file (read up to the parser's size limit, which then names the problem)."""
    from decks.formats import MAX_BYTES

    upload = request.FILES.get(file_field)
    if upload is not None:
        return upload.read(MAX_BYTES + 1), upload.name or ""
    return request.POST.get(text_field, ""), ""


@login_required
@require_http_methods(["GET", "POST"])
def player_registration(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    """Register a player's list: a deck of theirs or one pasted/uploaded in any supported format, and in
    limited formats first the pool it is built from (the rules engine checks the deck against the pool)."""
    tournament = _tournament(pk)
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    organizer = is_organizer(tournament, request.user)
    if not organizer and player.user_id != request.user.id:
        raise PermissionDenied
    uses_pool = services.format_uses_pool(tournament)
    if request.method == "POST":
        if request.POST.get("action") == "pool":
            text, filename = _upload_text(request, "pool_text", "pool_file")
            done = _run(
                request,
                lambda: services.player_submit_pool(
                    player=player, by=request.user, text=text, filename=filename
                ),
                _("Pool registered."),
            )
            if done and player.deck is None:
                messages.info(request, _("Now register a deck built from this pool."))
        else:
            deck = _deck_for(request)
            text, filename = ("", "") if deck is not None else _upload_text(request, "deck_text", "deck_file")
            _run(
                request,
                lambda: services.player_submit_deck(
                    player=player, by=request.user, deck=deck, text=text, filename=filename
                ),
                _("Deck registered."),
            )
        return redirect("tournaments:player_registration", pk=pk, player_id=player_id)
    from decks.models import Deck

    player.refresh_from_db()
    return render(
        request,
        "tournaments/registration.html",
        {
            "tournament": tournament,
            "player": player,
            "organizer": organizer,
            "uses_pool": uses_pool,
            "frozen": services.decks_frozen(tournament) and not (organizer and player.deck is None),
            "my_decks": list(Deck.objects.filter(owner=request.user, game=tournament.game).order_by("name")),
            "entry": printables.decklist_entries([player])[0],
            "pool_entry": printables.pool_entry(player) if uses_pool else None,
        },
    )


@login_required
@require_POST
def player_drop(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    tournament = _tournament(pk)
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    if pending := _needs_confirmation(request, pk, "drop", player=player_id, next=request.POST.get("next")):
        return pending
    _run(request, lambda: services.player_drop(player=player, by=request.user),
         _("%(name)s dropped.") % {"name": player.name})  # fmt: skip
    return _back(request, reverse("tournaments:detail", args=[pk]))


@login_required
@require_POST
def registration_freeze(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(pk)
    if pending := _needs_confirmation(request, pk, "freeze"):
        return pending
    _run(request, lambda: services.registration_freeze(tournament=tournament, by=request.user),
         _("Registration closed; deck lists are frozen."))  # fmt: skip
    return redirect("tournaments:detail", pk=pk)


@login_required
@require_POST
def tournament_start(request: HttpRequest, pk: int) -> HttpResponse:
    """Close check-in (dropping the no-shows) and pair round 1."""
    tournament = _tournament(pk)
    if pending := _needs_confirmation(request, pk, "start"):
        return pending
    if _run(request, lambda: services.tournament_start(tournament=tournament, by=request.user)):
        round_ = _run(request, lambda: services.round_pair_next(tournament=tournament, by=request.user))
        if round_:
            messages.success(
                request, _("The event has started: round %(n)s is paired.") % {"n": round_.number}
            )
            return redirect("tournaments:round", pk=pk, number=round_.number)
    return redirect("tournaments:detail", pk=pk)


# --- rounds ---------------------------------------------------------------------------------------------


@login_required
@require_POST
def round_pair(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(pk)
    if pending := _needs_confirmation(request, pk, "pair"):
        return pending
    round_ = _run(request, lambda: services.round_pair_next(tournament=tournament, by=request.user))
    if round_:
        messages.success(request, _("Round %(n)s paired.") % {"n": round_.number})
        return redirect("tournaments:round", pk=pk, number=round_.number)
    return redirect("tournaments:detail", pk=pk)


@login_required
@require_POST
def round_repair(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, tournament_id=pk, number=number)
    if pending := _needs_confirmation(request, pk, "repair", round=number):
        return pending
    _run(request, lambda: services.round_repair(round_=round_, by=request.user),
         _("Round %(n)s paired again.") % {"n": number})  # fmt: skip
    return redirect("tournaments:round", pk=pk, number=number)


@login_required
@require_POST
def round_timer(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, tournament_id=pk, number=number)
    minutes = _int(request.POST.get("minutes"))
    _run(request, lambda: services.round_timer_start(round_=round_, by=request.user, minutes=minutes),
         _("Round timer started."))  # fmt: skip
    return redirect("tournaments:round", pk=pk, number=number)


@require_GET
def round_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The organizer's round dashboard; everyone else gets the shared (cached, live) pairings page."""
    tournament = _tournament(pk)
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    organizer = is_organizer(tournament, request.user)
    timer = selectors.round_timer(round_)
    if not organizer:
        return _round_for_players(request, tournament, round_, timer)
    matches = selectors.round_with_matches(round_=round_)
    overtime = selectors.overtime_matches(round_)
    # Outstanding first: disputes, then matches without a settled result (late ones on top), then the rest.
    order = {Match.Status.DISPUTED: 0, Match.Status.PENDING: 1, Match.Status.REPORTED: 2}
    matches.sort(key=lambda m: (m.bye, order.get(m.status, 3), m.pk not in overtime, m.table))
    outstanding = sum(1 for m in matches if not m.bye and m.status in order)
    round_.match_count = len(matches)
    return render(
        request,
        "tournaments/round.html",
        {
            "tournament": tournament,
            "round": round_,
            "matches": matches,
            "outstanding": outstanding,
            "timer": timer,
            "overtime": overtime,
            "server_now": timezone.now(),
            "organizer": organizer,
            "has_results": any(m.status != Match.Status.PENDING and not m.bye for m in matches),
            "is_latest": not tournament.round_set.filter(number__gt=number).exists(),
            "top_cut": round_.kind == Round.Kind.TOP_CUT,
            "pods": tournament.match_format == Tournament.MatchFormat.PODS
            and round_.kind == Round.Kind.SWISS,
        },
    )


def _round_for_players(
    request: HttpRequest, tournament: Tournament, round_: Round, timer: Any
) -> HttpResponse:
    """Everyone but the organizers sees the same table: rendered once per change of the event (and once more
    when time runs out, for the late-table flags) and kept in the cache, whatever the size of the event."""
    from . import live

    def render_table() -> str:
        matches = selectors.round_with_matches(round_=round_)
        overtime = selectors.overtime_matches(round_)
        pods = tournament.match_format == Tournament.MatchFormat.PODS and round_.kind == Round.Kind.SWISS
        return render_to_string("tournaments/_round_public.html",
                                {"matches": matches, "overtime": overtime, "pods": pods})  # fmt: skip

    entry = live.shared_entry(tournament_id=tournament.pk, page=f"round-{round_.number}-{int(timer.expired)}",
                              render=render_table)  # fmt: skip
    if entry is None:
        raise Http404
    round_.match_count = round_.matches.count() if round_.kind == Round.Kind.TOP_CUT else None
    return render(
        request,
        "tournaments/round.html",
        {"tournament": tournament, "round": round_, "timer": timer, "server_now": timezone.now(),
         "organizer": False, "public_table": mark_safe(live.entry_html(entry))},  # noqa: S308 - our own escaped render
    )  # fmt: skip


# --- matches --------------------------------------------------------------------------------------------


def _match(match_id: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("round__tournament__game").prefetch_related("seats__player", "games"),
        pk=match_id,
    )


@require_GET
def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    return _match_page(request, match_id)


def _match_page(request: HttpRequest, match_id: int, status: int = 200) -> HttpResponse:
    from .views_event_day import swap_lines

    match = _match(match_id)
    tournament = match.round.tournament
    organizer = is_organizer(tournament, request.user)
    me = user_seat_player(match, request.user)
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    done = match.status in (Match.Status.CONFIRMED, Match.Status.FINAL)
    games = list(match.games.all())
    side_game = len(games) + 1
    can_side = (
        services.sideboarding_allowed(tournament)
        and not match.bye
        and not done
        and 2 <= side_game <= services.max_games(tournament, match.round)
    )
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
            "can_report": (organizer or me is not None) and not match.bye and not done,
            "can_confirm": me is not None
            and match.status == Match.Status.REPORTED
            and match.reported_by_id != request.user.id,
            "can_side": can_side and (organizer or me is not None),
            "side_player": side_player,
            "side_game": side_game,
            "next_game": side_game if side_game <= services.max_games(tournament, match.round) else None,
            "side_rows": printables.sideboard_rows(
                current, game_slug=tournament.game.slug, format_slug=tournament.format_slug
            )
            if current
            else None,
            "side_lines": side_lines,
            "pod_labels": printables.pod_labels(tournament),
            "audit": history.audit_rows(selectors.match_audit(match)) if organizer or me is not None else [],
            "game_rows": range(1, services.max_games(tournament, match.round) + 1),
            "pods": tournament.match_format == Tournament.MatchFormat.PODS
            and match.round.kind == Round.Kind.SWISS,
        },
        status=status,
    )


def _result_from_post(post: Any, match: Match) -> dict[str, Any]:
    """Three ways to enter a result: per-game rows, game wins (+ draws), or pod places."""
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    if post.get("mode") == "pods":
        rows = []
        for s in seats:
            row: dict[str, Any] = {"player": s.player_id}
            for key in ("score", "tiebreak", "place"):
                value = _int(post.get(f"{key}_{s.player_id}"))
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
            games.append({"winner": None if winner == "draw" else _int(winner), "first": _int(first)})
        return {"games": games}
    if post.get("intentional_draw"):
        return {"wins": [0, 0], "draws": 3}
    wins = [_int(post.get("wins_a"), -1), _int(post.get("wins_b"), -1)]
    if min(wins) < 0:
        raise ValidationError({"wins": _("Enter both players' game wins.")})
    return {"wins": wins, "draws": _int(post.get("draws"), 0) or 0}


@login_required
@require_POST
def match_report(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match(match_id)

    def action() -> Any:
        return services.match_report_result(
            match=match, by=request.user, **_result_from_post(request.POST, match)
        )

    _run(request, action, _("Result saved."))
    return _back(request, reverse("tournaments:match", args=[match_id]))


@login_required
@require_POST
def match_correct(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match(match_id)

    def action() -> Any:
        return services.match_correct_result(
            match=match,
            by=request.user,
            reason=request.POST.get("reason", ""),
            **_result_from_post(request.POST, match),
        )

    _run(request, action, _("Result corrected."))
    return _back(request, reverse("tournaments:match", args=[match_id]))


@login_required
@require_POST
def match_confirm(request: HttpRequest, match_id: int) -> HttpResponse:
    """A confirm names the version it confirms; a result that changed since is refused (409) and shown."""
    match = _match(match_id)
    version = _int(request.POST.get("version"))
    if version is None:
        messages.error(request, _("Reload the page and confirm the result you see."))
        return _back(request, reverse("tournaments:match", args=[match_id]))
    try:
        services.match_confirm_result(match=match, by=request.user, version=version)
    except services.StaleVersion as error:
        messages.error(request, error.messages[0])
        # Back on the page the player came from, with the result as it is now.
        if request.POST.get("next") == reverse("tournaments:my_event", args=[match.round.tournament_id]):
            from .views_event_day import my_event_page

            return my_event_page(request, match.round.tournament_id, status=409)
        return _match_page(request, match_id, status=409)
    except (ValidationError, PermissionDenied) as error:
        _refused(request, error)
        return _back(request, reverse("tournaments:match", args=[match_id]))
    messages.success(request, _("Result confirmed."))
    return _back(request, reverse("tournaments:match", args=[match_id]))


@login_required
@require_POST
def match_game(request: HttpRequest, match_id: int) -> HttpResponse:
    """Save (or correct) one game: who went first and who won, or a drawn game."""
    match = _match(match_id)
    winner = request.POST.get("winner", "")
    _run(
        request,
        lambda: services.match_save_game(
            match=match, by=request.user, number=_int(request.POST.get("number")),
            first=_int(request.POST.get("first")), winner=None if winner == "draw" else _int(winner, -1),
        ),
        _("Game %(n)s saved.") % {"n": request.POST.get("number", "")},
    )  # fmt: skip
    return _back(request, reverse("tournaments:match", args=[match_id]))


@login_required
@require_POST
def match_finish(request: HttpRequest, match_id: int) -> HttpResponse:
    """The players end the match before it is decided: time, a concession or an intentional draw."""
    match = _match(match_id)
    _run(
        request,
        lambda: services.match_finish_early(match=match, by=request.user, how=request.POST.get("how", ""),
                                            conceded_by=_int(request.POST.get("conceded_by"))),
        _("Result saved."),
    )  # fmt: skip
    return _back(request, reverse("tournaments:match", args=[match_id]))


@login_required
@require_POST
def match_resolve(request: HttpRequest, match_id: int) -> HttpResponse:
    """An organizer decides a dispute with a reason: keep the reported result, or enter another."""
    match = _match(match_id)
    keep = request.POST.get("keep") == "1"

    def action() -> Any:
        result = {} if keep else _result_from_post(request.POST, match)
        return services.match_resolve_dispute(match=match, by=request.user, reason=request.POST.get("reason", ""),
                                              **result)  # fmt: skip

    _run(request, action, _("Dispute resolved."))
    return _back(request, reverse("tournaments:match", args=[match_id]))


@login_required
@require_POST
def match_dispute(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match(match_id)
    _run(request, lambda: services.match_dispute(match=match, by=request.user, reason=request.POST.get("reason", "")),
         _("The organizer will look at this result."))  # fmt: skip
    return _back(request, reverse("tournaments:match", args=[match_id]))


@login_required
@require_POST
def match_sideboard(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match(match_id)
    player = get_object_or_404(
        Player, pk=_int(request.POST.get("player"), 0), tournament=match.round.tournament
    )
    swaps = _swaps_from_post(request.POST)
    game_number = _int(request.POST.get("game_number"), 0) or 0
    _run(
        request,
        lambda: services.match_sideboard(
            match=match, player=player, by=request.user, game_number=game_number, swaps=swaps
        ),
        _("Sideboard swap recorded."),
    )
    return _back(request, reverse("tournaments:match", args=[match_id]))


def _swaps_from_post(post: Any) -> list[dict[str, Any]]:
    """The clicked sideboarding form: ``out:<section>:<card>`` and ``in:<card>`` counts (``into:<card>``
    names the section a side card goes into, the first one by default). Names are never typed."""
    swaps: list[dict[str, Any]] = []
    for key, value in post.items():
        count = _int(value, 0) or 0
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


# --- standings, top cut, deck lists ---------------------------------------------------------------------


@require_GET
def standings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(pk)
    rows, columns = printables.standings_rows(tournament)
    return render(
        request, "tournaments/standings.html", {"tournament": tournament, "rows": rows, "columns": columns}
    )


@login_required
@require_POST
def topcut(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(pk)
    if pending := _needs_confirmation(request, pk, "topcut"):
        return pending
    if tournament.status == Tournament.Status.TOP_CUT:
        result = _run(request, lambda: services.topcut_advance(tournament=tournament, by=request.user))
    else:
        result = _run(request, lambda: services.topcut_start(tournament=tournament, by=request.user))
    if isinstance(result, Round):
        return redirect("tournaments:round", pk=pk, number=result.number)
    return redirect("tournaments:bracket", pk=pk)


@login_required
@require_POST
def tournament_finish(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(pk)
    if pending := _needs_confirmation(request, pk, "finish"):
        return pending
    _run(
        request,
        lambda: services.tournament_finish(tournament=tournament, by=request.user),
        _("Event finished."),
    )
    return redirect("tournaments:detail", pk=pk)


@require_GET
def bracket(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(pk)
    return render(
        request,
        "tournaments/bracket.html",
        {
            "tournament": tournament,
            "rounds": selectors.top_cut_rounds(tournament),
            "champion": selectors.tournament_champion(tournament),
            "organizer": is_organizer(tournament, request.user),
        },
    )


@require_GET
def decklists(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _tournament(pk)
    return render(
        request,
        "tournaments/decklists.html",
        {
            "tournament": tournament,
            "players": printables.decklist_entries(selectors.visible_decklists(tournament, request.user)),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def deck_check(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    """Organizers compare a presented list (pasted as text or chosen deck) with the registered one."""
    tournament = _tournament(pk)
    if not is_organizer(tournament, request.user):
        raise PermissionDenied
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    diffs = None
    if request.method == "POST":
        diffs = _run(request, lambda: printables.deck_check(tournament, player, request.POST.get("text", "")))
        if diffs is True:
            diffs = []
    return render(
        request,
        "tournaments/deck_check.html",
        {"tournament": tournament, "player": player, "diffs": diffs, "text": request.POST.get("text", ""),
         "entry": printables.decklist_entries([player])[0]},
    )  # fmt: skip


@require_GET
def player_deck(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    tournament = _tournament(pk)
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    if not can_see_decklist(tournament, player, request.user):
        raise Http404
    return render(
        request,
        "tournaments/decklists.html",
        {"tournament": tournament, "players": printables.decklist_entries([player]), "single": True},
    )


# --- printables -----------------------------------------------------------------------------------------


def _safe_filename(name: str) -> str:
    """Letters, digits, dot, dash and underscore only: a header value can never be split or re-quoted."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)[:120] or "document"


@require_GET
def printable(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    """Pairings (by table / by name), match slips, standings, deck lists: HTML with print CSS, or PDF."""
    tournament = _tournament(pk)
    number = _int(request.GET.get("round"))
    context = printables.context_for(tournament, kind, number=number, order=request.GET.get("order", "table"),
                                     user=request.user)  # fmt: skip
    if context is None:
        raise Http404
    if request.GET.get("format") == "pdf":
        pdf = printables.render_pdf(request, context)
        response = HttpResponse(pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{_safe_filename(context["filename"])}.pdf"'
        return response
    return render(request, context["template"], context)
