"""The player's pages: joining by code (a newcomer signs up on the same screen), registering a deck or a
pool, checking in, and "My event" on a phone — their table, opponent, clock, record, deck and swaps,
kept live by polling (``tournaments/live``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.attempts import rate_allows
from accounts.forms import SignupForm
from config.pwa import cache_key
from decks.deckhash import snapshot_hash
from decks.models import Deck
from idempotency.decorators import idempotent

from .. import live, services
from ..live.my_event import my_event_state
from ..models import Match, Penalty, Player, Round, Tournament
from ..pairings.words import why_opponent
from ..permissions import is_organizer, player_for_user
from ..printables import documents as printables
from ..printables.documents import swap_lines
from ..reads import outcomes
from ..reads.teams import label_two_headed_seat_list
from ..services.late_entry import latest_swiss_round
from ..services.registration import normalize_join_code
from ..templatetags.event_day import seat_name
from .helpers import (
    back,
    deck_for,
    errors,
    live_config,
    run,
    tournament_or_404,
    upload_text,
)


@require_GET
def join_start(request: HttpRequest) -> HttpResponse:
    """Type the code shown on the poster or projector."""
    code = request.GET.get("code", "").strip()
    if code:
        return redirect("tournaments:join_code", code=normalize_join_code(code) or code[:20])
    return render(request, "tournaments/join_start.html", {})


@require_http_methods(["GET", "POST"])
@idempotent
def join_code(request: HttpRequest, code: str) -> HttpResponse:
    """One screen: a signed-in player picks a deck (or pastes a list) and joins; a newcomer also chooses a
    username and password here, and the account and the entry are created together.

    Anonymous visitors get the same page for every code, known or not, so the page cannot be used to find
    which codes exist (it was 200 against 404): the event is named once their account exists. Look-ups
    (JOIN_THROTTLE_RATE) and sign-ups (SIGNUP_THROTTLE_RATE) are throttled per client address."""

    if not rate_allows(request, scope="join", rate=settings.JOIN_THROTTLE_RATE):
        return _too_many(request, code)
    anonymous = not request.user.is_authenticated
    try:
        tournament: Tournament | None = services.tournament_by_join_code(code)
        problem: list[str] = []
    except ValidationError as error:
        tournament, problem = None, errors(error)
    if tournament is None and not anonymous:
        return render(request, "tournaments/join_start.html", {"errors": problem, "code": code}, status=404)
    user = request.user
    if tournament is not None and not anonymous and player_for_user(tournament, user) is not None:
        return redirect("tournaments:my_event", pk=tournament.pk)
    if tournament is not None and not anonymous and tournament.team_size > 1:
        # A team event is entered as a team: the event's page registers one or answers an invitation.
        return redirect("tournaments:detail", pk=tournament.pk)
    shown = None if anonymous else tournament
    signup_form = None
    if request.method == "POST":
        if anonymous:
            if not rate_allows(request, scope="signup", rate=settings.SIGNUP_THROTTLE_RATE):
                return _too_many(request, code)
            signup_form = SignupForm(request.POST)
            if not signup_form.is_valid():
                return _join_page(request, shown, signup_form, code=code, status=400)
            if tournament is None:
                for message in problem:
                    messages.error(request, message)
                return _join_page(request, shown, signup_form, code=code, status=400)
            if services.claim_candidates(tournament, signup_form.save(commit=False)):
                # A guest entry may be theirs: create the account, then let them say "this is me" (or not).
                try:
                    user = signup_form.save()
                except IntegrityError:  # the same username chosen at the same moment by someone else
                    signup_form.add_error("username", _("A user with that username already exists."))
                    return _join_page(request, shown, signup_form, code=code, status=400)
                login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
                messages.info(request, _("Your account is ready. Is one of these entries you?"))
                # The same page again, signed in, with the list they pasted still in the box.
                return _join_page(request, tournament, None, code=tournament.join_code or code)
        assert tournament is not None
        claim = request.POST.get("claim", "")
        try:
            # Slow work first, outside the write transaction (SQLite has one writer for the whole venue):
            # the password's hash, then the pasted list parsed and judged; the transaction only inserts.
            if signup_form is not None:
                user = signup_form.save(commit=False)
            deck = deck_for(request) if not anonymous else None
            text = request.POST.get("deck_text", "")
            official_id = ""
            if services.game_rules(tournament.game).player_id is not None:
                official_id = services.official_id_check(
                    game=tournament.game, value=request.POST.get("official_id", "")
                )
            judged = None
            if deck is not None or text.strip():
                judged = services.registration_deck_judge(
                    tournament=tournament, by=user, deck=deck, text=text
                )
            with transaction.atomic():
                if signup_form is not None:
                    user.save()
                if claim.isdecimal():
                    guest = Player.objects.filter(pk=int(claim), tournament=tournament).first()
                    if guest is None:
                        raise ValidationError(_("That entry is not in this event."))
                    player = services.player_claim(code=tournament.join_code or "", player=guest, by=user)
                    if judged is not None:
                        services.player_submit_deck(player=player, by=user, judged=judged)
                else:
                    player = services.player_join(code=tournament.join_code or "", by=user, judged=judged,
                                                  new_entry=claim == "new")  # fmt: skip
                # The consent question is always answered on this form: unticked is a recorded "no".
                services.player_consent_set(
                    player=player, by=user, consent=request.POST.get("publish_consent") == "on"
                )
        except ValidationError as error:
            for message in errors(error):
                messages.error(request, message)
            return _join_page(request, shown, signup_form, code=code, status=400)
        except PermissionDenied as error:
            messages.error(request, str(error))
            return _join_page(request, shown, signup_form, code=code, status=403)
        except IntegrityError:  # the same username chosen at the same moment by someone else
            assert signup_form is not None
            signup_form.add_error("username", _("A user with that username already exists."))
            return _join_page(request, shown, signup_form, code=code, status=400)
        if signup_form is not None:
            login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
        if official_id:
            services.official_id_save(by=user, game=tournament.game, value=official_id)
        if player.waitlisted:
            messages.info(
                request, _("%(event)s is full: you are on its waitlist.") % {"event": tournament.name}
            )
        else:
            messages.success(request, _("You are registered for %(event)s.") % {"event": tournament.name})
        return redirect("tournaments:my_event", pk=tournament.pk)
    return _join_page(request, shown, signup_form, code=code)


def _too_many(request: HttpRequest, code: str = "") -> HttpResponse:
    response = render(
        request,
        "tournaments/join_start.html",
        {"errors": [_("Too many attempts from your network. Wait a minute and try again.")], "code": code},
        status=429,
    )
    response["Retry-After"] = "60"
    return response


def _join_page(
    request: HttpRequest, tournament: Tournament | None, signup_form: Any, code: str = "", status: int = 200
) -> HttpResponse:
    decks = []
    if request.user.is_authenticated and tournament is not None:
        decks = list(Deck.objects.filter(owner=request.user, game=tournament.game).order_by("name"))
    return render(
        request,
        "tournaments/join.html",
        {
            "tournament": tournament,
            "code": normalize_join_code(code)[:12],
            "decks": decks,
            "signup_form": signup_form or (None if request.user.is_authenticated else SignupForm()),
            "deck_text": request.POST.get("deck_text", ""),
            "official_id": request.POST.get("official_id", "")
            or (services.official_id_of(request.user, tournament.game) if tournament is not None else ""),
            **(player_id_notes(tournament) if tournament is not None else {}),
            "candidates": services.claim_candidates(tournament, request.user)
            if tournament is not None
            else [],
            "late_round": latest_swiss_round(tournament) + 1
            if tournament is not None and tournament.status == Tournament.Status.RUNNING
            else None,
        },
        status=status,
    )


@login_required
@require_POST
@idempotent
def tournament_join(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    if not rate_allows(request, scope="join", rate=settings.JOIN_THROTTLE_RATE):
        return _too_many(request)
    deck = deck_for(request)

    def join() -> Any:
        services.join_code_check(tournament=tournament, by=request.user, code=request.POST.get("code", ""))
        player = services.player_register(tournament=tournament, by=request.user, deck=deck)
        # Asked beside the deck: unticked is a recorded "no" (events without deck lists have nothing to ask).
        if tournament.deck_registration:
            consent = request.POST.get("publish_consent") == "on"
            services.player_consent_set(player=player, by=request.user, consent=consent)
        return player

    run(request, join, _("You are registered."))
    return redirect("tournaments:detail", pk=pk)


@login_required
@require_POST
def deck_submit(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    deck = deck_for(request)
    run(
        request,
        lambda: services.player_submit_deck(player=player, by=request.user, deck=deck),
        _("Deck registered."),
    )
    return redirect("tournaments:detail", pk=pk)


@login_required
@require_http_methods(["GET", "POST"])
def player_registration(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    """Register a player's list: a deck of theirs or one pasted/uploaded in any supported format, and in
    limited formats first the pool it is built from (the rules engine checks the deck against the pool)."""
    tournament = tournament_or_404(pk)
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    organizer = is_organizer(tournament, request.user)
    if not organizer and player.user_id != request.user.id:
        raise PermissionDenied
    uses_pool = services.format_uses_pool(tournament)
    if request.method == "POST":
        if request.POST.get("action") == "pool":
            text, filename = upload_text(request, "pool_text", "pool_file")
            done = run(
                request,
                lambda: services.player_submit_pool(
                    player=player, by=request.user, text=text, filename=filename
                ),
                _("Pool registered."),
            )
            if done and player.deck is None:
                messages.info(request, _("Now register a deck built from this pool."))
        else:
            deck = deck_for(request)
            text, filename = ("", "") if deck is not None else upload_text(request, "deck_text", "deck_file")
            run(
                request,
                lambda: services.player_submit_deck(
                    player=player, by=request.user, deck=deck, text=text, filename=filename
                ),
                _("Deck registered."),
            )
        return redirect("tournaments:player_registration", pk=pk, player_id=player_id)

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
@idempotent
def player_check_in(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    tournament = tournament_or_404(pk)
    player = get_object_or_404(Player, pk=player_id, tournament=tournament)
    present = request.POST.get("present", "1") != "0"
    run(
        request,
        lambda: services.player_check_in(player=player, by=request.user, present=present),
        _("%(name)s is checked in.") % {"name": player.name}
        if present
        else _("%(name)s is marked absent.") % {"name": player.name},
    )
    return back(request, reverse("tournaments:check_in", args=[pk]))


@login_required
@require_GET
def my_event(request: HttpRequest, pk: int) -> HttpResponse:
    return my_event_page(request, pk)


def my_event_page(request: HttpRequest, pk: int, status: int = 200) -> HttpResponse:
    tournament = tournament_or_404(pk)
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
    fragment = render_my_event(request, context)
    return render(
        request,
        "tournaments/my_event.html",
        {
            "tournament": tournament,
            "fragment": fragment,
            "live_url": reverse("tournaments:my_event_live", args=[pk]) + f"?k={token}",
            "etag": etag,
            "server_now": timezone.now(),
            "live_config": live_config(),
            "offline_config": offline_config(request),
        },
        status=status,
    )


def offline_config(request: HttpRequest) -> dict[str, Any]:
    """What static/pwa/offline.js needs: this session's name for its copies, the worker, and its words."""

    return {
        "session": cache_key(request),
        "worker": reverse("service-worker"),
        "texts": {
            "waiting": _("saved on this phone, not sent yet"),
            "conflict": _("changed meanwhile by your opponent or the organizer: check the result above"),
            "refused": _("not accepted"),
            "login": _("log in again to send it"),
            "dismiss": _("Dismiss"),
            "offline": _(
                "No connection: this is the page as this phone last saw it; what you save is kept here."
            ),
        },
    }


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
        return render_my_event(request, context)

    response = live.personal_page(
        request,
        tournament_id=pk,
        player_id=player_id,
        render=render_fragment,
        may_see=lambda: request.user.pk == user_id,
    )
    if response is None:
        raise Http404
    return response


