"""Where a card may go before it is added: per card, the format's sections whose `accept` rule takes it,
whether it may be the hero, and its ban-list status — what the builder's search results show, so a spell
is never offered "+ Extra deck" and a forbidden card says so before it lands in the deck."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from cards.models import Card, Game
from config.api import ApiErrorOutSerializer, Unprocessable
from config.fields import StrictCharField, StrictSlugField
from games.registry import default_registry
from rules.services import card_info

from . import selectors
from .maybe import MAYBE

MAX_CARDS = 200
# Card ids as the schema states them and the API reads them: digits only, comma-separated, no blanks.
CARD_IDS = r"\d{1,18}(,\d{1,18})*"
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def card_ids_param(raw: str, *, required: bool) -> list[int]:
    if not raw and not required:
        return []
    if not re.fullmatch(CARD_IDS, raw):
        raise exceptions.ValidationError({"cards": gettext("comma-separated card ids")})
    return [int(x) for x in raw.split(",")]


def date_param(raw: str | None) -> date | None:
    """None when not given; exactly YYYY-MM-DD otherwise (format: date), an empty value included."""
    if raw is None:
        return None
    try:
        if not ISO_DATE.fullmatch(raw):
            raise ValueError(raw)
        return date.fromisoformat(raw)
    except ValueError:
        raise exceptions.ValidationError({"date": gettext("a date as YYYY-MM-DD")}) from None


def card_fit(
    *, game: Game, format_slug: str, banlist_name: str, on_date: date | None, cards: list[Card]
) -> dict[str, Any]:
    """{"banlist": name|None, "cards": {id: {"sections": [slug…], "hero": bool, "status": str|None}}}.

    ``maybe`` is in every card's sections: the maybeboard takes anything and is never validated."""
    try:
        fmt = default_registry().format(game.slug, format_slug, on_date or date.today())
    except KeyError:
        # A well-formed slug the game has no format for (README "Errors": 422).
        raise Unprocessable(
            {"format_slug": gettext("%(format)s is not a format of this game") % {"format": format_slug}}
        ) from None
    banlist = selectors.banlist_for_badges(
        game=game, name=banlist_name, format_slug=format_slug, on_date=on_date
    )
    statuses = selectors.banlist_statuses(banlist=banlist, cards=cards)
    out: dict[str, Any] = {}
    for card in cards:
        info = card_info(card)
        buildable = card.deck_buildable and not card.is_token
        sections = [
            sec.slug for sec in fmt.sections if buildable and (sec.accept is None or sec.accept(info))
        ]
        hero = fmt.hero is not None and (fmt.hero.accept is None or fmt.hero.accept(info))
        out[str(card.pk)] = {
            "sections": [*sections, MAYBE],
            "hero": bool(hero),
            "status": statuses.get(card.pk),
        }
    return {"banlist": str(banlist) if banlist else None, "cards": out}


class CardFitOutSerializer(serializers.Serializer):
    class OneCard(serializers.Serializer):
        sections = serializers.ListField(child=StrictSlugField())
        hero = serializers.BooleanField()
        status = serializers.ChoiceField(["forbidden", "limited", "semi-limited"], allow_null=True)

    banlist = StrictCharField(allow_null=True)
    cards = serializers.DictField(child=OneCard())


class CardFitView(GenericAPIView):
    """GET /api/decks/card-fit/?game=&format_slug=&cards=1,2,3[&banlist=&date=]"""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("game", str, required=True),
            OpenApiParameter("format_slug", str, required=True),
            OpenApiParameter(
                "cards",
                {"type": "string", "pattern": f"^\\d{{1,18}}(,\\d{{1,18}}){{0,{MAX_CARDS - 1}}}$"},
                required=True,
                description="comma-separated card ids (≤ 200)",
            ),
            OpenApiParameter("banlist", str, description="ban list id or name; else the format's list"),
            OpenApiParameter("date", str),
        ],
        responses={200: CardFitOutSerializer, 422: ApiErrorOutSerializer},
    )
    def get(self, request: Request) -> Response:
        params = request.query_params
        game = Game.objects.filter(slug=params.get("game", "")).first()
        if game is None:
            raise exceptions.ValidationError({"game": gettext("unknown game")})
        ids = card_ids_param(params.get("cards", ""), required=True)
        if len(ids) > MAX_CARDS:
            raise exceptions.ValidationError({"cards": gettext("at most 200 card ids")})
        on_date = date_param(params.get("date"))
        cards = list(Card.objects.filter(game=game, pk__in=[i for i in ids if 0 < i < 2**63]))
        body = card_fit(
            game=game,
            format_slug=params.get("format_slug", ""),
            banlist_name=params.get("banlist", ""),
            on_date=on_date,
            cards=cards,
        )
        return Response(CardFitOutSerializer(body).data)
