"""/api/tournaments/{id}/decklists/ and /metagame/: what the asking user (anonymous included) may see now."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import ApiErrorOutSerializer, Unprocessable
from tournaments.models import Tournament

from . import selectors
from . import serializers as s
from .document import results_document
from .models import Webhook
from .publishing import published_event_receive
from .webhooks import webhook_create


def _tournament(pk: str) -> Tournament:
    return get_object_or_404(Tournament, pk=int(pk) if pk.isdecimal() and len(pk) < 18 else 0)


class DecklistsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: s.DecklistsOutSerializer})
    def get(self, request: Request, pk: str) -> Response:
        """Each player's list, archetype (with the rule that matched) or nothing, as the event's deck list
        timeline and the player's consent allow for you now."""
        data = selectors.decklists_visible(_tournament(pk), request.user)
        return Response(s.DecklistsOutSerializer(data).data)


class MetagameView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: s.MetagameOutSerializer})
    def get(self, request: Request, pk: str) -> Response:
        """Archetype share, cut conversion, match win rates and the matrix, over the archetypes you may see."""
        data = selectors.metagame(_tournament(pk), request.user)
        return Response(s.MetagameOutSerializer(data).data)


class ResultsDocumentView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: s.ResultsDocumentSerializer})
    def get(self, request: Request, pk: str) -> Response:
        """The versioned results document (results/schemas/results-v1.schema.json): standings, pairings, game
        results, lists and archetypes as far as the deck list timeline allows you now."""
        return Response(results_document(_tournament(pk), request.user))


class WebhooksView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.WebhookOutSerializer(many=True)})
    def get(self, request: Request) -> Response:
        """Your webhooks (the secret is never shown again)."""
        return Response(s.WebhookOutSerializer(Webhook.objects.filter(owner=request.user), many=True).data)

    @extend_schema(
        request=s.WebhookInSerializer, responses={201: s.WebhookOutSerializer, 422: ApiErrorOutSerializer}
    )
    def post(self, request: Request) -> Response:
        """Organizers: receive events of the tournaments you organize at ``url``, each request signed in
        ``X-Deckhall-Signature: sha256=HMAC-SHA256(secret, "<X-Deckhall-Timestamp>.<body>")``."""
        incoming = s.WebhookInSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        try:
            hook = webhook_create(by=request.user, **incoming.validated_data)
        except Unprocessable:
            raise  # 422, by config.api's handler
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.message_dict) from error
        return Response(s.WebhookOutSerializer(hook).data, status=status.HTTP_201_CREATED)


class PublishedEventsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=s.PublishInSerializer,
        responses={201: s.PublishedOutSerializer, 200: s.PublishedOutSerializer},
    )
    def post(self, request: Request) -> Response:
        """A venue publishes a finished event's results document (``manage.py publish_event``). Idempotent:
        the same document again changes nothing (200, ``changed: false``)."""
        incoming = s.PublishInSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        try:
            row, changed = published_event_receive(by=request.user, **incoming.validated_data)
        except DjangoValidationError as error:
            raise serializers.ValidationError(
                error.message_dict if hasattr(error, "error_dict") else error.messages
            ) from error
        body = {"id": row.pk, "changed": changed, "url": f"/tournaments/published/{row.pk}/"}
        return Response(
            s.PublishedOutSerializer(body).data,
            status=status.HTTP_201_CREATED if changed else status.HTTP_200_OK,
        )


def events_for(params: Any) -> list[Tournament]:
    """?series=<id>, or ?game=<slug>&from=<date>&to=<date> (the events' creation dates, inclusive; without a
    game, every game's events)."""
    found = Tournament.objects.select_related("game").order_by("created_at", "pk")
    # Dates are checked whatever else is given (a series ignores them, but a malformed one is still refused,
    # as the schema refuses it).
    dates: dict[str, date] = {}
    for key in ("from", "to"):
        if key in params:  # given empty is not a date either (the schema says format: date)
            try:
                # Exactly YYYY-MM-DD (format: date); fromisoformat alone also takes "20260105".
                if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", params[key]):
                    raise ValueError(params[key])
                dates[key] = date.fromisoformat(params[key])
            except ValueError:
                raise serializers.ValidationError({key: "a date as YYYY-MM-DD"}) from None
    series = params.get("series")
    if "series" in params:  # given empty is no series id either (the schema says integer)
        if not str(series).isdecimal() or len(str(series)) > 18 or int(series) < 1:
            raise serializers.ValidationError({"series": "give a series id"})
        return list(found.filter(series__pk=int(series)))
    if params.get("game"):
        # Neither series nor game: every game's events in the range (at most 500), as the schema allows.
        found = found.filter(game__slug=params["game"])
    if "from" in dates:
        found = found.filter(created_at__date__gte=dates["from"])
    if "to" in dates:
        found = found.filter(created_at__date__lte=dates["to"])
    return list(found[:500])


class MetagameRangeView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("series", {"type": "integer", "minimum": 1, "maximum": 10**18 - 1}),
                    OpenApiParameter("game", str),
                    OpenApiParameter("from", OpenApiTypes.DATE), OpenApiParameter("to", OpenApiTypes.DATE)],
        responses={200: s.MetagameRangeOutSerializer},
    )  # fmt: skip
    def get(self, request: Request) -> Response:
        """The metagame of a series or of a game's events in a date range, each event under its own timeline."""
        data = selectors.metagame_of_events(events_for(request.query_params), request.user)
        return Response(s.MetagameRangeOutSerializer(data).data)
