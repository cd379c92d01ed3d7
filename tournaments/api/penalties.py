"""/api/tournaments/{id}/penalties/: the event's penalty log (organizers, who act as its judges)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.fields import StrictCharField

from .. import services
from ..models import Penalty, Player, Tournament
from ..permissions import require_organizer
from .common import TournamentApiView, errors, parse


class PenaltyInSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, help_text="the player's id in this event")
    round = serializers.IntegerField(min_value=1, required=False, allow_null=True,
                                     help_text="round number; the latest round when left out")  # fmt: skip
    infraction = StrictCharField(max_length=120)
    penalty = serializers.ChoiceField(choices=Penalty.Kind.values)
    note = StrictCharField(max_length=500, required=False, allow_blank=True, default="")


class PenaltyOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    player_name = StrictCharField(source="player.name")
    round = serializers.IntegerField(source="round.number", allow_null=True, default=None)
    infraction = StrictCharField()
    penalty = serializers.ChoiceField(choices=Penalty.Kind.values)
    note = StrictCharField(allow_blank=True)
    judge = StrictCharField(source="judge.username", allow_null=True, default=None)
    match = serializers.IntegerField(source="match_id", allow_null=True,
                                     help_text="the match whose result the penalty changed, if any")  # fmt: skip
    created_at = serializers.DateTimeField()


class PenaltiesOutSerializer(serializers.Serializer):
    penalties = PenaltyOutSerializer(many=True)


class PenaltyView(TournamentApiView, APIView):
    permission_classes = [IsAuthenticated]

    def _tournament(self, pk: str) -> Tournament:
        if not pk.isdecimal() or len(pk) > 18:
            from rest_framework.exceptions import NotFound

            raise NotFound()
        return get_object_or_404(Tournament, pk=int(pk))

    @extend_schema(responses={200: PenaltiesOutSerializer, **errors(401, 403, 404)})
    def get(self, request: Request, pk: str) -> Response:
        tournament = self._tournament(pk)
        require_organizer(tournament, request.user)
        rows = tournament.penalties.select_related("player", "round", "judge").order_by("created_at", "id")
        return Response(PenaltiesOutSerializer({"penalties": rows}).data)

    @extend_schema(
        request=PenaltyInSerializer,
        responses={201: PenaltyOutSerializer, **errors(400, 401, 403, 404)},
        examples=[
            OpenApiExample(
                "game loss",
                request_only=True,
                value={
                    "player": 4,
                    "round": 2,
                    "infraction": "Deck problem",
                    "penalty": "game_loss",
                    "note": "",
                },
            )
        ],
    )
    def post(self, request: Request, pk: str) -> Response:
        tournament = self._tournament(pk)
        require_organizer(tournament, request.user)
        v: dict[str, Any] = parse(PenaltyInSerializer, request)
        player = Player.objects.filter(pk=v["player"], tournament=tournament).first()
        if player is None:
            raise NotFound({"player": "no player with this id in this event"})
        row = services.penalty_add(tournament=tournament, by=request.user, player=player,
                                   round_number=v.get("round"), infraction=v["infraction"],
                                   penalty=v["penalty"], note=v.get("note", ""))  # fmt: skip
        return Response(PenaltyOutSerializer(row).data, status=status.HTTP_201_CREATED)
