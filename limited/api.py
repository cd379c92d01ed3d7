"""/api/tournaments/{id}/limited|pools|draft/…: limited events over REST.

``/api/tournaments/`` is answered here too (``TournamentWithLimitedViewSet``, the tournaments API's viewset
whose create also takes the ``limited`` object): the schema of that endpoint comes from this view.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from idempotency.decorators import idempotent
from tournaments import services as tournament_services
from tournaments.api import TournamentViewSet
from tournaments.api.common import IDEMPOTENCY_KEY, TournamentApiView, errors, parse
from tournaments.live.etags import etags_parse
from tournaments.live.sql import poll_fetch
from tournaments.models import Player, Tournament

from . import polls, services
from . import serializers as s
from .lookups import event_or_404
from .models import DraftPod, LimitedEvent


class TournamentWithLimitedViewSet(TournamentViewSet):
    """``/api/tournaments/``: the tournaments API, whose create also takes the ``limited`` object (the
    tournament and its limited part in one transaction, so a product that cannot open leaves no event)."""

    @extend_schema(
        request=s.TournamentLimitedInSerializer,
        responses={201: s.TournamentLimitedOutSerializer, **errors(400, 401, 403)},
        examples=[
            OpenApiExample(
                "booster draft",
                value={"name": "Friday Draft", "game": "twindeck", "format": "limited", "deck_registration": True,
                       "limited": {"kind": "draft", "product": "td-sample", "packs": 3, "seed": 17}},
                request_only=True,
            ),
        ],
    )  # fmt: skip
    def create(self, request: Request) -> Response:
        """Create an event; with ``limited`` (on a format that builds decks from a pool) it is a sealed event
        or a booster draft whose packs all come from ``seed``."""
        limited = parse(s.TournamentLimitedInSerializer, request).get("limited")
        with transaction.atomic():
            created = super().create(request)
            tournament = Tournament.objects.get(pk=created.data["id"])
            if limited is not None:
                # A refusal raises: the atomic block takes the tournament back with it.
                services.limited_event_create(
                    tournament=tournament, by=request.user, kind=limited["kind"], product=limited["product"],
                    packs=limited.get("packs"), seed=limited.get("seed"), cube=limited.get("cube"),
                    cube_pack_size=limited["cube_pack_size"], physical=limited["physical"],
                    pick_time_scale=limited["pick_time_scale"], pod_rounds=limited["pod_rounds"],
                )  # fmt: skip
        return Response(
            s.TournamentLimitedOutSerializer(tournament, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )


def _event(pk: str) -> LimitedEvent:
    return event_or_404(int(pk) if pk.isdigit() else -1)


# A phone's poll and pick read the event's draft columns and the caller's player in one statement, and
# build the two objects from it (no ORM query building): a draft's hot path costs what the draft needs.
_SEATED_SQL = """
SELECT e.id, e.kind, e.physical, e.pick_time_scale, e.seed, e.packs, e.draft_started_at, pl.id
  FROM limited_limitedevent e
  LEFT JOIN tournaments_player pl ON pl.tournament_id = e.tournament_id AND pl.user_id = %s
 WHERE e.tournament_id = %s
 ORDER BY pl.id"""


def _draft_seated(pk: str, request: Request) -> tuple[LimitedEvent, Player]:
    """The limited event of tournament ``pk`` (its draft's columns) and the signed-in user's player in it;
    404 when either is missing."""
    if not (pk.isdigit() and len(pk) <= 18):
        raise Http404
    rows = poll_fetch(_SEATED_SQL, [request.user.pk, int(pk)])
    if not rows:
        raise Http404
    event_id, kind, physical, scale, seed, packs, started, player_id = rows[0]
    if player_id is None:
        raise Http404
    event = LimitedEvent(
        pk=event_id, tournament_id=int(pk), kind=kind, physical=bool(physical), pick_time_scale=scale, seed=seed,
        packs=packs, draft_started_at=polls.moment(started),
    )  # fmt: skip
    return event, Player(pk=player_id, tournament_id=int(pk), user_id=request.user.pk)


def _player(pk: str, player_id: str) -> Player:
    if not (pk.isdigit() and player_id.isdigit()):
        return get_object_or_404(Player, pk=-1)
    return get_object_or_404(Player.objects.select_related("tournament"), pk=player_id, tournament_id=pk)


IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match", str, OpenApiParameter.HEADER, required=False,
    description="The ETag of the answer the phone holds: unchanged, the answer is a bodiless 304.",
)  # fmt: skip
WAITING_TAG = "Draft-Me-ETag"
NOT_MODIFIED = OpenApiResponse(description="Unchanged since the ETag given in If-None-Match (no body).")


class _View(TournamentApiView, APIView):
    permission_classes = [IsAuthenticated]


class LimitedView(_View):
    @extend_schema(responses={200: s.LimitedOutSerializer, **errors(401, 404)})
    def get(self, request: Request, pk: str) -> Response:
        """The event's product, packs and seed, and how far the pools or the draft are."""
        return Response(s.LimitedOutSerializer(_event(pk)).data)


class DealView(_View):
    @extend_schema(request=None, responses={201: s.DealtOutSerializer, **errors(400, 401, 403, 404)})
    def post(self, request: Request, pk: str) -> Response:
        """Sealed (organizers): give every entrant pool i of the seed and register it."""
        dealt = services.limited_pools_deal(event=_event(pk), by=request.user)
        return Response(s.DealtOutSerializer({"pools": dealt}).data, status=status.HTTP_201_CREATED)


class PoolView(_View):
    @extend_schema(
        responses={
            200: {"type": "object", "additionalProperties": {"type": "integer"}},
            **errors(401, 403, 404),
        }
    )
    def get(self, request: Request, pk: str, player_id: str) -> Response:
        """A player's registered pool as ``{card: count}``: that player and the organizers only."""
        player = _player(pk, player_id)
        return Response(services.pool_counts(player=player, by=request.user))


class DraftStartView(_View):
    @extend_schema(request=None, responses={201: s.PodOutSerializer(many=True), **errors(400, 401, 403, 404)})
    def post(self, request: Request, pk: str) -> Response:
        """Organizers: seat the pods from the seed and open the packs."""
        event = _event(pk)
        services.draft_start(event=event, by=request.user)
        return Response(
            s.PodOutSerializer(services.pods_progress(event=event, by=request.user), many=True).data,
            status=status.HTTP_201_CREATED,
        )


class DraftMeView(_View):
    @extend_schema(
        parameters=[IF_NONE_MATCH],
        responses={200: s.DraftMeOutSerializer, 304: NOT_MODIFIED, **errors(400, 401, 404)},
    )
    def get(self, request: Request, pk: str) -> Response:
        """Your seat, the pack you hold, your own picks and when the pick times out (nobody else's picks).
        Answered with an ETag: sent back in If-None-Match, an unchanged answer is a bodiless 304."""
        event, player = _draft_seated(pk, request)
        polled = services.draft_me_polled(
            event=event, player=player, kind=polls.API, language=polls.NO_LANGUAGE,
            tags=etags_parse(request.headers.get("If-None-Match", "")),
        )  # fmt: skip
        if polled.current:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=_tagged(polled.tag))
        if polled.state is None:
            raise ValidationError(_("You have no seat in this draft."))
        return Response(s.DraftMeOutSerializer(polled.state).data, headers=_tagged(polled.tag))


