"""Limited pages: My draft (phones), building from the pool, the organizer's pods, the projector, printables.

Thin: every write goes through limited/services.py; a pick from the phone comes through the offline queue
(static/pwa/offline.js) with an Idempotency-Key and is applied once (idempotency/).
"""

from __future__ import annotations

from functools import lru_cache
from html import escape as esc
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cards.models import Card, CardSet, Game, Printing
from idempotency.decorators import idempotent
from tournaments import services as tournament_services
from tournaments.live.etags import etags_parse
from tournaments.models import Player
from tournaments.permissions import is_organizer, require_organizer
from tournaments.views.player import offline_config

from . import polls, services
from .engine.draft import MTR_PICK_SECONDS, pick_seconds
from .lookups import PLAYER, event_or_404
from .models import DraftPod, LimitedEvent
from .phone_box import build_until, phone_box


def _player(pk: int, user: Any) -> Player | None:
    """The signed-in account's entry in the event (one per account and event: a unique constraint)."""
    return PLAYER.first(pk, user.pk)


def _names(event: LimitedEvent, keys: Any) -> dict[str, Card]:
    cards = Card.objects.filter(game_id=event.tournament.game_id, external_id__in=set(keys))
    return {c.external_id: c for c in cards}


def _polled(
    request: HttpRequest, event: LimitedEvent, player: Player, tags: frozenset[str] = frozenset()
) -> services.DraftPolled:
    """The phone's state and the tag of its fragment (in the page's language; limited/polls.py)."""
    language = getattr(request, "LANGUAGE_CODE", "") or settings.LANGUAGE_CODE
    return services.draft_me_polled(event=event, player=player, kind=polls.PAGE, language=language, tags=tags)


def _fragment(
    request: HttpRequest,
    event: LimitedEvent,
    player: Player,
    polled: services.DraftPolled,
    *,
    token: bool = False,
) -> str:
    """The page's live box (limited/phone_box.py) in the request's language; with a CSRF token only for the
    whole page (``token``)."""
    return phone_box(event, player, polled, csrf_token=(lambda: get_token(request)) if token else None)


def _page(request: HttpRequest, event: LimitedEvent, player: Player, status: int = 200) -> HttpResponse:
    polled = _polled(request, event, player)
    return render(
        request, "limited/my_draft.html",
        {"event": event, "tournament": event.tournament, "fragment": _fragment(request, event, player, polled, token=True),
         "etag": polled.tag or "", "offline_config": offline_config(request), "server_now": timezone.now()},
        status=status,
    )  # fmt: skip


@login_required
def my_draft(request: HttpRequest, pk: int) -> HttpResponse:
    """The player's phone: the pack they hold, a countdown, their own picks; polls itself."""
    event = event_or_404(pk)
    player = _player(pk, request.user)
    if player is None:
        if is_organizer(event.tournament, request.user):
            return redirect("limited:organizer", pk=pk)
        raise PermissionDenied(_("You are not playing in this event."))
    if request.GET.get("fragment"):
        # Unchanged polls are mostly answered before Django (limited/wsgi.py); the ones that reach this view
        # are decided the same way (a run-out timer, a language switch, a changed pack).
        polled = _polled(
            request, event, player, frozenset(etags_parse(request.headers.get("If-None-Match", "")))
        )
        if polled.current:
            response = HttpResponseNotModified()
        else:
            response = HttpResponse(_fragment(request, event, player, polled))
        if polled.tag:
            response["ETag"] = polled.tag
        response["Cache-Control"] = "no-cache"
        return response
    return _page(request, event, player)


@require_POST
@login_required
def draft_pick(request: HttpRequest, pk: int) -> HttpResponse:
    """A pick. From the phone's offline queue (it carries ``Idempotency-Key``) every answer — kept, refused or in
    conflict — is the note ("Picked.", or why not) and the page's ``#live`` box for the state of now, with the
    pick's status and no redirect: the queue adopts both from its answer (static/pwa/offline.js), and a redirect
    or a whole page cost a second request or a page render per pick (a pick sent after its timer ran out is
    common at the end of a pack). A plain form post (no JavaScript) keeps Post/Redirect/Get. The queue's picks
    are mostly answered by this view called before Django's middleware (limited/wsgi_pick.py): it uses
    nothing of the middleware's but the signed-in user, the CSRF check and the language, which that path
    gives it as the middleware would."""
    event = event_or_404(pk)
    player = _player(pk, request.user)
    if player is None:
        raise Http404(_("You are not playing in this event."))
    queued = request.headers.get("Idempotency-Key") is not None
    try:
        # The reads before the key's write transaction (services.draft_pick_prepare): the SQLite write lock
        # is held for the pick's own rows only.
        seat = services.draft_pick_prepare(event=event, player=player, by=request.user)
    except ValidationError as error:
        if queued:
            return _queue_answer(request, event, player, _note(400, " ".join(error.messages)))
        messages.error(request, " ".join(error.messages))
        return _page(request, event, player, 400)
    response = _draft_pick_once(request, pk, event=event, player=player, seat=seat)
    number = request.POST.get("pick_number", "")
    if number.isdigit() and services.draft_pick_finishes(event=event, seat=seat, pick_number=int(number)):
        services.draft_pools_settle(event=event, pod_id=seat.pod_id)
    if _is_note(response):
        return _queue_answer(request, event, player, response)
    return response


