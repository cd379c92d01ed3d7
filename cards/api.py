"""Card API: search, search facets, detail, import (as a job), job progress, export."""

from __future__ import annotations

from datetime import datetime

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import ApiErrorOutSerializer, Unprocessable
from config.fields import StrictCharField, StrictSlugField
from config.pagination import StrictPageNumberPagination

from . import search, selectors, services
from .importers import FORMATS, import_issue_text
from .models import Card, Game, ImportJob, Printing
from .permissions import can_edit_card_database, card_databases_editable_by
from .pictures import MAX_ZIP_BYTES


class CardPagination(StrictPageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class CardSearchPagination(CardPagination):
    """A page of /api/cards/ with the search language's answer: the query in words and "did you mean"."""

    def get_paginated_response_schema(self, schema: dict[str, object]) -> dict[str, object]:
        answer = super().get_paginated_response_schema(schema)
        answer["properties"]["explain"] = {  # type: ignore[index]
            "type": "string",
            "description": "the query in words, in the request language ('' without q)",
        }
        answer["properties"]["suggestions"] = {  # type: ignore[index]
            "type": "array",
            "items": {"type": "string"},
            "description": "did you mean: queries that find cards when this one found none",
        }
        return answer


class PrintingSerializer(serializers.ModelSerializer):
    set = StrictCharField(source="card_set.code")
    set_name = StrictCharField(source="card_set.name")

    class Meta:
        model = Printing
        fields = ["set", "set_name", "code", "rarity", "image_url"]


class CardSerializer(serializers.ModelSerializer):
    game = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Card
        fields = [
            "id",
            "game",
            "external_id",
            "identity",
            "name",
            "card_type",
            "subtypes",
            "level",
            "cost",
            "attributes",
            "text",
            "is_token",
            "deck_buildable",
            "updated_at",
        ]
        read_only_fields = fields

    def to_representation(self, card: Card) -> dict[str, object]:
        # The fields above, written out: DRF's per-field machinery over a page of 50 cards cost more than
        # the search itself (tests/search check the two give the same JSON).
        return {
            "id": card.pk, "game": card.game.slug, "external_id": card.external_id, "identity": card.identity,
            "name": card.name, "card_type": card.card_type, "subtypes": card.subtypes, "level": card.level,
            "cost": card.cost, "attributes": card.attributes, "text": card.text, "is_token": card.is_token,
            "deck_buildable": card.deck_buildable,
            "updated_at": _timestamp(card.updated_at),
        }  # fmt: skip


def _timestamp(value: datetime | None) -> str | None:
    """What DRF's DateTimeField writes (ISO 8601 in the current time zone, "Z" for UTC), without its
    per-call machinery."""
    if value is None:
        return None
    if timezone.is_aware(value):
        value = value.astimezone(timezone.get_current_timezone())
    text = value.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


class CardDetailSerializer(CardSerializer):
    printings = PrintingSerializer(many=True, read_only=True)

    class Meta(CardSerializer.Meta):
        fields = [*CardSerializer.Meta.fields, "printings"]
        read_only_fields = fields

    def to_representation(self, card: Card) -> dict[str, object]:
        return serializers.ModelSerializer.to_representation(self, card)


class ImportIssueSerializer(serializers.Serializer):
    """One problem of an import: an error (nothing was imported) or a warning (a row skipped or flagged
    while the rest was imported). `code` + `params` identify it for programs (codes are stable);
    `reason` is English; `message` is the same in the request's language (Accept-Language / cookie)."""

    line = serializers.IntegerField(allow_null=True, help_text="line of the file (row of a CSV, card id)")
    field = StrictCharField(help_text="the field or column at fault; empty for the whole file")
    card = StrictCharField(help_text="the card's name or id, when the problem is one card's")
    code = StrictCharField(help_text="stable message code; empty for jobs stored before codes existed")
    params = serializers.DictField(help_text="the values the message quotes")
    reason = StrictCharField(help_text="the message in English")
    message = StrictCharField(help_text="the message in the request's language")
    severity = serializers.ChoiceField(choices=["error", "warning"], help_text="error or warning")


class ImportJobSerializer(serializers.ModelSerializer):
    game = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    percent = serializers.IntegerField(read_only=True)
    errors = serializers.SerializerMethodField()

    @extend_schema_field(ImportIssueSerializer(many=True))
    def get_errors(self, job: ImportJob) -> list[dict[str, object]]:
        return [
            {
                "line": issue.get("line"),
                "field": issue.get("field", ""),
                "card": issue.get("card", ""),
                "code": issue.get("code", ""),
                "params": issue.get("params") or {},
                "reason": issue.get("reason", ""),
                "message": import_issue_text(issue),
                "severity": issue.get("severity", "error"),
            }
            for issue in job.errors
        ]

    class Meta:
        model = ImportJob
        fields = [
            "id",
            "game",
            "filename",
            "file_format",
            "status",
            "total",
            "processed",
            "percent",
            "created_count",
            "updated_count",
            "pictures_count",
            "errors",
            "created_at",
            "finished_at",
        ]
        read_only_fields = fields


class ImportInputSerializer(serializers.Serializer):
    game = StrictSlugField()
    file = serializers.FileField(required=False, help_text="the card database file")
    pictures = serializers.FileField(
        required=False,
        help_text="a ZIP of card pictures named by external id or card name (EDOPro pics/<passcode>.jpg, "
        "Cockatrice pics/CUSTOM/<name>.jpg); alone, it goes to the cards already imported",
    )
    format = serializers.ChoiceField(choices=list(FORMATS), required=False, allow_blank=True)

    def validate_game(self, value: str) -> Game:
        game = Game.objects.filter(slug=value).first()
        if game is None:
            raise serializers.ValidationError(_("unknown game “%(game)s”") % {"game": value})
        return game

    def validate_file(self, value: object) -> object:
        if value.size > services.MAX_IMPORT_BYTES:  # type: ignore[attr-defined]
            raise serializers.ValidationError(_("the file is larger than 64 MB"))
        return value

    def validate_pictures(self, value: object) -> object:
        if value.size > MAX_ZIP_BYTES:  # type: ignore[attr-defined]
            raise serializers.ValidationError(_("the pictures ZIP is larger than 64 MB"))
        return value

    # The schema requires one of them (config.api); CardImportView refuses a body where none is readable.
    at_least_one_of = ("file", "pictures")


class IsCardEditor(permissions.BasePermission):
    """Card editors of some game and staff get past the door; the game itself is checked on upload."""

    message = "Only a game's card editors and staff may import its card database."

    def has_permission(self, request: Request, view: object) -> bool:
        return card_databases_editable_by(request.user).exists()


def _whole_number(low: int = -999_999_999, high: int = 999_999_999) -> dict[str, object]:
    """A whole-number filter as selectors.int_param reads it: at most nine digits, or left empty (an empty
    field of the search form means "no filter")."""
    return {"anyOf": [{"type": "integer", "minimum": low, "maximum": high}, {"type": "string", "enum": [""]}]}


SEARCH_PARAMETERS = [
    OpenApiParameter("game", str, description="game slug"),
    OpenApiParameter(
        "q",
        str,
        description="a query in the search language (README “Searching cards”, the fields: "
        "/api/games/{slug}/search-fields/), e.g. `t:dragon atk>=3000 -banned:`; without `game`, a name substring",
    ),
    OpenApiParameter(
        "date", str, description="YYYY-MM-DD: the ban lists legality terms read (default today)"
    ),
    OpenApiParameter("type", str, description="card type, e.g. monster, spell, hero, creature"),
    OpenApiParameter("subtype", str, description="a subtype the card has, e.g. effect, image, soul bond"),
    OpenApiParameter("level_min", _whole_number()),
    OpenApiParameter("level_max", _whole_number()),
    OpenApiParameter("cost_min", _whole_number()),
    OpenApiParameter("cost_max", _whole_number()),
    OpenApiParameter("deck_buildable", bool),
    OpenApiParameter(
        "attr.KEY",
        str,
        description="attribute equals (or list attribute contains) a value; also attr.KEY.min/.max",
    ),
    # Empty: the default order (name), as the search form sends it.
    OpenApiParameter("ordering", str, enum=[*selectors.ORDERINGS, ""]),
]


class CardListView(generics.ListAPIView):
    """Search a game's cards. Every filter is optional; results are paginated and ordered."""

    serializer_class = CardSerializer
    pagination_class = CardSearchPagination
    permission_classes = [permissions.AllowAny]
    filter_backends: list = []

    def get_queryset(self):  # type: ignore[no-untyped-def]
        try:
            self.filters = selectors.card_filters_from_params(self.request.query_params)
            self.filters.default_q = selectors.default_query(
                user=self.request.user, game_slug=self.filters.game, params=self.request.query_params
            )
            return selectors.card_search_page(self.filters)
        except search.SearchError as exc:
            raise ValidationError({"q": [str(exc)]}) from exc
        except selectors.FilterError as exc:
            raise ValidationError({"detail": str(exc)}) from exc

    def get_paginated_response(self, data: object) -> Response:
        response = super().get_paginated_response(data)
        outcome = self.filters.outcome
        response.data["explain"] = outcome.explain if outcome else ""
        response.data["suggestions"] = outcome.suggestions if outcome else []
        return response

    @extend_schema(parameters=SEARCH_PARAMETERS)
    def get(self, request: Request, *args: object, **kwargs: object) -> Response:
        return super().get(request, *args, **kwargs)


class SearchFieldSerializer(serializers.Serializer):
    field = StrictCharField(help_text="the field's name (a keyword too)")
    kind = StrictCharField(help_text="name, text, typeline, choice, number, colors, printing, legality, bool")
    label = StrictCharField(help_text="in the request language")
    aliases = serializers.ListField(child=StrictCharField(), help_text="other keywords, any language")
    operators = serializers.ListField(child=StrictCharField(), help_text="operators it takes")
    source = StrictCharField(help_text="what it reads: a card column, attr.<key>, printing.* or legality.*")


class SearchFieldsSerializer(serializers.Serializer):
    game = StrictCharField()
    fields = SearchFieldSerializer(many=True)
    examples = serializers.ListField(child=StrictCharField())


class SearchFieldsView(APIView):
    """The search language's fields of a game (from its rule set): names, aliases, kinds and operators —
    the data of the help page /cards/search-help/<slug>/."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: SearchFieldsSerializer, 404: ApiErrorOutSerializer})
    def get(self, request: Request, slug: str) -> Response:
        if not Game.objects.filter(slug=slug).exists():
            raise NotFound(f"unknown game {slug[:50]!r}")
        lang = (get_language() or "en")[:2]
        return Response(SearchFieldsSerializer(search.search_fields(slug, lang)).data)


class FacetParamsSerializer(serializers.Serializer):
    value = StrictCharField(required=False, help_text="parameter of a choice, e.g. attr.size or type")
    min = StrictCharField(required=False, help_text="lower-bound parameter of a range, e.g. attr.atk.min")
    max = StrictCharField(required=False, help_text="upper-bound parameter of a range, e.g. level_max")


class FacetSerializer(serializers.Serializer):
    field = StrictCharField(help_text="type, subtype, level, cost or an attribute key")
    kind = serializers.ChoiceField(choices=["choice", "range"])
    label = StrictCharField(help_text="in the request language (en or ru), from the rule set")
    params = FacetParamsSerializer(help_text="the /api/cards/ parameter(s) this filter sends")
    values = serializers.ListField(
        child=StrictCharField(), required=False, help_text="choices: the distinct values in the cards"
    )
    min = serializers.IntegerField(required=False, allow_null=True, help_text="ranges: the smallest value")
    max = serializers.IntegerField(required=False, allow_null=True, help_text="ranges: the largest value")

    def to_representation(self, instance: dict[str, object]) -> dict[str, object]:
        # Choices have no min/max and ranges no values: leave the other kind's keys out rather than
        # null (DRF fills a missing nullable field with None).
        data = super().to_representation(instance)
        return {key: value for key, value in data.items() if key in instance}


class FacetsSerializer(serializers.Serializer):
    game = StrictCharField()
    filters = FacetSerializer(many=True)


class CardFacetsView(APIView):
    """The search filters a game offers (from its rule set's `search_filters`) with the values its cards
    have: the distinct values of each choice, the min and max of each range. Labels follow the request
    language. Cached per game until its cards change."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("game", str, required=True, description="game slug")],
        responses={200: FacetsSerializer, 404: ApiErrorOutSerializer},
    )
    def get(self, request: Request) -> Response:
        slug = (request.query_params.get("game") or "").strip()
        if not slug:
            raise ValidationError({"game": _("this parameter is required (a game slug)")})
        game = Game.objects.filter(slug=slug).first()
        if game is None:
            raise NotFound(f"unknown game {slug[:50]!r}")
        lang = get_language() or "en"
        facets = {"game": game.slug, "filters": selectors.card_facets(game=game, lang=lang)}
        return Response(FacetsSerializer(facets).data)


class CardDetailView(generics.RetrieveAPIView):
    serializer_class = CardDetailSerializer
    permission_classes = [permissions.AllowAny]
    filter_backends: list = []

    def get_object(self) -> Card:
        try:
            return selectors.card_get(pk=int(self.kwargs["pk"]))
        except Card.DoesNotExist as exc:
            raise NotFound("no such card") from exc


class CardImportView(APIView):
    """Upload a card database file; the import runs as a job (poll /api/import-jobs/{id}/)."""

    permission_classes = [IsCardEditor]
    parser_classes = [MultiPartParser]  # the schema documents multipart only (a file upload)

    @extend_schema(request=ImportInputSerializer, responses={202: ImportJobSerializer})
    def post(self, request: Request) -> Response:
        serializer = ImportInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        upload = serializer.validated_data.get("file")
        pictures = serializer.validated_data.get("pictures")
        if not can_edit_card_database(user=request.user, game=serializer.validated_data["game"]):
            raise PermissionDenied(f"you are not a card editor of {serializer.validated_data['game'].slug}")
        if not upload and not pictures:
            # No readable file part (none, or one the multipart parser could not read): a well-formed body
            # with nothing to import (README "Errors": 422), as the deck and collection imports answer.
            raise Unprocessable({"file": [_("send a card database file, a ZIP of card pictures, or both")]})
        job = services.import_job_start(
            game=serializer.validated_data["game"],
            created_by=request.user,
            filename=(upload or pictures).name or "upload",
            data=upload.read() if upload else b"",
            fmt=serializer.validated_data.get("format") or None,
            pictures=pictures.read() if pictures else b"",
        )
        job.refresh_from_db()
        return Response(ImportJobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class ImportJobDetailView(APIView):
    """Progress of an import job: visible to the user who started it and to staff."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=ImportJobSerializer)
    def get(self, request: Request, pk: int) -> Response:
        job = get_object_or_404(ImportJob.objects.select_related("game"), pk=pk)
        if not selectors.import_job_visible(job=job, user=request.user):
            raise NotFound("no such import job")
        job = services.import_job_reap(job=job)
        return Response(ImportJobSerializer(job).data)


class CardExportView(APIView):
    """Download a game's whole card database as Deckhall JSON or CSV (re-importable)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("game", str, required=True, description="a game's slug, e.g. yugioh"),
            OpenApiParameter("fmt", str, enum=["json", "csv"]),
        ],
        # What the answer is: the Deckhall interchange JSON (an object, cards/README.md) or CSV text — not an
        # opaque binary (a schema client validated the JSON answer against "binary" and failed).
        responses={
            (200, "application/json"): OpenApiTypes.OBJECT,
            (200, "text/csv"): OpenApiTypes.STR,
            (400, "application/json"): ApiErrorOutSerializer,
        },
    )
    def get(self, request: Request) -> HttpResponse:
        slug = request.query_params.get("game", "")
        fmt = request.query_params.get("fmt", "json")
        game = Game.objects.filter(slug=slug).first()
        if game is None:
            raise ValidationError({"game": _("unknown game “%(game)s”") % {"game": slug}})
        if fmt not in selectors.EXPORT_FORMATS:
            raise ValidationError({"fmt": _("must be json or csv")})
        body = selectors.cards_export(game=game, fmt=fmt)
        response = HttpResponse(body, content_type=f"{selectors.EXPORT_FORMATS[fmt]}; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{game.slug}-cards.{fmt}"'
        return response


class CardPreviewStatSerializer(serializers.Serializer):
    field = StrictCharField(help_text="the card field or attribute key")
    label = StrictCharField(help_text="the game's word for it in the request language")
    value = StrictCharField(help_text="its value in the game's words")


class CardPreviewSerializer(serializers.Serializer):
    """A card as a preview shows it, laid out by its rule set's labels (see cards/labels.py)."""

    id = serializers.IntegerField()
    name = StrictCharField()
    type_line = StrictCharField(help_text="card type and subtypes in the game's words")
    stats = CardPreviewStatSerializer(many=True)
    text = StrictCharField()
    image = StrictCharField(help_text="the card's picture URL, or empty when there is none to show")


class GroupPrintingSerializer(serializers.Serializer):
    """One printing of a card identity: its own card row (YGO alternate artwork) and its set codes."""

    id = serializers.IntegerField(source="pk")
    external_id = StrictCharField()
    canonical = serializers.BooleanField(help_text="the printing the row stands for")
    sets = serializers.ListField(child=StrictCharField(), help_text='set codes, e.g. "LOB LOB-005"')


class CardGroupSerializer(serializers.Serializer):
    """One search row per card identity: its canonical printing's card plus every printing."""

    id = serializers.IntegerField(source="card.pk", help_text="the canonical printing's card id")
    game = StrictCharField(source="card.game.slug")
    external_id = StrictCharField(source="card.external_id")
    identity = StrictCharField(source="card.identity")
    name = StrictCharField(source="card.__str__")
    card_type = StrictCharField(source="card.card_type")
    subtypes = serializers.JSONField(source="card.subtypes")
    level = serializers.IntegerField(source="card.level", allow_null=True)
    cost = serializers.IntegerField(source="card.cost", allow_null=True)
    attributes = serializers.JSONField(source="card.attributes")
    is_token = serializers.BooleanField(source="card.is_token")
    deck_buildable = serializers.BooleanField(source="card.deck_buildable")
    preview = serializers.SerializerMethodField()
    printings = serializers.SerializerMethodField()

    @extend_schema_field(CardPreviewSerializer)
    def get_preview(self, group: selectors.CardGroup) -> dict[str, object]:
        from .labels import card_preview

        return card_preview(group.card, self.context.get("lang", "en"))

    @extend_schema_field(GroupPrintingSerializer(many=True))
    def get_printings(self, group: selectors.CardGroup) -> list[dict[str, object]]:
        return _group_printings(group)

    def to_representation(self, group: selectors.CardGroup) -> dict[str, object]:
        # The declared fields above, written out: DRF's per-field machinery over 40 rows of 14 fields cost
        # more than the search itself (tests/search check the two give the same JSON).
        from .labels import card_preview

        card = group.card
        return {
            "id": card.pk, "game": card.game.slug, "external_id": card.external_id, "identity": card.identity,
            "name": str(card), "card_type": card.card_type, "subtypes": card.subtypes, "level": card.level,
            "cost": card.cost, "attributes": card.attributes, "is_token": card.is_token,
            "deck_buildable": card.deck_buildable, "preview": card_preview(card, self.context.get("lang", "en")),
            "printings": _group_printings(group),
        }  # fmt: skip


def _group_printings(group: selectors.CardGroup) -> list[dict[str, object]]:
    # Plain dicts shaped as GroupPrintingSerializer documents: a nested serializer per row costs more
    # than the search itself (40 rows per builder search).
    return [
        {"id": p.pk, "external_id": p.external_id, "canonical": p.pk == group.card.pk, "sets": p.sets}
        for p in group.printings
    ]


class CardGroupPageSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="number of card identities matching")
    results = CardGroupSerializer(many=True)
    explain = StrictCharField(help_text="the query in words, in the request language ('' without q)")
    suggestions = serializers.ListField(
        child=StrictCharField(),
        help_text="did you mean: queries that find cards when this one found none",
    )


