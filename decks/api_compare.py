"""GET /api/decks/compare/?a=<id>&b=<id>: two decks the caller may read, per section only_a / only_b / both."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from config.fields import StrictCharField, StrictSlugField

from .compare import lists_compare, parse_ref

# A refusal ({"a"|"b": why}) or a side the caller cannot read ({"detail": "no such deck"}).
ERROR = {"type": "object", "additionalProperties": {"type": "string"}}

# What either side may be, as the API reads it (anything else answers 400).
SIDE = {"type": "string", "pattern": "^(player:)?[1-9][0-9]{0,17}$"}


class CompareLineOutSerializer(serializers.Serializer):
    card = serializers.IntegerField()
    name = StrictCharField()
    count = serializers.IntegerField(help_text="copies in this list")


class CompareBothLineOutSerializer(CompareLineOutSerializer):
    count_a = serializers.IntegerField()
    count_b = serializers.IntegerField()


class CompareSectionOutSerializer(serializers.Serializer):
    only_a = CompareLineOutSerializer(many=True)
    only_b = CompareLineOutSerializer(many=True)
    both = CompareBothLineOutSerializer(many=True)


class CompareSideOutSerializer(serializers.Serializer):
    ref = StrictCharField(help_text="the deck's id, or `player:<id>` for a tournament's registered list")
    name = StrictCharField()
    owner = StrictCharField()
    game = StrictSlugField(source="game_slug")
    format_slug = StrictSlugField()
    url = StrictCharField()


class DeckCompareOutSerializer(serializers.Serializer):
    a = CompareSideOutSerializer()
    b = CompareSideOutSerializer()
    sections = serializers.DictField(child=CompareSectionOutSerializer())


def list_ref_param(request: Request, name: str) -> tuple[str, int]:
    ref = parse_ref(request.query_params.get(name, ""))
    if ref is None:
        raise exceptions.ValidationError(
            {name: gettext("a deck id (a positive whole number) or player:<id> for a tournament's list")}
        )
    return ref


class DeckCompareView(GenericAPIView):
    """Lists the caller can read only: decks (own, public, unlisted by link) and tournaments' registered
    lists the event shows them (`player:<id>`); another's private deck answers 404."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("a", SIDE, required=True, description="a deck id, or player:<id>"),
            OpenApiParameter("b", SIDE, required=True, description="a deck id, or player:<id>"),
        ],
        responses={200: DeckCompareOutSerializer, 400: ERROR, 404: ERROR},
    )
    def get(self, request: Request) -> Response:
        a, b = list_ref_param(request, "a"), list_ref_param(request, "b")
        first, second, sections = lists_compare(a=a, b=b, user=request.user)
        return Response(DeckCompareOutSerializer({"a": first, "b": second, "sections": sections}).data)