def _queue_answer(
    request: HttpRequest, event: LimitedEvent, player: Player, note: HttpResponse
) -> HttpResponse:
    """The note (made now, or replayed from the key's row: it keeps the note only) and the box as it is now,
    after the pool settled, so a replay shows the present and not the moment of the pick."""
    box = _fragment(request, event, player, _polled(request, event, player))
    answer = HttpResponse(
        note.content + format_html('<div id="live" data-testid="my-draft">{}</div>', box).encode(),
        status=note.status_code,
    )
    if note.get("Idempotent-Replayed"):
        answer["Idempotent-Replayed"] = note["Idempotent-Replayed"]
    answer["Cache-Control"] = "no-store"
    return answer


_NOTE = b'<ul class="messages" role="status">'


def _is_note(response: HttpResponse) -> bool:
    """A queue answer, made now or replayed from its key's row: the note alone (not a page, not a redirect)."""
    return bytes(response.content).startswith(_NOTE)


def _note(status: int, text: str) -> HttpResponse:
    kind = "success" if status == 200 else "error"
    # The page's messages list with the one note (as base.html shows Django's messages), joined and escaped here:
    # every pick of a draft answers it.
    return HttpResponse(
        format_html('<ul class="messages" role="status"><li class="message {}">{}</li></ul>', kind, text),
        status=status,
    )


@idempotent
def _draft_pick_once(
    request: HttpRequest, pk: int, *, event: LimitedEvent, player: Player, seat: services.Seat
) -> HttpResponse:
    status, note = 200, _("Picked.")
    # From the offline queue: the note only (the key's row keeps tens of bytes; draft_pick adds the live box).
    queued = request.headers.get("Idempotency-Key") is not None
    try:
        number = int(request.POST.get("pick_number", ""))
        services.draft_pick(
            event=event, player=player, by=request.user, pick_number=number, card=request.POST.get("card", ""),
            seat=seat,
        )  # fmt: skip
    except ValueError:
        status, note = 400, _("That pick has no pick number.")
    except services.PickConflict as conflict:
        words = {
            "already_picked": _("You already made this pick; the first one stands."),
            "not_yet": _("That pick is not open yet."),
            "paused": _("The organizer paused your pod: wait for it to go on."),
        }
        status, note = 409, words.get(conflict.code, conflict.code)
    except ValidationError as error:
        status, note = 400, " ".join(error.messages)
    if queued:
        return _note(status, note)
    if status == 200:
        messages.success(request, note)
        return redirect("limited:my_draft", pk=pk)
    messages.error(request, note)
    return _page(request, event, player, status)


FREE_MAX = 60


def _free_cards(game_id: int, format_slug: str) -> list[str]:
    """The game's cards the format lets any deck add beyond the pool (its ``pool.free`` filter), by key."""
    game = Game.objects.get(pk=game_id)
    accept = services.game_rules(game).formats[format_slug].pool_free
    if accept is None:
        return []
    count = Card.objects.filter(game_id=game_id).count()
    return list(_free_keys(game_id, format_slug, count))


@lru_cache(maxsize=32)
def _free_keys(game_id: int, format_slug: str, _cards: int) -> tuple[str, ...]:
    # Judged once per process and size of the game's card list (a card import changes the count).
    game = Game.objects.get(pk=game_id)
    accept = services.game_rules(game).formats[format_slug].pool_free
    return tuple(
        card.external_id
        for card in Card.objects.filter(game_id=game_id).prefetch_related("printings__card_set")
        if accept is not None and accept(services.card_info(card))
    )


