"""GET /api/decks/compare/?a=<id>&b=<id>: two decks the caller may read, per section only_a / only_b / both."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from .api import MAX_ID, DeckOutSerializer
from .compare import deck_compare


class CompareLineOutSerializer(serializers.Serializer):
    card = serializers.IntegerField()
    name = serializers.CharField()
    count = serializers.IntegerField(help_text="copies in this list")


class CompareBothLineOutSerializer(CompareLineOutSerializer):
    count_a = serializers.IntegerField()
    count_b = serializers.IntegerField()


class CompareSectionOutSerializer(serializers.Serializer):
    only_a = CompareLineOutSerializer(many=True)
    only_b = CompareLineOutSerializer(many=True)
    both = CompareBothLineOutSerializer(many=True)


class DeckCompareOutSerializer(serializers.Serializer):
    a = DeckOutSerializer()
    b = DeckOutSerializer()
    sections = serializers.DictField(child=CompareSectionOutSerializer())


def deck_id_param(request: Request, name: str) -> int:
    raw = request.query_params.get(name, "").strip()
    if not raw.isdigit() or not 0 < int(raw) <= MAX_ID:
        raise exceptions.ValidationError({name: gettext("a deck id (a positive whole number)")})
    return int(raw)


class DeckCompareView(GenericAPIView):
    """Decks the caller can read only (own, public, unlisted by link); another's private deck answers 404."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("a", int, required=True), OpenApiParameter("b", int, required=True)],
        responses=DeckCompareOutSerializer,
    )
    def get(self, request: Request) -> Response:
        a, b = deck_id_param(request, "a"), deck_id_param(request, "b")
        first, second, sections = deck_compare(a=a, b=b, user=request.user)
        return Response(DeckCompareOutSerializer({"a": first, "b": second, "sections": sections}).data)