def render_my_event(request: HttpRequest, context: dict[str, Any]) -> str:
    return render_to_string("tournaments/_my_event.html", my_event_context(request, context), request=request)


def my_event_context(request: HttpRequest, base: dict[str, Any]) -> dict[str, Any]:
    """What the template needs beyond the raw state: whose turn it is to choose, which forms to offer."""
    from ..engine import first_player

    tournament: Tournament = base["tournament"]
    player: Player = base["player"]
    match: Match | None = base["match"]
    seats = base["seats"]
    games = base["games"]
    # Two-Headed Giant: seat B plays the game seated on seat A, its teammate; the team's side is theirs too.
    side_ids = services.two_headed_side_ids(tournament, player) if seats else {player.pk}
    label_two_headed_seat_list(tournament, seats)  # the score and game lines name the teams
    mine = next((s for s in seats if s.player_id in side_ids), None)
    opponents = [s for s in seats if s.player_id not in side_ids]
    round_: Round | None = base["round"]
    two_player = match is not None and not match.bye and len(seats) == 2
    done = match is not None and match.status in (Match.Status.CONFIRMED, Match.Status.FINAL)
    need = services.wins_needed(tournament, round_) if round_ is not None else 2
    drawn = sum(1 for g in games if g.winner_seat is None)
    # The same bound the API applies, so the phone offers exactly the games the match can have.
    max_games = services.max_games(tournament, round_, drawn=drawn) if two_player else 0
    decided = bool(two_player and max(s.wins for s in seats) >= need) or (
        match is not None and match.status != Match.Status.PENDING
    )
    policy = services.game_rules(tournament.game).first_player
    next_first = None
    if two_player and not decided and len(games) < max_games:
        records = [first_player.GameRecord(winner=g.winner_seat, first_player=g.first_seat) for g in games]
        seeded = services.seeded_seat(match, seats)
        try:
            decision = first_player.next_decision(policy, (0, 1), records, seeded=seeded)
        except ValueError:
            decision = None
        if decision is not None:
            next_first = {
                "toss": decision.toss,
                "name": None if decision.player is None else seat_name(seats[decision.player]),
                "is_me": decision.player is not None and seats[decision.player].player_id in side_ids,
                "chooses": decision.action == first_player.Action.CHOOSES,
                "game": len(games) + 1,
                "seeded": seeded is not None and not games,
                "seat": decision.player,
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
    ends_at = round_.timer_ends_at if round_ is not None else None
    if ends_at is not None and match is not None and match.extra_minutes:
        ends_at += timedelta(minutes=match.extra_minutes)  # a judge's extension for this table
    return {
        **base,
        "table_ends_at": ends_at,
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
        # Under "the loser chooses" the form asks who chose (prefilled when the rule says who).
        "ask_chooser": two_player and policy == first_player.Policy.LOSER_CHOOSES,
        "next_game": len(games) + 1 if two_player and not decided and len(games) < max_games else None,
        "later_games": list(range(len(games) + 2, max_games + 1)) if two_player and not decided else [],
        "next_first": next_first,
        "can_confirm": match is not None
        and match.status == Match.Status.REPORTED
        and match.reported_by_id not in services.two_headed_side_users(tournament, side_ids, request.user.pk),
        "team_versus": services.two_headed_versus(tournament, seats, side_ids) if seats else "",
        "cut_state": _cut_state(tournament, player, round_, match, mine, opponents, done),
        "can_dispute": match is not None and match.status == Match.Status.REPORTED,
        "current_deck": current_deck,
        "deck_entry": printables.snapshot_entry(current_deck) if current_deck else None,
        # The registered (frozen) list's hash, what the judge's deck check compares: never the swapped one.
        "deck_hash": snapshot_hash(game_slug=tournament.game.slug, snapshot=player.deck)
        if player.deck
        else "",
        "can_side": can_side,
        "side_rows": printables.sideboard_rows(current_deck) if can_side else None,
        "why_opponent": why_opponent(
            tournament, round_, match, player.pk, opponents[0].player_id if len(opponents) == 1 else None
        ),
        "team_seat": services.team_seat_of(player.pk) if tournament.team_size > 1 else None,
        **penalty_notes(player, match),
        **player_id_notes(tournament),
        **entry_notes(tournament, player, base["record"], round_=round_, seated=match is not None),
    }


def _cut_state(
    tournament: Tournament, player: Player, round_: Round | None, match: Match | None,
    mine: Any, opponents: list[Any], done: bool,
) -> str | None:  # fmt: skip
    """Where a player of the top cut stands while it runs: "eliminated" (lost a cut match, or not in the
    round being played), "champion" (won the final), or None (still playing, or not a cut player)."""
    if tournament.status != Tournament.Status.TOP_CUT or round_ is None or round_.kind != Round.Kind.TOP_CUT:
        return None
    if player.dropped_at_round is not None:
        return None
    if match is None:
        return "eliminated" if services.was_in_top_cut(tournament, player.pk) else None
    if not done or match.bye or mine is None or len(opponents) != 1:
        return None
    if mine.wins < opponents[0].wins:
        return "eliminated"
    if mine.wins > opponents[0].wins and getattr(round_, "match_count", 0) == 1:
        return "champion"
    return None


def player_id_notes(tournament: Tournament) -> dict[str, Any]:
    """The game's official player ID, which My event asks for when the entry has none."""
    from django.utils.translation import get_language

    rule = services.game_rules(tournament.game).player_id
    return {"player_id_rule": rule, "player_id_title": rule.title(get_language() or "en") if rule else ""}


def penalty_notes(player: Player, match: Match | None) -> dict[str, Any]:
    """A player is told every penalty they received, and a game their opponent lost to one is named as such
    (it is not a game anyone played)."""
    wanted = Q(player=player)
    if match is not None:
        wanted |= Q(match=match, penalty=Penalty.Kind.GAME_LOSS)
    rows = list(
        Penalty.objects.filter(wanted).select_related("round", "player").order_by("created_at", "id")
    )  # one query for both
    return {
        "my_penalties": [p for p in rows if p.player_id == player.pk],
        "opponent_penalties": [p for p in rows if p.player_id != player.pk],
    }


def entry_notes(
    tournament: Tournament,
    player: Player,
    record: dict[str, int],
    *,
    round_: Round | None = None,
    seated: bool = False,
) -> dict[str, Any]:
    """The waitlist (their place in line, or that they moved up), a late arrival's confirmation and how the
    event ended for them."""
    before_start = tournament.status == Tournament.Status.REGISTRATION
    if tournament.late_entry_losses and player.joined_round > 1:
        # The rounds a late entry missed were all played before it joined: a match loss each, as the
        # standings count them.
        record = {**record, "losses": record["losses"] + player.joined_round - 1}
    late_arrival = (
        tournament.status == Tournament.Status.RUNNING
        and not player.waitlisted
        and player.dropped_at_round is None
        and player.joined_round > (round_.number if round_ is not None else 0)
    )
    return {
        "record": record,
        "waitlist_position": services.waitlist_position(player) if player.waitlisted else None,
        "waitlist_open": player.waitlisted and services.waitlist_may_move_up(tournament),
        "promoted": (before_start or late_arrival)
        and not player.waitlisted
        and services.was_promoted(player),
        "late_arrival": late_arrival,
        "outcome": outcomes.player_outcome(tournament, player, record, seated=seated),
    }
