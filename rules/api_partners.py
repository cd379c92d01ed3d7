"""Rules API: the cards that may share the commander slot with a hero (the deck builder's partner picker)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.models import Card, Game
from config.api import ApiErrorOutSerializer
from config.fields import StrictCharField, StrictSlugField

from .api import FormatSlugField
from .partners import partners_for


class PartnersInputSerializer(serializers.Serializer):
    game = StrictSlugField()
    # Not "format": DRF reads ?format= as the renderer to answer with (json, api).
    format_slug = FormatSlugField()
    hero = StrictCharField(max_length=200, help_text="the hero's card database id or external id")
    date = serializers.DateField(required=False, help_text="the format's version in force on this date")


class PartnerOutSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="card.pk")
    external_id = StrictCharField(source="card.external_id")
    name = StrictCharField(source="card.__str__")
    card_type = StrictCharField(source="card.card_type")
    attributes = serializers.JSONField(source="card.attributes")
    rule = StrictCharField(help_text="the rule set's name of the pair rule (Partner, Friends forever…)")


class PartnersOutSerializer(serializers.Serializer):
    pairs = serializers.BooleanField(help_text="whether the format lets two heroes share the slot at all")
    partners = PartnerOutSerializer(many=True)


class PartnersView(APIView):
    """GET ?game=&format_slug=&hero=: every card the format lets stand beside that hero (by name)."""

    permission_classes = [permissions.AllowAny]  # card data and rules only: anyone may ask

    @extend_schema(
        parameters=[PartnersInputSerializer],
        responses={200: PartnersOutSerializer, 422: ApiErrorOutSerializer},
        tags=["rules"],
    )
    def get(self, request: Any) -> Response:
        ser = PartnersInputSerializer(data=request.query_params)
        ser.is_valid(raise_exception=True)
        data = ser.validated_data
        game = Game.objects.filter(slug=data["game"]).first()
        if game is None:
            return Response({"game": [_("unknown game “%(game)s”") % {"game": data["game"]}]}, status=400)
        ref = data["hero"]
        hero = Card.objects.filter(game=game, external_id=ref).first() or (
            Card.objects.filter(game=game, pk=int(ref)).first()
            if ref.isascii() and ref.isdecimal() and len(ref) < 10
            else None
        )
        if hero is None:
            # A well-formed card reference this game has no card for (README "Errors": 422).
            return Response(
                {"hero": [_("no card “%(card)s” in this game") % {"card": ref}]},
                status=status.HTTP_422_UNPROCESSABLE_ENTITY,
            )
        try:
            found = partners_for(
                game=game, format_slug=data["format_slug"], hero=hero, on_date=data.get("date")
            )
        except DjangoValidationError as exc:  # a format this game does not have
            return Response({"detail": "; ".join(exc.messages)}, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
        rows = [{"card": card, "rule": rule} for card, rule in found["partners"]]  # type: ignore[attr-defined]
        return Response(PartnersOutSerializer({"pairs": found["pairs"], "partners": rows}).data)
