"""Limited events: create one, deal sealed pools, seat a draft, take picks exactly once, run the timers.

Writes are short: packs are generated and cards resolved before the write transaction opens (on SQLite a
transaction holds the venue's one write lock from its first write). A pick takes the pod's row first — a
conditional UPDATE, which is the row lock on PostgreSQL and the write lock on SQLite — so two requests for
the same pick are applied one after the other, and the second finds the pick made (409).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from cards.models import Card, Printing
from config.api import StateConflict, Unprocessable
from games.boosters import (
    BoosterError,
    BoosterSpec,
    Resolved,
    booster,
    cut_cube,
    resolve,
    sealed_pool,
    with_printings,
)
from rules.services import card_info
from tournaments import services as tournament_services
from tournaments.models import Player, Tournament
from tournaments.permissions import is_organizer, require_organizer
from tournaments.services.common import format_uses_pool, game_rules

from .engine.draft import (
    PodDraft,
    auto_pick,
    cards_left,
    pack_held,
    pick_seconds,
    seat_pods,
    timer_cutoff,
    timer_run_out,
)
from .models import DraftPick, DraftPod, LimitedEvent
from .polls import API, NO_LANGUAGE, draft_etag, due, moment, poll_state

CUBE = "cube"
log = logging.getLogger(__name__)


class PickConflict(Exception):
    """A pick for a pick number already made, or not yet open: 409, with the engine's code."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def booster_spec(tournament: Tournament, product: str) -> BoosterSpec:
    spec = game_rules(tournament.game).boosters.get(product)
    if spec is None:
        known = ", ".join(sorted(game_rules(tournament.game).boosters)) or "—"
        # A product of another game: the request is well formed, the game has no such product (422).
        raise Unprocessable(
            {
                "product": _("No product %(p)s for this game (known: %(k)s, or cube).")
                % {"p": product, "k": known}
            }
        )
    return spec


def booster_cards(tournament: Tournament, spec: BoosterSpec) -> Resolved:
    """The spec's sheets against the game's cards (with their printings' sets and rarities)."""
    cards = []
    for card in Card.objects.filter(game=tournament.game).prefetch_related("printings__card_set"):
        printings = list(card.printings.all())
        cards.append(
            with_printings(
                card_info(card),
                [p.card_set.code for p in printings],
                [p.rarity for p in printings if p.rarity],
            )
        )
    try:
        return resolve(spec, cards)
    except BoosterError as error:
        raise ValidationError({"product": str(error)}) from None


def limited_event_create(
    *, tournament: Tournament, by: Any, kind: str, product: str, packs: int | None = None, seed: int | None = None,
    cube: Sequence[str] | None = None, cube_pack_size: int = 15, physical: bool = False, pick_time_scale: float = 1.0, pod_rounds: int = 0,
) -> LimitedEvent:  # fmt: skip
    """Make ``tournament`` a limited event. Its format must build decks from a pool; the product must open
    from this game's cards (every sheet matches some card) or the cube must hold enough cards."""
    require_organizer(tournament, by)
    if kind not in LimitedEvent.Kind.values:
        raise ValidationError({"kind": _("Choose sealed or draft.")})
    if not format_uses_pool(tournament):
        raise ValidationError(
            {"format": _("This format does not build decks from a pool: choose a limited format.")}
        )
    if packs is not None and not 1 <= packs <= 12:
        raise ValidationError({"packs": _("Between 1 and 12 packs.")})
    if product == CUBE:
        keys = [str(k) for k in (cube or [])]
        known = set(
            Card.objects.filter(game=tournament.game, external_id__in=keys).values_list(
                "external_id", flat=True
            )
        )
        missing = [k for k in keys if k not in known]
        if missing:
            raise ValidationError({"cube": _("Not a card of this game: %(c)s") % {"c": missing[0]}})
        packs = packs or 3
        try:
            cut_cube(keys, 0, packs=packs * 2, pack_size=cube_pack_size)  # room for at least a pod of two
        except BoosterError as error:
            raise ValidationError({"cube": str(error)}) from None
    else:
        spec = booster_spec(tournament, product)
        booster_cards(tournament, spec)
        packs = packs or (spec.draft_packs if kind == "draft" else spec.sealed_packs)
        keys = None
    if not 0.1 <= pick_time_scale <= 10:
        raise ValidationError({"pick_time_scale": _("Between 0.1 and 10.")})
    return LimitedEvent.objects.create(
        tournament=tournament, kind=kind, product=product, packs=packs,
        seed=tournament.seed if seed is None else seed, cube=keys, cube_pack_size=cube_pack_size, physical=physical,
        pick_time_scale=pick_time_scale, pod_rounds=pod_rounds,
    )  # fmt: skip


