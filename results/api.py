"""/api/tournaments/{id}/decklists/ and /metagame/: what the asking user (anonymous included) may see now."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import Tournament

from . import selectors
from . import serializers as s
from .document import results_document


def _tournament(pk: str) -> Tournament:
    return get_object_or_404(Tournament, pk=int(pk) if pk.isdigit() and len(pk) < 18 else 0)


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