@login_required
def build(request: HttpRequest, pk: int) -> HttpResponse:
    """Pool mode: the deck from the player's pool on the phone (counts per card; the rest is the additional set)."""
    event = event_or_404(pk)
    tournament = event.tournament
    player = get_object_or_404(Player, tournament_id=pk, user=request.user)
    pool = services.pool_counts(player=player, by=request.user)
    fmt = services.game_rules(tournament.game).formats[tournament.format_slug]
    # Cards any deck adds beyond the pool where the game says so (Magic's basic lands, MTR 7.3).
    free = {
        key: FREE_MAX for key in _free_cards(tournament.game_id, tournament.format_slug) if key not in pool
    }
    cards = _names(event, [*pool, *free])
    side = fmt.sideboard.section if fmt.sideboard else ""
    # The additional set / sideboard is what the decks leave of the pool (g001 1.5.2): not chosen here.
    sections = [s for s in fmt.sections if s.slug != side and s.slug in (fmt.pool_scope or (s.slug,))]
    if request.method == "POST":
        chosen: dict[str, list[dict[str, Any]]] = {s.slug: [] for s in sections}
        for key, have in [*pool.items(), *free.items()]:
            for section in sections:
                raw = request.POST.get(f"{section.slug}:{key}", "0").strip() or "0"
                count = int(raw) if raw.isdigit() else -1
                if count < 0 or count > have:
                    messages.error(
                        request,
                        _("%(card)s: between 0 and %(n)s.")
                        % {"card": cards[key].name if key in cards else key, "n": have},
                    )
                    return redirect("limited:build", pk=pk)
                if count:
                    chosen[section.slug].append({"card": key, "count": count})
        try:
            tournament_services.player_submit_deck(
                player=player, by=request.user, payload={"sections": chosen}
            )
            messages.success(request, _("Deck registered."))
        except (ValidationError, PermissionDenied) as error:
            messages.error(request, " ".join(getattr(error, "messages", [str(error)])))
        return redirect("limited:build", pk=pk)
    deck: dict[tuple[str, str], int] = {}
    for slug, lines in ((player.deck or {}).get("sections") or {}).items():
        for line in lines:
            deck[(slug, line.get("external_id"))] = line.get("count", 0)
    rows = []
    by_name = sorted(pool.items(), key=lambda kv: cards[kv[0]].name if kv[0] in cards else kv[0])
    for key, have in [
        *by_name,
        *sorted(free.items(), key=lambda kv: cards[kv[0]].name if kv[0] in cards else kv[0]),
    ]:
        card = cards.get(key)
        accepts = [
            s
            for s in sections
            if s.accept is None or (card is not None and s.accept(services.card_info(card)))
        ]
        rows.append(
            {
                "key": key,
                "card": card,
                "have": have,
                "free": key in free,
                "inputs": [(s, deck.get((s.slug, key), 0), s in accepts) for s in sections],
            }
        )
    return render(
        request,
        "limited/build.html",
        {"event": event, "tournament": tournament, "player": player, "rows": rows, "sections": sections,
         "build_until": build_until(event)},
    )  # fmt: skip


def _pods(event: LimitedEvent) -> list[dict[str, Any]]:
    names = dict(Player.objects.filter(tournament_id=event.tournament_id).values_list("id", "name"))
    return [
        {"pod": pod, "seats": [(i + 1, names.get(pid, "?")) for i, pid in enumerate(pod.seats)]}
        for pod in event.pods.all()
    ]


@login_required
def organizer(request: HttpRequest, pk: int) -> HttpResponse:
    """The organizer's limited page: the product and seed, deal pools / start the draft, each pod live."""
    event = event_or_404(pk)
    require_organizer(event.tournament, request.user)
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "deal":
                n = services.limited_pools_deal(event=event, by=request.user)
                messages.success(request, _("%(n)s pools dealt and registered.") % {"n": n})
            elif action == "start":
                services.draft_start(event=event, by=request.user)
                messages.success(request, _("Pods seated; the draft has started."))
            elif action in ("pause", "resume"):
                pod = get_object_or_404(DraftPod, event=event, number=request.POST.get("pod", "0"))
                services.draft_pause(event=event, pod=pod, by=request.user, paused=action == "pause")
            elif action == "tick":
                made = services.draft_tick(event=event, by=request.user, called=True)
                messages.success(request, _("Automatic picks made: %(n)s.") % {"n": made})
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        return redirect("limited:organizer", pk=pk)
    services.draft_tick(event=event)
    progress = services.pods_progress(event=event, by=request.user)
    context = {"event": event, "tournament": event.tournament, "pods": _pods_html(request, progress)}
    if request.GET.get("fragment"):
        return render(request, "limited/_pods.html", context)
    return render(request, "limited/organizer.html", context)