def entrants(event: LimitedEvent) -> list[Player]:
    """Who gets a pool or a seat, in registration order: the same seed and entrants give the same pools."""
    return list(
        Player.objects.filter(
            tournament_id=event.tournament_id, dropped_at_round__isnull=True, waitlisted=False, no_show=False
        ).order_by("id")
    )


def pool_payload(tournament: Tournament, pool: Mapping[str, int]) -> dict[str, Any]:
    fmt = game_rules(tournament.game).formats[tournament.format_slug]
    slugs = [section.slug for section in fmt.sections]
    section = "main" if "main" in slugs else slugs[0]
    return {"sections": {section: [{"card": k, "count": n} for k, n in sorted(pool.items())]}}


def generated_pool(event: LimitedEvent, index: int) -> dict[str, int]:
    tournament = event.tournament
    if event.product == CUBE:
        pool: Counter[str] = Counter()
        for pack in cut_cube(
            event.cube or [], event.seed, packs=event.packs * (index + 1), pack_size=event.cube_pack_size
        )[index * event.packs :]:
            pool.update(pack)
        return dict(pool)
    spec = booster_spec(tournament, event.product)
    return sealed_pool(spec, booster_cards(tournament, spec), event.seed, index, event.packs)


def limited_pools_deal(*, event: LimitedEvent, by: Any) -> int:
    """Sealed: give every entrant pool ``i`` of the seed (i: registration order) and register it."""
    tournament = event.tournament
    require_organizer(tournament, by)
    if event.kind != LimitedEvent.Kind.SEALED:
        raise StateConflict(_("Pools are dealt in sealed events; a draft's pools are its picks."))
    players = entrants(event)
    if event.product == CUBE and len(event.cube or []) < len(players) * event.packs * event.cube_pack_size:
        raise ValidationError({"cube": _("The cube is too small for %(n)s pools.") % {"n": len(players)}})
    spec = None if event.product == CUBE else booster_spec(tournament, event.product)
    resolved = booster_cards(tournament, spec) if spec else None
    for index, player in enumerate(players):
        pool = (
            sealed_pool(spec, resolved, event.seed, index, event.packs)
            if spec and resolved
            else generated_pool(event, index)
        )
        tournament_services.player_submit_pool(player=player, by=by, pool=pool_payload(tournament, pool))
    LimitedEvent.objects.filter(pk=event.pk).update(pools_dealt_at=timezone.now())
    return len(players)


def pool_counts(*, player: Player, by: Any) -> dict[str, int]:
    """The player's registered pool as {card key: count}: the player and the organizers only."""
    tournament = player.tournament
    if not (
        is_organizer(tournament, by)
        or (player.user_id is not None and player.user_id == getattr(by, "id", None))
    ):
        raise PermissionDenied(_("A pool is seen by its player and the organizers only."))
    counts: Counter[str] = Counter()
    for lines in ((player.pool or {}).get("sections") or {}).values():
        for line in lines:
            counts[str(line.get("external_id") or line.get("card"))] += int(line.get("count", 0))
    return dict(counts)


# --- draft ------------------------------------------------------------------------------------------------


def _deadline(event: LimitedEvent, cards_left: int) -> Any:
    return timezone.now() + timedelta(seconds=pick_seconds(cards_left, scale=event.pick_time_scale))


