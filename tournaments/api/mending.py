"""/api/tournaments/{id}/rounds/{n}/mend/, .../clock/: mending one match and the round clock,
for organizers' tools other than the pages."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.fields import StrictCharField

from .. import serializers as s
from .. import services
from ..models import Player, Round
from ..permissions import require_organizer
from .common import TournamentApiView, errors, parse, round_response

MEND_KINDS = ("swap", "pair", "bye", "loss")


class MendInSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=MEND_KINDS, help_text="swap, pair (by hand), bye or loss (by hand)"
    )
    player = serializers.IntegerField(min_value=1)
    other = serializers.IntegerField(
        min_value=1, required=False, help_text="the second player: swap and pair"
    )
    reason = StrictCharField(max_length=300, required=False, allow_blank=True, default="")


class ClockInSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=("pause", "resume", "add"))
    minutes = serializers.IntegerField(min_value=1, max_value=60, required=False, help_text="for add")
    required_when = ("action", {"pause": (), "resume": (), "add": ("minutes",)})  # round_timer_add needs it


class ClockOutSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    timer_ends_at = serializers.DateTimeField(allow_null=True)
    timer_paused_left = serializers.IntegerField(allow_null=True, help_text="seconds left while paused")


def _id(raw: str) -> int:
    if not raw.isdecimal() or len(raw) > 18:
        raise NotFound()
    return int(raw)


def _round(pk: str, number: str) -> Round:
    round_ = (
        Round.objects.select_related("tournament").filter(tournament_id=_id(pk), number=_id(number)).first()
    )
    if round_ is None:
        raise NotFound()
    return round_


def _player(round_: Round, player_id: int, field: str) -> Player:
    player = Player.objects.filter(pk=player_id, tournament_id=round_.tournament_id).first()
    if player is None:
        raise NotFound({field: "no player with this id in this event"})
    return player


class MendView(TournamentApiView, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=MendInSerializer,
        responses={200: s.RoundOutSerializer, **errors(400, 401, 403, 404)},
        examples=[OpenApiExample("swap", value={"kind": "swap", "player": 4, "other": 9}, request_only=True)],
    )
    def post(self, request: Request, pk: str, number: str) -> Response:
        """Mend one match of a round without results (audited as a PairingChange); returns the round."""
        round_ = _round(pk, number)
        require_organizer(round_.tournament, request.user)
        v: dict[str, Any] = parse(MendInSerializer, request)
        player = _player(round_, v["player"], "player")
        if v["kind"] in ("swap", "pair"):
            if "other" not in v:
                raise serializers.ValidationError({"other": "give the second player"})
            other = _player(round_, v["other"], "other")
            service = services.pairing_swap if v["kind"] == "swap" else services.pairing_pair
            service(round_=round_, by=request.user, player_a=player, player_b=other)
        elif v["kind"] == "bye":
            services.pairing_bye(round_=round_, by=request.user, player=player)
        else:
            services.pairing_loss(round_=round_, by=request.user, player=player, reason=v["reason"])
        return round_response(round_)


class ClockView(TournamentApiView, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ClockInSerializer, responses={200: ClockOutSerializer, **errors(400, 401, 403, 404)}
    )
    def post(self, request: Request, pk: str, number: str) -> Response:
        """Pause, resume or add minutes to the round clock (organizers, latest round)."""
        round_ = _round(pk, number)
        require_organizer(round_.tournament, request.user)
        v = parse(ClockInSerializer, request)
        if v["action"] == "pause":
            round_ = services.round_timer_pause(round_=round_, by=request.user)
        elif v["action"] == "resume":
            round_ = services.round_timer_resume(round_=round_, by=request.user)
        else:
            round_ = services.round_timer_add(round_=round_, by=request.user, minutes=v.get("minutes"))
        return Response(ClockOutSerializer(round_).data)