def _tagged(tag: str | None) -> dict[str, str]:
    # no-cache: the phone asks every time (with the tag), so a pass is never hidden by a cached copy.
    return {"ETag": tag, "Cache-Control": "no-cache"} if tag else {"Cache-Control": "no-cache"}


class DraftPickView(_View):
    @extend_schema(
        request=s.PickInSerializer, parameters=[IDEMPOTENCY_KEY],
        responses={201: s.PickOutSerializer, **errors(400, 401, 403, 404, 409, 422)},
    )  # fmt: skip
    def post(self, request: Request, pk: str) -> Response:
        """Pick a card of the pack you hold. A second pick for the same pick number is 409 (the first
        stands); the same Idempotency-Key again replays the first answer. While the pod still waits for
        other seats, the 201 carries ``Draft-Me-ETag``: the ETag of your draft/me answer now (this pick made,
        waiting for the pass, the same deadline); sent in If-None-Match, draft/me is a 304 until the pass."""
        given = s.PickInSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        event, player = _draft_seated(pk, request)
        # The reads (seat, packs, a timer run out) before the key's write transaction opens: on SQLite that
        # transaction holds the venue's one write lock, so it holds it for the pick's own rows only.
        seat = services.draft_pick_prepare(event=event, player=player, by=request.user)
        answer = self._apply(request, pk, event=event, player=player, seat=seat, given=given.validated_data)
        number = given.validated_data["pick_number"]
        if answer.status_code == status.HTTP_201_CREATED:
            if services.draft_pick_finishes(event=event, seat=seat, pick_number=number):
                services.draft_pools_settle(event=event, pod_id=seat.pod_id)
            waiting = services.draft_waiting_tag(event=event, player=player, seat=seat, pick_number=number)
            if waiting:
                answer[WAITING_TAG] = waiting
        return answer

    @idempotent
    def _apply(
        self,
        request: Request,
        pk: str,
        *,
        event: LimitedEvent,
        player: Player,
        seat: services.Seat,
        given: dict,
    ) -> Response:
        try:
            made = services.draft_pick(
                event=event, player=player, by=request.user, pick_number=given["pick_number"],
                card=given["card"], seat=seat,
            )  # fmt: skip
        except services.PickConflict as conflict:
            return Response(
                {"detail": conflict.code, **{k: v for k, v in conflict.params.items()}},
                status=status.HTTP_409_CONFLICT,
            )
        return Response(s.PickOutSerializer(made).data, status=status.HTTP_201_CREATED)