class CardGroupListView(APIView):
    """Search a game's cards with one row per card identity (alternate artworks and reprints of one card
    are one row, their printings listed inside). Takes the same filters as /api/cards/ plus page and
    page_size (at most 100 rows)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            *SEARCH_PARAMETERS,
            OpenApiParameter("page", _whole_number(1)),
            OpenApiParameter(
                "page_size", _whole_number(1, 100), description="rows per page, 1–100 (default 40)"
            ),
        ],
        responses={200: CardGroupPageSerializer},
    )
    def get(self, request: Request) -> Response:
        try:
            filters = selectors.card_filters_from_params(request.query_params)
            filters.default_q = selectors.default_query(
                user=request.user, game_slug=filters.game, params=request.query_params
            )
            page = selectors.int_param(request.query_params, "page")
            size = selectors.int_param(request.query_params, "page_size")
            page, size = (1 if page is None else page), (40 if size is None else size)
            if page < 1 or not 1 <= size <= 100:
                raise selectors.FilterError(_("page must be 1 or more and page_size between 1 and 100"))
            total, groups = selectors.card_search_grouped(filters, offset=(page - 1) * size, limit=size)
        except search.SearchError as exc:
            raise ValidationError({"q": [str(exc)]}) from exc
        except selectors.FilterError as exc:
            raise ValidationError({"detail": str(exc)}) from exc
        lang = get_language() or "en"
        from .images import card_images

        card_images([group.card for group in groups])  # the previews' pictures in one query
        outcome = filters.outcome
        page_data = CardGroupPageSerializer(
            {
                "count": total,
                "results": groups,
                "explain": outcome.explain if outcome else "",
                "suggestions": outcome.suggestions if outcome else [],
            },
            context={"lang": lang},
        )
        return Response(page_data.data)
