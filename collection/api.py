"""/api/collection/...: import, read, edit and export a collection; where a card's copies are; built decks."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpResponse
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import exceptions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from cards.models import Card, Game
from config.api import ApiErrorOutSerializer, StateConflict, Unprocessable
from config.fields import StrictCharField, StrictSlugField
from config.pagination import StrictPageNumberPagination
from decks.selectors import deck_readable, deck_sections
from games.registry import default_registry

from . import exporting, selectors, services

MAX_ID = 2**63 - 1
# Collections are of the games played with decks (a game without decks has no cards to own): the rule sets
# say which, so the schema lists exactly the games _game() takes.
DECK_GAMES = sorted(slug for slug, rules in default_registry().games.items() if rules.has_decks)
GAME = OpenApiParameter("game", str, required=True, enum=DECK_GAMES)


def _game(slug: str | None) -> Game:
    game = Game.objects.filter(slug=slug or "", has_decks=True).first()
    if game is None:
        raise exceptions.ValidationError({"game": gettext("unknown game “%(game)s”") % {"game": slug or ""}})
    return game


def _card(raw: Any) -> Card:
    try:
        pk = int(raw)
        if not 0 < pk <= MAX_ID:
            raise ValueError
    except (TypeError, ValueError):
        raise exceptions.ValidationError({"card": gettext("a card id (a number)")}) from None
    card = Card.objects.filter(pk=pk).first()
    if card is None:
        raise exceptions.NotFound(gettext("no card has the id %(id)s") % {"id": pk})
    return card


def _valid(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _call(function: Any, **kwargs: Any) -> Any:
    try:
        return function(**kwargs)
    except DjangoPermissionDenied as error:
        raise exceptions.PermissionDenied(str(error)) from None
    except (StateConflict, Unprocessable):
        raise  # config.api's handler answers them 409 / 422
    except DjangoValidationError as error:
        detail = error.message_dict if hasattr(error, "error_dict") else error.messages
        raise exceptions.ValidationError(detail) from None


class BuiltDeckCopiesOutSerializer(serializers.Serializer):
    deck = serializers.IntegerField(source="deck_id")
    name = StrictCharField()
    count = serializers.IntegerField()


class CollectionImportInSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=DECK_GAMES)
    # An empty file has no collection header: refused by the import (422).
    file = serializers.FileField(required=False, allow_empty_file=True)
    data = StrictCharField(required=False, trim_whitespace=False, max_length=services.MAX_BYTES)
    mode = serializers.ChoiceField(choices=services.IMPORT_MODES, default="replace")
    at_least_one_of = ("file", "data")  # the file wins when both come


class UnknownLineOutSerializer(serializers.Serializer):
    line = serializers.IntegerField()
    text = StrictCharField()
    reason = serializers.ChoiceField(["unknown_card", "bad_count", "no_name"])
    message = StrictCharField()


class CollectionImportOutSerializer(serializers.Serializer):
    layout = serializers.ChoiceField(["moxfield", "deckbox", "manabox", "dragonshield", "deckhall"])
    rows_read = serializers.IntegerField(help_text="rows that became cards of the collection")
    copies_read = serializers.IntegerField()
    cards = serializers.IntegerField(help_text="distinct cards and printings read")
    unknown = UnknownLineOutSerializer(many=True)


class CollectionImportView(GenericAPIView):
    """Import a collection CSV as Moxfield, Deckbox, ManaBox, Dragon Shield or Deckhall write it (recognised
    by its header). ``mode=replace`` (default) makes the file the game's whole collection."""

    permission_classes = [IsAuthenticated]
    serializer_class = CollectionImportInSerializer
    parser_classes = [MultiPartParser]  # the schema documents multipart only (a file upload)

    @extend_schema(
        request=CollectionImportInSerializer,
        responses={200: CollectionImportOutSerializer, 422: ApiErrorOutSerializer},
    )
    def post(self, request: Request) -> Response:
        data = _valid(CollectionImportInSerializer, request.data)
        game = _game(data["game"])
        upload = data.get("file")
        if upload is not None:
            if upload.size > services.MAX_BYTES:
                raise exceptions.ValidationError(
                    {
                        "file": gettext("the file is larger than %(limit)s bytes")
                        % {"limit": services.MAX_BYTES}
                    }
                )
            content: bytes | str = upload.read()
        else:
            # No readable file part (an empty one, or one the multipart parser could not read) and no paste:
            # a well-formed body with nothing to read, refused by the import like an empty file (422).
            content = data.get("data", "")
        result = _call(
            services.collection_import, owner=request.user, game=game, data=content, mode=data["mode"]
        )
        return Response(CollectionImportOutSerializer(result).data)