def draft_start(*, event: LimitedEvent, by: Any) -> list[DraftPod]:
    """Seat the entrants in pods of 4–8 from the seed and open every pack (nothing opened for a physical draft)."""
    tournament = event.tournament
    require_organizer(tournament, by)
    if event.kind != LimitedEvent.Kind.DRAFT:
        raise StateConflict(_("Only a draft has pods."))
    if event.draft_started_at is not None:
        raise StateConflict(_("The draft has already started."))
    players = entrants(event)
    if len(players) < 2:
        raise StateConflict(_("A draft needs at least two players."))
    seating = seat_pods(list(range(len(players))), event.seed)
    packs_by_pod: list[list[list[list[str]]]] = []
    if event.physical:
        packs_by_pod = [[] for _pod in seating]
    elif event.product == CUBE:
        needed = len(players) * event.packs
        try:
            cut = cut_cube(event.cube or [], event.seed, packs=needed, pack_size=event.cube_pack_size)
        except BoosterError as error:
            raise ValidationError({"cube": str(error)}) from None
        n = 0
        for pod in seating:
            rounds = [[[] for _s in pod] for _r in range(event.packs)]
            for r in range(event.packs):
                for s in range(len(pod)):
                    rounds[r][s] = cut[n]
                    n += 1
            packs_by_pod.append(rounds)
    else:
        spec = booster_spec(tournament, event.product)
        resolved = booster_cards(tournament, spec)
        for p, pod in enumerate(seating):
            packs_by_pod.append(
                [
                    [
                        booster(spec, resolved, event.seed, "pod", p, "seat", s, "pack", r)
                        for s in range(len(pod))
                    ]
                    for r in range(event.packs)
                ]
            )
    with transaction.atomic():
        if (
            LimitedEvent.objects.filter(pk=event.pk, draft_started_at__isnull=True).update(
                draft_started_at=timezone.now()
            )
            != 1
        ):
            raise StateConflict(_("The draft has already started."))
        pods = []
        for p, pod in enumerate(seating):
            packs = packs_by_pod[p]
            size = len(packs[0][0]) if packs else 15
            pods.append(
                DraftPod.objects.create(
                    event=event,
                    number=p + 1,
                    seats=[players[i].pk for i in pod],
                    packs=packs,
                    deadline=_deadline(event, size),
                )
            )
    event.refresh_from_db()
    return pods


def pod_state(pod: DraftPod) -> PodDraft:
    picks: list[list[str]] = [[] for _s in pod.seats]
    for seat, card in pod.picks.order_by("seat", "pick_number").values_list("seat", "card"):
        picks[seat].append(card)
    return PodDraft(pod.packs, picks)


# --- what never changes once a draft has started, kept per process ------------------------------------------
# Seats, the opened packs and the packs every seat holds at pick n (once the pod has reached n: every pick
# before n is made and never changes) are facts, so a worker reads them once and a phone's poll or pick reads
# only its pod's row and its own picks. Keys carry the event's start time and seed: a test database handing
# out the same ids again never meets another draft's facts.


@dataclass(frozen=True)
class Seat:
    pod_id: int
    number: int
    seat: int  # from 0, clockwise
    seats: int


def _draft_key(event: LimitedEvent) -> tuple[int, str, int] | None:
    if event.draft_started_at is None:
        return None
    return (event.pk, event.draft_started_at.isoformat(), event.seed)


@lru_cache(maxsize=64)
def _seating(key: tuple[int, str, int]) -> dict[int, Seat]:
    out = {}
    for pod_id, number, seats in DraftPod.objects.filter(event_id=key[0]).values_list(
        "pk", "number", "seats"
    ):
        for i, player_id in enumerate(seats):
            out[player_id] = Seat(pod_id=pod_id, number=number, seat=i, seats=len(seats))
    return out


def seat_of(event: LimitedEvent, player: Player) -> Seat | None:
    key = _draft_key(event)
    return _seating(key).get(player.pk) if key else None


@lru_cache(maxsize=1024)
def _opened(key: tuple[int, str, int], pod_id: int) -> list[list[list[str]]]:
    return DraftPod.objects.filter(pk=pod_id).values_list("packs", flat=True).get()


@lru_cache(maxsize=8192)
def _held(key: tuple[int, str, int], pod_id: int, pick_number: int) -> tuple[tuple[str, ...], ...]:
    packs = _opened(key, pod_id)
    size = len(packs[0][0])
    first = (pick_number - 1) // size * size + 1
    # Plain SQL (_sql): each worker reads this once per pod and pick, 11,250 times in a 250-pod draft.
    taken = {(seat, number): card for seat, number, card in _sql(_TAKEN_SQL, [pod_id, first, pick_number])[1]}
    return tuple(tuple(pack_held(packs, seat, pick_number, taken)) for seat in range(len(packs[0])))