def _pod_html(pod: dict[str, Any], words: dict[str, str], token: str) -> str:
    """One pod's tile, every value in it escaped."""
    if pod["finished"]:
        status, form = f"<p><strong>{words['finished']}</strong></p>", ""
    else:
        if pod["paused"]:
            state = f" · <strong>{words['paused']}</strong>"
        elif pod["deadline"]:
            state = " · " + esc(_("%(left)s s left") % {"left": pod["seconds_left"]})
        else:
            state = ""
        picks = esc(_("Pick %(n)s of %(total)s") % {"n": pod["pick_number"], "total": pod["total_picks"]})
        status = f"<p>{picks}{state}</p>"
        action, label = ("resume", words["go_on"]) if pod["paused"] else ("pause", words["pause"])
        form = (
            f'<form method="post" class="no-print"><input type="hidden" name="csrfmiddlewaretoken" value="{token}">'
            f'<input type="hidden" name="pod" value="{pod["pod"]}">'
            f'<button name="action" value="{action}" data-testid="{action}">{label}</button></form>'
        )
    done = "" if pod["finished"] else " ✓"
    waiting = "" if pod["finished"] else words["waiting"]
    seats = "".join(
        f"<li>{esc(seat['name'])}{done if seat['picked'] else waiting}</li>" for seat in pod["seats"]
    )
    title = esc(_("Pod %(n)s") % {"n": pod["pod"]})
    return f'<section class="tile" data-testid="pod"><h2>{title}</h2>{status}<ol>{seats}</ol>{form}</section>'


def _pods_html(request: HttpRequest, progress: list[dict[str, Any]]) -> str:
    """The organizer's pods: each pod's pick and timer, who has picked, its pause button (250 pods of 8 through
    the template's loops cost ~35 ms of a 2-core laptop, joined here 8 ms)."""
    if not progress:
        return format_html('<p class="muted">{}</p>', _("No pods yet."))
    words = {
        "finished": esc(_("Finished drafting")), "paused": esc(_("paused")), "go_on": esc(_("Go on")),
        "pause": esc(_("Pause this pod")), "waiting": ' <span class="muted">…</span>',
    }  # fmt: skip
    token = esc(get_token(request))
    return mark_safe("".join(_pod_html(pod, words, token) for pod in progress))  # noqa: S308 - every value escaped


def projector(request: HttpRequest, pk: int) -> HttpResponse:
    """Seatings and the pick timer on the projector (a physical draft: the called timer, MTR Appendix B)."""
    event = event_or_404(pk)
    services.draft_tick(event=event)
    size = len(event.pods.first().packs[0][0]) if event.pods.exists() and event.pods.first().packs else 15
    schedule = [pick_seconds(n, scale=event.pick_time_scale) for n in range(size, 0, -1)]
    return render(
        request, "limited/projector.html",
        {"event": event, "tournament": event.tournament, "pods": _pods(event), "schedule": schedule,
         "packs": event.packs, "now": timezone.now(), "mtr": MTR_PICK_SECONDS},
    )  # fmt: skip


@login_required
def printables(request: HttpRequest, pk: int) -> HttpResponse:
    """Seatings, and every pool with its seed and number (replayable), each a deck registration sheet."""
    event = event_or_404(pk)
    require_organizer(event.tournament, request.user)
    players = services.entrants(event)
    pools = []
    for index, player in enumerate(players):
        counts = services.pool_counts(player=player, by=request.user) if player.pool else {}
        cards = _names(event, counts)
        lines = sorted(((cards[k].name if k in cards else k, k, n) for k, n in counts.items()))
        pools.append({"number": index + 1, "player": player, "lines": lines, "total": sum(counts.values())})
    return render(
        request,
        "limited/printables.html",
        {"event": event, "tournament": event.tournament, "pods": _pods(event), "pools": pools},
    )


@login_required
def enter_pool(request: HttpRequest, pk: int) -> HttpResponse:
    """The pool typed in on the phone from what was opened at the table (by collector number or name), with
    a search over the game's cards and its set list."""
    event = event_or_404(pk)
    tournament = event.tournament
    player = get_object_or_404(Player, tournament_id=pk, user=request.user)
    text = ""
    if request.method == "POST":
        text = request.POST.get("pool_text", "")
        try:
            pool = services.typed_pool(tournament=tournament, text=text)
            tournament_services.player_submit_pool(
                player=player, by=request.user, pool=services.pool_payload(tournament, pool)
            )
            messages.success(request, _("Pool registered."))
            return redirect("limited:build", pk=pk)
        except (ValidationError, PermissionDenied) as error:
            messages.error(request, " ".join(getattr(error, "messages", [str(error)])))
    query = request.GET.get("q", "").strip()[:80]
    found = []
    if query:
        printings = (
            Printing.objects.filter(card__game=tournament.game)
            .filter(Q(card__search_name__contains=query.casefold()) | Q(code__iexact=query))
            .select_related("card", "card_set")
            .order_by("card_set__code", "code")[:30]
        )
        found = [(p.card.name, f"{p.card_set.code} {p.code}".strip(), p.rarity) for p in printings]
    sets = CardSet.objects.filter(game=tournament.game).order_by("code")
    return render(
        request, "limited/enter_pool.html",
        {"event": event, "tournament": tournament, "player": player, "text": text, "query": query,
         "found": found, "sets": sets},
    )  # fmt: skip