class CollectionRowOutSerializer(serializers.Serializer):
    card = serializers.IntegerField(source="card_id")
    external_id = StrictCharField(source="card.external_id")
    name = StrictCharField(source="card.__str__")
    identity = StrictCharField(source="card.identity")
    count = serializers.IntegerField()
    set_code = StrictCharField()
    number = StrictCharField()
    foil = serializers.BooleanField()
    condition = StrictCharField()
    language = StrictCharField()
    held_by = serializers.SerializerMethodField(help_text="built decks holding copies of this card")

    @extend_schema_field(BuiltDeckCopiesOutSerializer(many=True))
    def get_held_by(self, entry: Any) -> list[dict[str, Any]]:
        have = self.context["holdings"]
        key = entry.card_id if have.track else entry.card.identity
        # Plain dicts in BuiltDeckCopiesOutSerializer's shape: a nested serializer per row costs more than the row.
        return [{"deck": h.deck_id, "name": h.name, "count": h.count} for h in have.held.get(key, [])]

    def to_representation(self, entry: Any) -> dict[str, Any]:
        """The fields above, read directly: DRF's field-by-field walk was half of a 100-row page's time.
        (tests/collection checks it answers exactly what the generic walk answers.)"""
        card = entry.card
        return {
            "card": entry.card_id, "external_id": card.external_id, "name": str(card), "identity": card.identity,
            "count": entry.count, "set_code": entry.set_code, "number": entry.number, "foil": bool(entry.foil),
            "condition": entry.condition, "language": entry.language, "held_by": self.get_held_by(entry),
        }  # fmt: skip


class CollectionPageOutSerializer(serializers.Serializer):
    game = StrictSlugField()
    track_printings = serializers.BooleanField()
    rows = serializers.IntegerField(help_text="rows in the whole collection of the game")
    copies = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = CollectionRowOutSerializer(many=True)


class CollectionCardInSerializer(serializers.Serializer):
    card = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    count = serializers.IntegerField(min_value=0, max_value=9_999)
    set_code = StrictCharField(max_length=40, required=False, allow_blank=True, default="")
    number = StrictCharField(max_length=40, required=False, allow_blank=True, default="")
    foil = serializers.BooleanField(required=False, default=False)


class CollectionPagination(StrictPageNumberPagination):
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 1000


class CollectionView(GenericAPIView):
    """GET: the reader's collection of a game, a page at a time (``q`` searches names); POST: set a card's
    copies by hand (0 removes them)."""

    permission_classes = [IsAuthenticated]
    serializer_class = CollectionCardInSerializer

    @extend_schema(
        parameters=[GAME, OpenApiParameter("q", str),
                    OpenApiParameter("page", int), OpenApiParameter("page_size", int)],
        responses=CollectionPageOutSerializer,
    )  # fmt: skip
    def get(self, request: Request) -> Response:
        game = _game(request.query_params.get("game"))
        have = selectors.holdings(user=request.user, game_id=game.pk)
        ids = selectors.collection_entry_ids(have=have, query=request.query_params.get("q", "")[:100])
        paginator = CollectionPagination()
        page = selectors.collection_entries_by_id(paginator.paginate_queryset(ids, request, view=self) or [])
        totals = selectors.collection_totals(user=request.user, game=game, have=have)
        body = {
            "game": game.slug,
            "track_printings": have.track,
            **totals,
            "next": paginator.get_next_link(),
            "previous": paginator.get_previous_link(),
            "results": page,
        }
        return Response(CollectionPageOutSerializer(body, context={"holdings": have}).data)

    @extend_schema(
        request=CollectionCardInSerializer,
        responses={200: CollectionRowOutSerializer, 204: None, 404: ApiErrorOutSerializer},
    )
    def post(self, request: Request) -> Response:
        data = _valid(CollectionCardInSerializer, request.data)
        card = _card(data.pop("card"))
        entry = _call(services.collection_card_set, owner=request.user, card=card, **data)
        if entry is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        have = selectors.holdings(user=request.user, game_id=card.game_id)
        return Response(CollectionRowOutSerializer(entry, context={"holdings": have}).data)