def packs_at(event: LimitedEvent, pod_id: int, pick_number: int) -> tuple[tuple[str, ...], ...]:
    """Every seat's pack at ``pick_number``; only for a pick the pod has reached (its step or before)."""
    key = _draft_key(event)
    assert key is not None
    return _held(key, pod_id, pick_number)


def _pod_size(event: LimitedEvent, pod_id: int) -> tuple[int, int]:
    """(pack size, total picks) of a pod (0, 0 for a physical draft: nothing opened on screens)."""
    key = _draft_key(event)
    packs = _opened(key, pod_id) if key else []
    return (len(packs[0][0]), len(packs) * len(packs[0][0])) if packs else (0, 0)


_POD_ROW = ("step", "deadline", "paused_left", "finished_at")


_ROW_SQL = "SELECT step, deadline, paused_left, finished_at FROM limited_draftpod WHERE id = %s"
_TAKEN_SQL = "SELECT seat, pick_number, card FROM limited_draftpick WHERE pod_id = %s AND pick_number >= %s AND pick_number < %s"
_MINE_SQL = "SELECT card FROM limited_draftpick WHERE pod_id = %s AND seat = %s ORDER BY pick_number"


def _row(values: Sequence[Any]) -> dict[str, Any]:
    step, deadline, paused_left, finished_at = values
    return {
        "step": step,
        "deadline": moment(deadline),
        "paused_left": paused_left,
        "finished_at": finished_at,
    }


def _pod_row(pod_id: int) -> dict[str, Any]:
    rows = _sql(_ROW_SQL, [pod_id])[1]
    if not rows:
        raise DraftPod.DoesNotExist(pod_id)
    return _row(rows[0])


def _due(row: Mapping[str, Any], *, called: bool = False) -> bool:
    return (
        row["finished_at"] is None
        and row["paused_left"] is None
        and timer_run_out(row["deadline"], timezone.now(), called=called)
    )


# The pick's own statements, in plain SQL: a pick is the busiest write of a draft and SQLite has one writer,
# so the write lock is held for as few round trips as there can be (RETURNING: SQLite 3.35+, PostgreSQL).
_LOCK_SQL = (
    "UPDATE limited_draftpod SET step = step WHERE id = %s RETURNING step, deadline, paused_left, finished_at"
)
_INSERT_SQL = """
INSERT INTO limited_draftpick (pod_id, seat, player_id, pick_number, card, auto, created_at)
VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (pod_id, seat, pick_number) DO NOTHING RETURNING id"""
_ADVANCE_SQL = """
UPDATE limited_draftpod SET step = %s, finished_at = %s, deadline = %s
 WHERE id = %s AND step = %s
   AND (SELECT COUNT(*) FROM limited_draftpick WHERE pod_id = %s AND pick_number = %s) >= %s"""


