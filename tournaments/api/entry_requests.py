"""/api/tournaments/requests/: registrations organizers asked of you (GET), and your answer (POST
/api/tournaments/requests/{id}/ with ``accept``). Nothing is registered until you accept."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.fields import StrictCharField

from .. import services
from ..models import EntryRequest
from ..serializers import EntryRequestOutSerializer, PlayerOutSerializer, StrictBooleanField
from .common import TournamentApiView, errors, parse


class EntryRequestsOutSerializer(serializers.Serializer):
    requests = EntryRequestOutSerializer(many=True, help_text="waiting for your answer, oldest first")


class EntryRequestAnswerInSerializer(serializers.Serializer):
    accept = StrictBooleanField(
        help_text="true: register me (with the proposed deck, if any); false: decline"
    )


class EntryRequestAnswerOutSerializer(serializers.Serializer):
    request = EntryRequestOutSerializer()
    player = PlayerOutSerializer(allow_null=True, help_text="your entry when you accepted, else null")
    deck_problems = serializers.ListField(
        child=StrictCharField(),
        help_text="why the proposed deck was not registered (the entry stands without a list)",
    )


class EntryRequestsView(TournamentApiView, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_requests_list", responses={200: EntryRequestsOutSerializer,
                                                                         **errors(401)})  # fmt: skip
    def get(self, request: Request) -> Response:
        """Registrations organizers asked of you, waiting for your answer."""
        return Response(
            EntryRequestsOutSerializer({"requests": services.open_entry_requests(request.user)}).data
        )


class EntryRequestAnswerView(TournamentApiView, APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="tournaments_requests_answer",
        request=EntryRequestAnswerInSerializer,
        responses={200: EntryRequestAnswerOutSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, request_id: str) -> Response:
        """Accept or decline a registration an organizer asked of you (only you can)."""
        pk = int(request_id) if request_id.isdecimal() and len(request_id) < 19 else 0
        asked = get_object_or_404(EntryRequest, pk=pk, user=request.user)
        v = parse(EntryRequestAnswerInSerializer, request)
        outcome = services.entry_request_answer(entry_request=asked, by=request.user, accept=v["accept"])
        if outcome.player is not None:
            outcome.player.refresh_from_db()
        return Response(
            EntryRequestAnswerOutSerializer(
                {"request": outcome.entry_request, "player": outcome.player,
                 "deck_problems": [str(p) for p in outcome.deck_problems]}
            ).data,
            status=status.HTTP_200_OK,
        )  # fmt: skip