class CardWhereOutSerializer(serializers.Serializer):
    card = serializers.IntegerField(source="card.pk")
    name = StrictCharField(source="card.__str__")
    identity = StrictCharField(source="card.identity")
    owned = serializers.IntegerField()
    free = serializers.IntegerField(help_text="copies no built deck holds")
    held_by = BuiltDeckCopiesOutSerializer(many=True)


class CardWhereView(GenericAPIView):
    """Which of the reader's built decks hold copies of a card (counted as the game's copy limits count)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter("card", {"type": "integer", "minimum": 1, "maximum": MAX_ID}, required=True)
        ],
        responses={200: CardWhereOutSerializer, 404: ApiErrorOutSerializer},
    )
    def get(self, request: Request) -> Response:
        card = _card(request.query_params.get("card"))
        return Response(CardWhereOutSerializer(selectors.card_where(user=request.user, card=card)).data)


class DeckBuiltInSerializer(serializers.Serializer):
    built = serializers.BooleanField(default=True, help_text="false takes the deck apart")


class MissingLineOutSerializer(serializers.Serializer):
    name = StrictCharField()
    missing = serializers.IntegerField()
    held_by = BuiltDeckCopiesOutSerializer(many=True)


class DeckBuiltOutSerializer(serializers.Serializer):
    deck = serializers.IntegerField()
    built = serializers.BooleanField()
    detail = StrictCharField(required=False)
    missing = MissingLineOutSerializer(many=True, required=False)


class DeckBuiltView(GenericAPIView):
    """Mark a deck built (it then holds its copies of the owner's collection) or, with ``built: false``,
    take it apart. Refused (409: the collection as it is now cannot hold it) with what is missing when the
    owner lacks free copies."""

    permission_classes = [IsAuthenticated]
    serializer_class = DeckBuiltInSerializer

    @extend_schema(
        request=DeckBuiltInSerializer, responses={200: DeckBuiltOutSerializer, 409: DeckBuiltOutSerializer}
    )
    def post(self, request: Request, pk: int) -> Response:
        deck = deck_readable(pk=pk, user=request.user)
        data = _valid(DeckBuiltInSerializer, request.data)
        try:
            built = services.deck_built_set(deck=deck, by=request.user, built=data["built"])
        except services.DeckNotBuildable as refused:
            return Response(
                DeckBuiltOutSerializer(built_refusal(deck.pk, refused)).data,
                status=status.HTTP_409_CONFLICT,
            )
        except DjangoPermissionDenied as error:
            raise exceptions.PermissionDenied(str(error)) from None
        return Response(DeckBuiltOutSerializer({"deck": deck.pk, "built": built}).data)


def built_refusal(deck_id: int, refused: services.DeckNotBuildable) -> dict[str, Any]:
    return {
        "deck": deck_id,
        "built": False,
        "detail": refused.messages[0],
        "missing": [
            {"name": name, "missing": missing,
             "held_by": [{"deck_id": d, "name": n, "count": c} for d, n, c in held]}
            for name, missing, held in refused.lines
        ],
    }  # fmt: skip


class DeckWantsView(GenericAPIView):
    """The reader's wants list for a deck: the copies they lack, as text ("3 Name") or CSV."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("fmt", str, enum=["text", "csv"])],
        responses={(200, "text/plain"): OpenApiTypes.STR, (200, "text/csv"): OpenApiTypes.STR},
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        deck = deck_readable(pk=pk, user=request.user)
        fmt = request.query_params.get("fmt", "text")
        if fmt not in exporting.WANTS_TYPES:
            raise exceptions.ValidationError({"fmt": gettext("fmt is “text” or “csv”")})
        wants = selectors.deck_wants(deck=deck, user=request.user, sections=deck_sections(deck))
        return exporting.wants_response(deck, wants, fmt)


class CollectionExportView(GenericAPIView):
    """The reader's collection of a game as Deckhall CSV (what the import reads back exactly)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[GAME],
        responses={(200, "text/csv"): OpenApiTypes.STR},
    )
    def get(self, request: Request) -> HttpResponse:
        game = _game(request.query_params.get("game"))
        return exporting.collection_response(request.user, game)