def _sql(sql: str, params: Sequence[Any]) -> tuple[int, list[tuple[Any, ...]]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount, cursor.fetchall() if cursor.description else []


def _when(value: Any) -> Any:
    return connection.ops.adapt_datetimefield_value(value)


def _lock_row(pod_id: int) -> dict[str, Any]:
    # The UPDATE takes the write lock (SQLite) / the pod's row lock (PostgreSQL) and reads the row in the same
    # statement: picks and timers of one pod are applied one after the other.
    rows = _sql(_LOCK_SQL, [pod_id])[1]
    if not rows:
        raise DraftPod.DoesNotExist(pod_id)
    return _row(rows[0])


def _advance(event: LimitedEvent, seat: Seat, number: int) -> bool:
    """After pick ``number`` was written (the pod's lock held): when every seat has made it, the pod moves
    on and its timer restarts (one statement). True when that was the pod's last pick."""
    size, total = _pod_size(event, seat.pod_id)
    now = timezone.now()
    finished = number >= total
    deadline = (
        None
        if finished
        else now + timedelta(seconds=pick_seconds(cards_left(size, number + 1), scale=event.pick_time_scale))
    )
    moved, _rows = _sql(
        _ADVANCE_SQL,
        [number + 1, _when(now) if finished else None, _when(deadline), seat.pod_id, number, seat.pod_id,
         number, seat.seats],
    )  # fmt: skip
    return bool(moved) and finished


def draft_pick_prepare(*, event: LimitedEvent, player: Player, by: Any) -> Seat:
    """Everything a pick needs that is read, not written, before its write transaction: who sits where, a
    timer that ran out (its auto-picks first), and the packs of the pod's current pick (cached)."""
    if player.user_id is None or player.user_id != getattr(by, "id", None):
        raise PermissionDenied(_("Only the player picks for their seat."))
    seat = seat_of(event, player)
    if seat is None:
        raise ValidationError(_("You have no seat in this draft."))
    if event.physical:
        raise ValidationError(_("This draft is played with packs on the tables: enter your pool instead."))
    row = _pod_row(seat.pod_id)
    if _due(row):
        draft_tick_pod(event=event, pod=seat.pod_id)
        row = _pod_row(seat.pod_id)
    if row["finished_at"] is None:
        packs_at(event, seat.pod_id, row["step"])
    return seat


def draft_pick(
    *, event: LimitedEvent, player: Player, by: Any, pick_number: int, card: str, seat: Seat | None = None
) -> DraftPick:
    """Apply one pick exactly once: a short write transaction on the pod's row and the pick's own row.
    PickConflict ``already_picked`` (the pick is made: 409), ``not_yet``, ``paused``; ValidationError when the
    card is not in the pack the player holds. ``seat`` comes from ``draft_pick_prepare`` (called here when
    not given); the pod's pools are registered by ``draft_pools_settle`` after the transaction."""
    seat = seat or draft_pick_prepare(event=event, player=player, by=by)
    # No savepoint inside the idempotent view's transaction (two statements fewer while SQLite's one write lock
    # is held): a refusal is decided inside and raised after the block, which has written nothing then, so
    # the view's transaction stays usable to keep the refusal as the key's answer. A database error still
    # propagates through the block and rolls the whole transaction back.
    with transaction.atomic(savepoint=False):
        made, refusal = _pick_write(event, player, seat, pick_number, card)
    if refusal is not None:
        raise refusal
    assert made is not None
    return made


def _pick_write(
    event: LimitedEvent, player: Player, seat: Seat, pick_number: int, card: str
) -> tuple[DraftPick | None, Exception | None]:
    """The pick's statements under the pod's lock: (the pick, None), or (None, why not) with nothing written."""
    row = _lock_row(seat.pod_id)
    if row["paused_left"] is not None:
        return None, PickConflict("paused")
    step = row["step"]
    if pick_number < step or row["finished_at"] is not None:
        return None, PickConflict("already_picked", pick_number=pick_number)
    if pick_number > step:
        return None, PickConflict("not_yet", pick_number=pick_number, current=step)
    if card not in packs_at(event, seat.pod_id, step)[seat.seat]:
        if DraftPick.objects.filter(pod_id=seat.pod_id, seat=seat.seat, pick_number=step).exists():
            return None, PickConflict("already_picked", pick_number=pick_number)
        return None, ValidationError({"card": _("%(c)s is not in the pack you hold.") % {"c": card}})
    made = DraftPick(
        pod_id=seat.pod_id, seat=seat.seat, player=player, pick_number=pick_number, card=card,
        created_at=timezone.now(),
    )  # fmt: skip
    # The database's guard (one pick per seat and pick number) answers a second pick: no row comes back.
    inserted = _sql(_INSERT_SQL, [seat.pod_id, seat.seat, player.pk, pick_number, card, False,
                                  _when(made.created_at)])[1]  # fmt: skip
    if not inserted:
        return None, PickConflict("already_picked", pick_number=pick_number)
    made.pk = inserted[0][0]
    _advance(event, seat, pick_number)
    return made, None


def draft_pick_finishes(*, event: LimitedEvent, seat: Seat, pick_number: int) -> bool:
    """Whether ``pick_number`` is the pod's last pick (its pools are registered after it)."""
    return pick_number >= _pod_size(event, seat.pod_id)[1]


def draft_tick_pod(*, event: LimitedEvent, pod: DraftPod | int, called: bool = False) -> int:
    """Auto-pick for the seats whose timer ran out on ``pod`` (one pick step per call; ``called``: the organizer
    called time, no grace for picks on their way). Returns picks made."""
    pod_id = pod if isinstance(pod, int) else pod.pk
    if not _due(_pod_row(pod_id), called=called):
        return 0
    with transaction.atomic():
        row = _lock_row(pod_id)
        if not _due(row, called=called):
            return 0
        number = row["step"]
        seats = _seating(_draft_key(event))  # type: ignore[arg-type]
        seat = next(s for s in seats.values() if s.pod_id == pod_id)
        players = {s.seat: pid for pid, s in seats.items() if s.pod_id == pod_id}
        done = set(DraftPick.objects.filter(pod_id=pod_id, pick_number=number).values_list("seat", flat=True))
        held = packs_at(event, pod_id, number)
        made = [(i, auto_pick(held[i])) for i in range(seat.seats) if i not in done]
        DraftPick.objects.bulk_create(
            DraftPick(pod_id=pod_id, seat=i, player_id=players[i], pick_number=number, card=card, auto=True)
            for i, card in made
        )
        finished = _advance(event, seat, number)
    if finished:
        draft_pools_settle(event=event, pod_id=pod_id)
    return len(made)


def draft_tick(*, event: LimitedEvent, by: Any | None = None, called: bool = False) -> int:
    """Every pod whose pick timer ran out moves on (auto-picks). The organizer's pages run it as they are
    read, and phones' polls for their own pod, so no pod waits for a sleeping phone — after the timer's grace
    for picks on their way (limited/engine/draft.py). ``called``: the organizer calls time (the Call time button,
    the API's draft/tick/): every timer at its deadline, without the grace."""
    if by is not None:
        require_organizer(event.tournament, by)
    made = 0
    for pod_id in event.pods.filter(
        finished_at__isnull=True,
        paused_left__isnull=True,
        deadline__lte=timer_cutoff(timezone.now(), called=called),
    ).values_list("pk", flat=True):
        made += draft_tick_pod(event=event, pod=pod_id, called=called)
    return made


def _lock(pod: DraftPod) -> DraftPod:
    DraftPod.objects.filter(pk=pod.pk).update(step=F("step"))  # the lock first, as _lock_row
    return DraftPod.objects.select_for_update().get(pk=pod.pk)


def draft_pause(*, event: LimitedEvent, pod: DraftPod, by: Any, paused: bool) -> DraftPod:
    require_organizer(event.tournament, by)
    with transaction.atomic():
        pod = _lock(pod)
        if pod.finished_at is not None:
            raise ValidationError(_("This pod has finished drafting."))
        now = timezone.now()
        if paused and pod.paused_left is None:
            pod.paused_left = max(0.0, (pod.deadline - now).total_seconds()) if pod.deadline else 0.0
            pod.deadline = None
        elif not paused and pod.paused_left is not None:
            pod.deadline = now + timedelta(seconds=max(pod.paused_left, 5.0))
            pod.paused_left = None
        pod.save(update_fields=["paused_left", "deadline"])
    return pod


def draft_pools_settle(*, event: LimitedEvent, pod_id: int) -> None:
    """A finished pod's picks become each player's registered pool (the deck is built from them). Called
    after the last pick's transaction (not inside it: it writes every seat's pool), and again by any poll of
    a finished pod that finds a pool missing, so a worker killed between the two still leaves none behind."""
    seats = (
        DraftPod.objects.filter(pk=pod_id, finished_at__isnull=False).values_list("seats", flat=True).first()
    )
    if not seats:
        return
    missing = set(Player.objects.filter(pk__in=seats, pool__isnull=True).values_list("pk", flat=True))
    if not missing:
        return
    tournament = event.tournament
    pod = DraftPod.objects.get(pk=pod_id)
    state = pod_state(pod)
    organizer = tournament.created_by
    for seat, player_id in enumerate(pod.seats):
        if player_id not in missing:
            continue
        player = Player.objects.get(pk=player_id)
        try:
            tournament_services.player_submit_pool(
                player=player, by=organizer, pool=pool_payload(tournament, state.pool(seat))
            )
        except (ValidationError, PermissionDenied) as error:
            # The picks are stored whatever happens here; the organizer registers this pool by hand (printables
            # list the picks' pool once it is registered, the API's draft/me still shows every pick).
            log.error("draft pool of player %s not registered: %s", player_id, error)
    if not event.pods.filter(finished_at__isnull=True).exists():
        LimitedEvent.objects.filter(pk=event.pk, draft_finished_at__isnull=True).update(
            draft_finished_at=timezone.now()
        )


@dataclass(frozen=True)
class DraftPolled:
    """A phone's draft poll: ``tag`` names what the seat is shown now (None for a physical-draft seat
    without state to follow, or a player without a limited event); ``current`` when the phone already holds
    it (304); ``state`` otherwise (None: no seat in this draft)."""

    tag: str | None
    current: bool
    state: dict[str, Any] | None


def draft_me_polled(
    *,
    event: LimitedEvent,
    player: Player,
    kind: str,
    language: str,
    tags: frozenset[str] | set[str] = frozenset(),
) -> DraftPolled:
    """The player's draft answer with its tag (limited/polls.py), or only "current" when ``tags`` (the
    phone's If-None-Match) holds it. A pod whose timer ran out is moved on first (auto-picks): a phone's poll
    never leaves its pod waiting for a sleeping phone. The tag is read before the answer, so a pick landing in
    between costs one more 200, never a 304 hiding it."""
    seat = seat_of(event, player)
    pod_id, number = (seat.pod_id, seat.seat) if seat else (0, 0)
    where = {"tournament_id": event.tournament_id, "player_id": player.pk, "pod_id": pod_id, "seat": number}
    row = poll_state(**where)
    if row is not None and due(row):
        draft_tick_pod(event=event, pod=pod_id)
        row = poll_state(**where)
    tag = None if row is None else draft_etag(kind=kind, language=language, state=row, **where)
    if tag is not None and tag in tags:
        return DraftPolled(tag, True, None)
    if seat is None or row is None:
        return DraftPolled(tag, False, None)
    if event.physical:  # packs on the tables: the phone shows the seat; the pool is entered after the draft
        return DraftPolled(tag, False, {
            "pod": seat.number, "seat": seat.seat + 1, "seats": seat.seats, "physical": True, "finished": False,
            "pack": [], "picks": [], "pack_number": 1, "pick_in_pack": 1, "pick_number": None, "waiting": False,
            "paused": False, "deadline": None, "passing": "left"})  # fmt: skip
    size, total = _pod_size(event, seat.pod_id)
    mine = [card for (card,) in _sql(_MINE_SQL, [seat.pod_id, seat.seat])[1]]
    step = row.step
    finished = row.finished or step > total
    if finished and row.pool_missing:
        draft_pools_settle(event=event, pod_id=seat.pod_id)
    pack_number, pick_in_pack = (
        ((step - 1) // size + 1, (step - 1) % size + 1)
        if not finished
        else (total // size if size else 0, size)
    )
    waiting = not finished and len(mine) >= step
    return DraftPolled(tag, False, {
        "pod": seat.number,
        "seat": seat.seat + 1,
        "seats": seat.seats,
        "pack_number": pack_number,
        "pick_in_pack": pick_in_pack,
        "pick_number": step if not finished else None,
        "pack": [] if finished or waiting else list(packs_at(event, seat.pod_id, step)[seat.seat]),
        "picks": mine,
        "waiting": waiting,
        "finished": finished,
        "paused": row.paused,
        "deadline": row.deadline,
        "passing": "left" if pack_number % 2 == 1 else "right",
        "physical": False,
    })  # fmt: skip


def draft_waiting_tag(*, event: LimitedEvent, player: Player, seat: Seat, pick_number: int) -> str | None:
    """The tag of the seat's draft/me answer right after its pick ``pick_number``, while the pod still waits
    for other seats at that pick (running, not paused, its time not up); else None. The pick's answer carries
    it, so the phone's next poll is a 304 until the pass instead of a full answer saying "waiting"."""
    where = {
        "tournament_id": event.tournament_id,
        "player_id": player.pk,
        "pod_id": seat.pod_id,
        "seat": seat.seat,
    }
    row = poll_state(**where)
    if row is None or row.finished or row.paused or row.step != pick_number or not row.picked or due(row):
        return None
    return draft_etag(kind=API, language=NO_LANGUAGE, state=row, **where)


def draft_me(*, event: LimitedEvent, player: Player) -> dict[str, Any]:
    """What the player's phone shows: their seat, the pack they hold, their own picks and the deadline. A
    cheap read: one query for the pod's row and the seat's part in it, the player's own picks, and the packs
    of the pod's pick from the cache. ValidationError when the player has no seat."""
    state = draft_me_polled(event=event, player=player, kind=API, language=NO_LANGUAGE).state
    if state is None:
        raise ValidationError(_("You have no seat in this draft."))
    return state


def pods_progress(*, event: LimitedEvent, by: Any) -> list[dict[str, Any]]:
    """The organizer's dashboard: each pod's pick, who has picked it, its timer — never anyone's picks.
    Three reads whatever the number of pods: the pods' rows (not their packs), the names, the picks made
    of each pod's current pick."""
    require_organizer(event.tournament, by)
    names = dict(Player.objects.filter(tournament_id=event.tournament_id).values_list("id", "name"))
    done: dict[int, set[int]] = {}
    for pod_id, seat in DraftPick.objects.filter(
        pod__event=event, pod__finished_at__isnull=True, pick_number=F("pod__step")
    ).values_list("pod_id", "seat"):
        done.setdefault(pod_id, set()).add(seat)
    now = timezone.now()
    out = []
    for pod in event.pods.values("pk", "number", "seats", *_POD_ROW):
        picked = done.get(pod["pk"], set())
        deadline = pod["deadline"]
        out.append(
            {
                "pod": pod["number"], "pick_number": pod["step"], "total_picks": _pod_size(event, pod["pk"])[1],
                "finished": pod["finished_at"] is not None, "paused": pod["paused_left"] is not None,
                "deadline": deadline,
                "seconds_left": max(0, int((deadline - now).total_seconds())) if deadline else None,
                "seats": [
                    {"seat": i + 1, "player": pid, "name": names.get(pid, ""), "picked": i in picked}
                    for i, pid in enumerate(pod["seats"])
                ],
            }
        )  # fmt: skip
    return out


def pool_guard(*, tournament: Tournament, player: Player, organizer: bool) -> None:
    """A pool the event dealt (sealed from the seed, or a draft's picks) is frozen for its player; only an
    organizer changes it. Pools typed in from the tables (a physical draft or sealed) stay the player's to enter."""
    if organizer:
        return
    event = LimitedEvent.objects.filter(tournament=tournament).only("kind", "physical").first()
    if event is not None and not event.physical:
        raise ValidationError(
            _("Your pool was dealt by the event and is frozen: ask an organizer to change it.")
        )


def typed_pool(*, tournament: Tournament, text: str) -> dict[str, int]:
    """A pool typed in from what the player opened: one card a line, ``3 TD-SAMPLE 1/40`` (count, set, collector
    number) or ``2 Card name``; the count may be left out (1). ValidationError names the first unknown line."""

    pool: Counter[str] = Counter()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        count, _sep, rest = line.partition(" ")
        if count.rstrip("x×").isdigit() and rest.strip():
            n, ref = int(count.rstrip("x×")), rest.strip()
        else:
            n, ref = 1, line
        key = None
        set_code, _sep, collector = ref.partition(" ")
        if collector:
            key = (
                Printing.objects.filter(
                    card__game=tournament.game,
                    card_set__code__iexact=set_code,
                    code__iexact=collector.strip(),
                )
                .values_list("card__external_id", flat=True)
                .first()
            )
        if key is None:
            key = (
                Card.objects.filter(game=tournament.game, search_name=ref.casefold())
                .values_list("external_id", flat=True)
                .first()
            )
        if key is None or not 1 <= n <= 99:
            raise ValidationError(_("Line %(n)s: no card %(ref)s in this game.") % {"n": number, "ref": ref})
        pool[key] += n
    if not pool:
        raise ValidationError(_("Type the cards of your pool, one a line."))
    return dict(pool)


def pod_pairing_groups(*, tournament: Tournament, round_number: int) -> list[set[int]] | None:
    """MTR 7.x "play within your pod": the first ``pod_rounds`` Swiss rounds of a draft pair each pod apart."""
    event = LimitedEvent.objects.filter(tournament=tournament).only("pk", "pod_rounds").first()
    if event is None or round_number > event.pod_rounds:
        return None
    return [set(seats) for seats in event.pods.values_list("seats", flat=True)] or None