class DraftTickView(_View):
    @extend_schema(request=None, responses={200: s.TickOutSerializer, **errors(401, 403, 404)})
    def post(self, request: Request, pk: str) -> Response:
        """Organizers (and tests) call time: every pod whose pick timer reached its deadline moves on with
        automatic picks at once (the phones' polls wait a few seconds more for picks on their way)."""
        made = services.draft_tick(event=_event(pk), by=request.user, called=True)
        return Response(s.TickOutSerializer({"auto_picks": made}).data)


class PodsView(_View):
    @extend_schema(responses={200: s.PodOutSerializer(many=True), **errors(401, 403, 404)})
    def get(self, request: Request, pk: str) -> Response:
        """Organizers: each pod's pick, who has made it and its timer."""
        return Response(
            s.PodOutSerializer(services.pods_progress(event=_event(pk), by=request.user), many=True).data
        )


class PodPauseView(_View):
    @extend_schema(
        request=s.PausedInSerializer,
        responses={200: s.PodOutSerializer(many=True), **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, pk: str, number: str) -> Response:
        """Organizers: pause a pod (its timer stops, no pick is taken) or let it go on."""
        given = s.PausedInSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        event = _event(pk)
        pod = (
            get_object_or_404(DraftPod, event=event, number=number)
            if number.isdigit()
            else get_object_or_404(DraftPod, pk=-1)
        )
        services.draft_pause(event=event, pod=pod, by=request.user, paused=given.validated_data["paused"])
        return Response(
            s.PodOutSerializer(services.pods_progress(event=event, by=request.user), many=True).data
        )


class PoolDeckView(_View):
    @extend_schema(
        request={"application/json": {"type": "object"}},
        responses={201: {"type": "object"}, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, pk: str, player_id: str) -> Response:
        """Register the deck built from the pool (``{sections: {slug: [{card, count}]}}``): a card the pool
        does not hold (or more copies than it holds) is refused naming the card."""
        player = _player(pk, player_id)
        if not isinstance(request.data, dict):
            return Response({"detail": "give the deck as {sections: {slug: [{card, count}]}}"}, status=400)
        tournament_services.player_submit_deck(player=player, by=request.user, payload=request.data)
        player.refresh_from_db()
        return Response({"deck": player.deck, "legal": True}, status=status.HTTP_201_CREATED)
