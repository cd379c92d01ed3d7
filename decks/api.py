"""REST API for decks: CRUD, versions (diff, restore), copy, import and export.

Reading follows the deck's visibility (private decks answer 404 to others); only the owner writes (403).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language, gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
)
from rest_framework import exceptions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.generics import GenericAPIView
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from cards.labels import game_title
from cards.models import Card, Game
from config.api import ApiErrorOutSerializer, StateConflict, Unprocessable
from config.fields import StrictCharField, StrictSlugField
from config.pagination import StrictPageNumberPagination, strict_query_bool
from rules.api import ViolationSerializer
from rules.models import BanList

from . import ownership, selectors, services
from .deckhash import deck_hash_of
from .fit import CARD_IDS, card_ids_param, date_param
from .formats import FORMATS, MAX_BYTES, MAX_COUNT
from .models import Deck, DeckVersion
from .tags import MAX_TAG_LENGTH, MAX_TAGS_PER_LINE, deck_line_tags

# --- serializers ----------------------------------------------------------------------------------


# Ids are 64-bit database keys; a larger number is no id (and SQLite's driver cannot even bind it).
MAX_ID = 2**63 - 1


class EntryInSerializer(serializers.Serializer):
    card = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    count = serializers.IntegerField(min_value=1, max_value=MAX_COUNT)
    tags = serializers.ListField(
        child=StrictCharField(max_length=MAX_TAG_LENGTH, allow_blank=True, trim_whitespace=True),
        required=False,
        max_length=MAX_TAGS_PER_LINE,
        help_text="the player's own labels on this line; when any line of the request carries `tags`, "
        "every line's tags are replaced (a line without them has none), else lines keep theirs",
    )


class DeckInSerializer(serializers.Serializer):
    game = StrictSlugField(required=False)
    format_slug = StrictSlugField(required=False, allow_blank=True)
    name = StrictCharField(max_length=200, required=False)
    notes = StrictCharField(required=False, allow_blank=True, max_length=20_000)
    visibility = serializers.ChoiceField(choices=Deck.Visibility.choices, required=False)
    banlist = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID)
    on_date = serializers.DateField(required=False, allow_null=True)
    hero = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID)
    co_heroes = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        required=False,
        max_length=3,
        help_text="heroes beside `hero` in its slot: a Commander deck's partner or background",
    )
    sections = serializers.DictField(
        child=EntryInSerializer(many=True),
        required=False,
        help_text="section slug → lines; `maybe` (the maybeboard) is accepted in every format and never validated",
    )
    message = StrictCharField(required=False, allow_blank=True, max_length=200)
    folder = StrictCharField(required=False, allow_blank=True, max_length=80)


class DeckCreateInSerializer(DeckInSerializer):
    """A new deck names its game and itself; an edit may leave both out."""

    game = StrictSlugField()
    name = StrictCharField(max_length=200)


class DeckUpdateInSerializer(DeckInSerializer):
    base_version = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_ID,
        help_text="the deck's current_version this edit started from; a stale one is refused with 409 "
        "(the builder always sends it; without it the save is not checked)",
    )


class DeckCopyInSerializer(serializers.Serializer):
    name = StrictCharField(max_length=200, required=False, allow_blank=True)


# --- output: the serializers below produce the responses (and the schema documents them) ------------


class CardBriefOutSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    external_id = StrictCharField()
    name = StrictCharField(source="__str__")
    card_type = StrictCharField()
    level = serializers.IntegerField(allow_null=True)
    cost = serializers.IntegerField(allow_null=True)


class HeroOutSerializer(CardBriefOutSerializer):
    attributes = serializers.JSONField()


class HoldingOutSerializer(serializers.Serializer):
    deck = serializers.IntegerField()
    name = StrictCharField()
    count = serializers.IntegerField()


class DeckEntryOutSerializer(serializers.Serializer):
    """One line of a section: the card's brief fields plus its id again as ``card`` and the count."""

    id = serializers.IntegerField(source="card.pk")
    external_id = StrictCharField(source="card.external_id")
    name = StrictCharField(source="card.__str__")
    card_type = StrictCharField(source="card.card_type")
    level = serializers.IntegerField(source="card.level", allow_null=True)
    cost = serializers.IntegerField(source="card.cost", allow_null=True)
    card = serializers.IntegerField(source="card.pk")
    count = serializers.IntegerField()
    tags = serializers.ListField(child=StrictCharField(), required=False, default=list)
    owned = serializers.IntegerField(
        allow_null=True,
        help_text="copies of the reader's collection free for this line (null: not signed in)",
    )
    missing = serializers.IntegerField(allow_null=True, help_text="copies the reader lacks for this line")
    held_by = HoldingOutSerializer(
        many=True, help_text="the reader's built decks holding the copies this line lacks"
    )


class BanListBriefOutSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    name = StrictCharField()
    effective_date = serializers.DateField()


class DeckOutSerializer(serializers.Serializer):
    """A deck as lists show it (no cards)."""

    id = serializers.IntegerField(source="pk")
    name = StrictCharField()
    owner = StrictCharField(source="owner.username")
    game = StrictSlugField(source="game.slug")
    format_slug = StrictSlugField()
    banlist = BanListBriefOutSerializer(allow_null=True)
    on_date = serializers.DateField(allow_null=True)
    visibility = serializers.ChoiceField(choices=Deck.Visibility.choices)
    hero = HeroOutSerializer(allow_null=True)
    current_version = serializers.IntegerField()
    folder = StrictCharField()
    copied_from = serializers.IntegerField(source="copied_from_id", allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class DeckDetailOutSerializer(DeckOutSerializer):
    """A deck with its notes and cards; pass ``context={"sections": …}`` when they are already loaded."""

    notes = StrictCharField()
    co_heroes = serializers.SerializerMethodField()
    sections = serializers.SerializerMethodField()
    hash = serializers.SerializerMethodField(
        help_text="the deck hash judges compare (Cockatrice's for Magic)"
    )
    buildable = serializers.SerializerMethodField(
        help_text="the reader's collection has every copy free (null: not signed in)"
    )
    built = serializers.SerializerMethodField(help_text="the owner marked it built (null for other readers)")

    def _sections(self, deck: Deck) -> selectors.Sections:
        if self.context.get("sections") is None:
            self.context["sections"] = selectors.deck_sections(deck)
        return self.context["sections"]

    def _ownership(self, deck: Deck) -> ownership.DeckOwnership | None:
        if "ownership" not in self.context:
            self.context["ownership"] = ownership.deck_ownership(
                deck=deck, user=self.context.get("user"), sections=self._sections(deck)
            )
        return self.context["ownership"]

    @extend_schema_field(StrictCharField())
    def get_hash(self, deck: Deck) -> str:
        return deck_hash_of(game_slug=deck.game.slug, sections=self._sections(deck))

    @extend_schema_field(serializers.BooleanField(allow_null=True))
    def get_buildable(self, deck: Deck) -> bool | None:
        owned = self._ownership(deck)
        return owned.buildable if owned is not None else None

    @extend_schema_field(serializers.BooleanField(allow_null=True))
    def get_built(self, deck: Deck) -> bool | None:
        owned = self._ownership(deck)
        return owned.built if owned is not None and deck.editable_by(self.context.get("user")) else None

    @extend_schema_field(HeroOutSerializer(many=True))
    def get_co_heroes(self, deck: Deck) -> list[dict[str, Any]]:
        return HeroOutSerializer(list(deck.co_heroes.all()) if deck.hero_id else [], many=True).data

    @extend_schema_field(serializers.DictField(child=DeckEntryOutSerializer(many=True)))
    def get_sections(self, deck: Deck) -> dict[str, Any]:
        sections = self._sections(deck)
        owned = self._ownership(deck)
        tags = deck_line_tags(deck) if deck.pk else {}

        def line(slug: str, card: Card, count: int) -> dict[str, Any]:
            have = owned.lines.get((slug, card.pk)) if owned is not None else None
            return {
                "card": card,
                "count": count,
                "tags": tags.get(slug, {}).get(str(card.pk), []),
                "owned": have.owned if have else None,
                "missing": have.missing if have else None,
                "held_by": [{"deck": d, "name": n, "count": c} for d, n, c in have.held_by] if have else [],
            }

        return {
            slug: DeckEntryOutSerializer([line(slug, card, count) for card, count in lines], many=True).data
            for slug, lines in sections.items()
        }


@extend_schema_serializer(many=False)  # a page object, though it answers the viewset's list action
class DeckPageOutSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = DeckOutSerializer(many=True)


class DeckConflictOutSerializer(serializers.Serializer):
    detail = StrictCharField()
    current_version = serializers.IntegerField(source="deck.current_version")
    deck = DeckDetailOutSerializer()


class VersionOutSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    created_by = StrictCharField(source="created_by.username", allow_null=True)
    message = StrictCharField()
    format_slug = StrictCharField()
    snapshot = serializers.JSONField()


class VersionDiffOutSerializer(VersionOutSerializer):
    """A version, with its difference to ``against`` (by default the version before it)."""

    against = serializers.SerializerMethodField()
    diff = serializers.SerializerMethodField()

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_against(self, version: DeckVersion) -> int | None:
        return self.context.get("against")

    @extend_schema_field(serializers.JSONField(allow_null=True))
    def get_diff(self, version: DeckVersion) -> Any:
        return self.context.get("diff")


class DeckReportOutSerializer(serializers.Serializer):
    legal = serializers.BooleanField(allow_null=True, help_text="null when the deck could not be judged")
    violations = ViolationSerializer(many=True)
    warnings = ViolationSerializer(many=True, required=False)


class SkippedLineOutSerializer(serializers.Serializer):
    """A line read and left out of the deck on purpose (not an error)."""

    line = serializers.IntegerField()
    text = StrictCharField()
    reason = serializers.ChoiceField(["group", "metadata", "layout", "comment"])


class DeckImportOutSerializer(serializers.Serializer):
    deck = DeckDetailOutSerializer()
    errors = serializers.ListField(child=StrictCharField())
    unknown = serializers.ListField(
        child=serializers.JSONField(),
        help_text="lines that became no card: ref, section, line, count, reason, key, params, message, "
        "suggestion (the one card an unknown name is clearly a misspelling of, else empty)",
    )
    skipped = SkippedLineOutSerializer(many=True, help_text="group headings, metadata and comments left out")


class DeckImportRefusedOutSerializer(serializers.Serializer):
    """A refused import lists its problems; a malformed request gets the usual field errors instead."""

    detail = StrictCharField(required=False)
    deck = serializers.IntegerField(allow_null=True, required=False)
    errors = serializers.ListField(child=StrictCharField(), required=False)
    unknown = serializers.ListField(child=serializers.JSONField(), required=False)
    skipped = SkippedLineOutSerializer(many=True, required=False)


def deck_json(deck: Deck, *, sections: selectors.Sections | None = None, user: Any = None) -> dict[str, Any]:
    """The deck as the API answers it (also the builder page's initial data); ``user``: the reader, whose
    collection says what each line owns."""
    return DeckDetailOutSerializer(deck, context={"sections": sections, "user": user}).data


def cards_for(game: Game, data: dict[str, Any]) -> tuple[selectors.Sections | None, Card | None, bool]:
    """Turn {"sections": {slug: [{card, count}]}, "hero": id} into Card rows of the game in one query."""
    raw_sections = data.get("sections")
    ids = {entry["card"] for entries in (raw_sections or {}).values() for entry in entries}
    hero_given = "hero" in data
    hero_id = data["hero"] if hero_given else None
    cards = Card.objects.filter(game=game).in_bulk(ids | {hero_id} if hero_id else ids)
    # Each problem under the key of the field that holds it, the game by its display name (no "a everseal").
    lang = get_language() or "en"
    errors: dict[str, list[str]] = {}
    missing = sorted(ids - set(cards))
    if missing:
        errors["sections"] = [
            gettext("card id %(id)s is not a card of %(game)s") % {"id": pk, "game": game_title(game, lang)}
            for pk in missing[:20]
        ]
    if hero_id and hero_id not in cards:
        errors["hero"] = [
            gettext("card id %(id)s is not a card of %(game)s")
            % {"id": hero_id, "game": game_title(game, lang)}
        ]
    if errors:
        # Ids are well-formed; they name no card of this game (README "Errors": 422).
        raise Unprocessable(errors)
    sections = (
        {slug: [(cards[e["card"]], e["count"]) for e in entries] for slug, entries in raw_sections.items()}
        if raw_sections is not None
        else None
    )
    hero = cards.get(hero_id) if hero_id else None
    return sections, hero, hero_given


def tags_for(data: dict[str, Any]) -> dict[tuple[str, int], list[str]] | None:
    """The request's line tags, or None when no line carries ``tags`` (the lines then keep theirs)."""
    raw_sections = data.get("sections") or {}
    if not any("tags" in entry for entries in raw_sections.values() for entry in entries):
        return None
    tags: dict[tuple[str, int], list[str]] = {}
    for slug, entries in raw_sections.items():
        for entry in entries:
            tags.setdefault((slug, entry["card"]), []).extend(entry.get("tags", []))
    return tags


def co_heroes_for(game: Game, data: dict[str, Any]) -> list[Card] | None:
    """The ``co_heroes`` ids as Card rows of the game (None when the request does not give them)."""
    if "co_heroes" not in data:
        return None
    ids = list(dict.fromkeys(data["co_heroes"]))
    cards = Card.objects.filter(game=game).in_bulk(ids)
    missing = [pk for pk in ids if pk not in cards]
    if missing:
        lang = get_language() or "en"
        # Well-formed ids naming no card of this game, as for ``hero`` (README "Errors": 422).
        raise Unprocessable(
            {"co_heroes": [gettext("card id %(id)s is not a card of %(game)s")
                           % {"id": pk, "game": game_title(game, lang)} for pk in missing]}
        )  # fmt: skip
    return [cards[pk] for pk in ids]


def banlist_for(game: Game, data: dict[str, Any]) -> BanList | None:
    if not data.get("banlist"):
        return None
    banlist = BanList.objects.filter(game=game, pk=data["banlist"]).first()
    if banlist is None:  # a well-formed id naming no ban list of this game: 422 (README "Errors")
        raise Unprocessable({"banlist": [f"ban list {data['banlist']} is not a ban list of {game.name}"]})
    return banlist


def _service_call(function: Any, *, unprocessable: bool = False, **kwargs: Any) -> Any:
    """Call a service; ``unprocessable``: its refusals are about what a schema-valid body names (a format
    or hero this game does not have), so 422 rather than 400 (README "Errors")."""
    try:
        return function(**kwargs)
    except DjangoPermissionDenied as error:
        raise exceptions.PermissionDenied(str(error)) from None
    except (StateConflict, Unprocessable):
        raise  # config.api's handler answers them 409 / 422
    except DjangoValidationError as error:
        if unprocessable:
            raise Unprocessable(error) from None
        detail = error.message_dict if hasattr(error, "error_dict") else error.messages
        raise exceptions.ValidationError(detail) from None


# --- views ----------------------------------------------------------------------------------------


class DeckViewSet(viewsets.ViewSet):
    serializer_class = DeckOutSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]
    # Numeric ids only, so /api/decks/validate/ and /api/decks/import/ never look like a deck.
    lookup_value_regex = r"\d+"

    def _readable(self, request: Request, pk: str) -> Deck:
        return selectors.deck_readable(pk=int(pk), user=request.user)

    def _editable(self, request: Request, pk: str) -> Deck:
        deck = self._readable(request, pk)
        if not deck.editable_by(request.user):
            raise exceptions.PermissionDenied("only the deck's owner may change it")
        return deck

    @extend_schema(
        parameters=[
            OpenApiParameter("game", str),
            OpenApiParameter("mine", bool),
            OpenApiParameter("folder", str, description="the caller's decks in this folder (empty: in none)"),
            OpenApiParameter("page", int, description="page number, from 1"),
        ],
        responses=DeckPageOutSerializer,
        operation_id="decks_list",
    )
    def list(self, request: Request) -> Response:
        decks = selectors.decks_listed_for(request.user)
        if request.query_params.get("game"):
            decks = decks.filter(game__slug=request.query_params["game"])
        if strict_query_bool(request, "mine"):
            decks = decks.filter(owner=request.user) if request.user.is_authenticated else decks.none()
        if "folder" in request.query_params:
            # Folders are the owner's own shelves: filtering by one lists only the caller's decks.
            owner = request.user if request.user.is_authenticated else None
            decks = (
                decks.filter(owner=owner, folder=request.query_params["folder"]) if owner else decks.none()
            )
        paginator = StrictPageNumberPagination()
        page = paginator.paginate_queryset(decks, request, view=self) or []
        body = {
            "count": paginator.page.paginator.count,
            "next": paginator.get_next_link(),
            "previous": paginator.get_previous_link(),
            "results": page,
        }
        return Response(DeckPageOutSerializer(body).data)

    @extend_schema(
        request=DeckCreateInSerializer,
        responses={201: DeckDetailOutSerializer, 422: ApiErrorOutSerializer},
    )
    def create(self, request: Request) -> Response:
        data = _valid(DeckCreateInSerializer, request.data)
        game = Game.objects.filter(slug=data["game"]).first()
        if game is None:
            raise exceptions.ValidationError(
                {"game": gettext("unknown game “%(game)s”") % {"game": data["game"]}}
            )
        sections, hero, _ = cards_for(game, data)
        deck = _service_call(
            services.deck_create,
            unprocessable=True,
            owner=request.user,
            game=game,
            name=data["name"],
            format_slug=data.get("format_slug", ""),
            sections=sections or {},
            hero=hero,
            co_heroes=co_heroes_for(game, data) or [],
            notes=data.get("notes", ""),
            visibility=data.get("visibility", Deck.Visibility.PRIVATE),
            banlist=banlist_for(game, data),
            on_date=data.get("on_date"),
            message=data.get("message", ""),
            tags=tags_for(data),
            folder=data.get("folder", ""),
        )
        return Response(deck_json(deck), status=status.HTTP_201_CREATED)

    @extend_schema(responses=DeckDetailOutSerializer)
    def retrieve(self, request: Request, pk: str) -> Response:
        return Response(deck_json(self._readable(request, pk), user=request.user))

    @extend_schema(
        request=DeckUpdateInSerializer,
        responses={200: DeckDetailOutSerializer, 409: DeckConflictOutSerializer, 422: ApiErrorOutSerializer},
    )
    def update(self, request: Request, pk: str) -> Response:
        deck = self._editable(request, pk)
        data = _valid(DeckUpdateInSerializer, request.data)
        if data.get("game") and data["game"] != deck.game.slug:
            raise Unprocessable({"game": gettext("a deck's game cannot change; copy it instead")})
        sections, hero, hero_given = cards_for(deck.game, data)
        kwargs: dict[str, Any] = {
            key: data[key]
            for key in ("name", "notes", "visibility", "format_slug", "on_date", "folder")
            if key in data
        }
        kwargs["tags"] = tags_for(data)
        if "banlist" in data:
            kwargs["banlist"] = banlist_for(deck.game, data)
        if hero_given:
            kwargs["hero"] = hero
        co_heroes = co_heroes_for(deck.game, data)
        if co_heroes is not None:
            kwargs["co_heroes"] = co_heroes
        try:
            deck = _service_call(
                services.deck_update, unprocessable=True, deck=deck, by=request.user, sections=sections,
                message=data.get("message", ""), base_version=data.get("base_version"), **kwargs,
            )  # fmt: skip
        except services.DeckVersionConflict as conflict:
            body = {"detail": str(conflict), "deck": conflict.deck}
            return Response(DeckConflictOutSerializer(body).data, status=status.HTTP_409_CONFLICT)
        return Response(deck_json(deck))

    @extend_schema(
        request=DeckUpdateInSerializer,
        responses={200: DeckDetailOutSerializer, 409: DeckConflictOutSerializer, 422: ApiErrorOutSerializer},
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        return self.update(request, pk)

    def destroy(self, request: Request, pk: str) -> Response:
        deck = self._editable(request, pk)
        _service_call(services.deck_delete, deck=deck, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses=VersionOutSerializer(many=True), operation_id="decks_versions_list")
    @action(detail=True, methods=["get"])
    def versions(self, request: Request, pk: str) -> Response:
        deck = self._readable(request, pk)
        return Response(VersionOutSerializer(selectors.deck_versions(deck), many=True).data)

    @extend_schema(
        parameters=[OpenApiParameter("against", int, description="diff against this version")],
        responses=VersionDiffOutSerializer,
    )
    @action(detail=True, methods=["get"], url_path=r"versions/(?P<number>\d+)")
    def version(self, request: Request, pk: str, number: str) -> Response:
        deck = self._readable(request, pk)
        version = get_object_or_404(DeckVersion, deck=deck, number=int(number))
        raw_against = request.query_params.get("against")
        try:
            against = (
                int(raw_against) if raw_against else (version.number - 1 if version.number > 1 else None)
            )
            diff = (
                selectors.deck_version_diff(deck=deck, old=against, new=version.number) if against else None
            )
        except ValueError:
            raise exceptions.ValidationError({"against": "must be a version number of this deck"}) from None
        context = {"against": against, "diff": diff}
        return Response(VersionDiffOutSerializer(version, context=context).data)

    @extend_schema(request=None, responses=DeckDetailOutSerializer)
    @action(detail=True, methods=["post"], url_path=r"versions/(?P<number>\d+)/restore")
    def restore(self, request: Request, pk: str, number: str) -> Response:
        deck = self._editable(request, pk)
        # The version is part of the path: one this deck never had is a 404, like a missing deck.
        if not deck.versions.filter(number=int(number)).exists():
            raise exceptions.NotFound({"version": f"deck {deck.pk} has no version {number}"})
        deck = _service_call(services.deck_restore_version, deck=deck, number=int(number), by=request.user)
        return Response(deck_json(deck))

    @extend_schema(request=DeckCopyInSerializer, responses={201: DeckDetailOutSerializer})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def copy(self, request: Request, pk: str) -> Response:
        deck = self._readable(request, pk)
        data = _valid(DeckCopyInSerializer, request.data)
        copy = _service_call(services.deck_copy, deck=deck, by=request.user, name=data.get("name") or None)
        return Response(deck_json(copy), status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[
            OpenApiParameter("fmt", str, enum=[*services.EXPORT_TYPES]),
            OpenApiParameter("player", str),
            OpenApiParameter("event", str),
            OpenApiParameter("player_id", str, description="the registration sheet's player ID (Konami's)"),
            OpenApiParameter("paper", str, enum=["a4", "letter"], description="fmt=cards: the page size"),
            OpenApiParameter(
                "download", str, enum=["0", "1"], description="0: shown inline, not as a download"
            ),
        ],
        responses={
            (200, media_type): OpenApiTypes.OBJECT
            if media_type == "application/json"
            else OpenApiTypes.BINARY
            for media_type in sorted(
                {content_type.split(";")[0] for content_type, _ in services.EXPORT_TYPES.values()}
            )
        }
        | {422: ApiErrorOutSerializer},
    )
    @action(detail=True, methods=["get"])
    def export(self, request: Request, pk: str) -> HttpResponse:
        deck = self._readable(request, pk)
        exported = _service_call(
            services.deck_export,
            unprocessable=True,  # the format cannot write this deck (a card without a printing it needs)
            deck=deck,
            fmt=request.query_params.get("fmt", "json"),
            player_name=request.query_params.get("player", "")[:100],
            event=request.query_params.get("event", "")[:100],
            player_id=request.query_params.get("player_id", "")[:120],
            paper=request.query_params.get("paper", "a4"),
        )
        return export_response(exported, download=request.query_params.get("download") != "0")

    @extend_schema(responses=DeckReportOutSerializer)
    @action(detail=True, methods=["get"])
    def report(self, request: Request, pk: str) -> Response:
        deck = self._readable(request, pk)
        lang = get_language() or "en"
        report = selectors.deck_report(deck=deck, lang=lang) or {
            "legal": None,
            "violations": [],
            "warnings": [],
        }
        return Response(DeckReportOutSerializer(report).data)


def export_response(exported: services.ExportedDeck, *, download: bool = True) -> HttpResponse:
    response = HttpResponse(exported.content, content_type=exported.content_type)
    disposition = "attachment" if download else "inline"
    response["Content-Disposition"] = f'{disposition}; filename="{exported.filename}"'
    return response


def _valid(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class DeckImportInSerializer(serializers.Serializer):
    game = StrictSlugField()
    format_slug = StrictSlugField(required=False, allow_blank=True)
    fmt = serializers.ChoiceField(choices=FORMATS, required=False, allow_blank=True)
    name = StrictCharField(max_length=200, required=False, allow_blank=True)
    visibility = serializers.ChoiceField(choices=Deck.Visibility.choices, required=False)
    data = StrictCharField(required=False, max_length=MAX_BYTES, trim_whitespace=False)
    # An empty file is a list with nothing to read: refused by the import (422), like an empty paste.
    file = serializers.FileField(required=False, allow_empty_file=True)
    allow_unknown = serializers.BooleanField(required=False, default=False)
    at_least_one_of = ("data", "file")  # the file wins when both come


class DeckImportView(GenericAPIView):
    """Import a deck list (paste in ``data`` or upload ``file``). A list this game cannot use (unknown
    cards, lines that are no card, a format the game does not have) is refused with every problem listed
    (422) unless ``allow_unknown`` is true for the unknown cards; then the deck is created without them."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]  # the schema documents multipart only (a file upload)
    serializer_class = DeckImportInSerializer

    @extend_schema(
        request=DeckImportInSerializer,
        responses={201: DeckImportOutSerializer, 422: DeckImportRefusedOutSerializer},
    )
    def post(self, request: Request) -> Response:
        data = _valid(DeckImportInSerializer, request.data)
        game = Game.objects.filter(slug=data["game"]).first()
        if game is None:
            raise exceptions.ValidationError(
                {"game": gettext("unknown game “%(game)s”") % {"game": data["game"]}}
            )
        upload = data.get("file")
        filename = None
        if upload is not None:
            if upload.size > MAX_BYTES:
                raise exceptions.ValidationError(
                    {"file": gettext("the file is larger than %(limit)s bytes") % {"limit": MAX_BYTES}}
                )
            content: str | bytes = upload.read()
            filename = upload.name
        else:
            # No readable file part (an empty one, or one the multipart parser could not read) and no paste:
            # a well-formed body with nothing to read, refused by the import like an empty list (422).
            content = data.get("data", "")
        try:
            result = services.deck_import(
                owner=request.user,
                game=game,
                data=content,
                fmt=data.get("fmt") or None,
                filename=filename,
                format_slug=data.get("format_slug") or None,
                name=data.get("name") or None,
                visibility=data.get("visibility", Deck.Visibility.PRIVATE),
                allow_unknown=data["allow_unknown"],
            )
        except services.DeckImportError as error:
            body = {"detail": gettext("the deck was not imported"), **error.result.to_dict()}
            return Response(
                DeckImportRefusedOutSerializer(body).data, status=status.HTTP_422_UNPROCESSABLE_ENTITY
            )
        except DjangoValidationError as error:
            # The request is well-formed; what it names does not fit this game (README "Errors": 422).
            raise Unprocessable(error) from None
        assert result.deck is not None
        body = {**result.to_dict(), "deck": result.deck}
        return Response(DeckImportOutSerializer(body).data, status=status.HTTP_201_CREATED)


class BanListStatusOutSerializer(serializers.Serializer):
    banlist = StrictCharField(allow_null=True)
    statuses = serializers.DictField(child=serializers.ChoiceField(["forbidden", "limited", "semi-limited"]))


class BanListStatusView(GenericAPIView):
    """Ban-list badges for the builder: {"statuses": {card id: "forbidden"|"limited"|"semi-limited"}}."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("game", str, required=True),
            OpenApiParameter("banlist", str, description="ban list id or name"),
            OpenApiParameter("format_slug", str, description="without banlist: the format's list in effect"),
            OpenApiParameter("date", str),
            OpenApiParameter(
                "cards",
                {"type": "string", "pattern": f"^({CARD_IDS})?$"},
                description="comma-separated card ids",
            ),
        ],
        responses=BanListStatusOutSerializer,
    )
    def get(self, request: Request) -> Response:
        game = Game.objects.filter(slug=request.query_params.get("game", "")).first()
        if game is None:
            raise exceptions.ValidationError({"game": gettext("unknown game")})
        ids = card_ids_param(request.query_params.get("cards", ""), required=False)[:500]
        on_date = date_param(request.query_params.get("date"))
        # No list chosen: the format's list in effect on the date, the one validation applies too.
        banlist = selectors.banlist_for_badges(
            game=game,
            name=request.query_params.get("banlist", ""),
            format_slug=request.query_params.get("format_slug", ""),
            on_date=on_date,
        )
        cards = list(Card.objects.filter(game=game, pk__in=ids))
        statuses = selectors.banlist_statuses(banlist=banlist, cards=cards)
        body = {"banlist": str(banlist) if banlist else None, "statuses": statuses}
        return Response(BanListStatusOutSerializer(body).data)
