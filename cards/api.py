"""Card API: search, search facets, detail, import (as a job), job progress, export."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import ErrorOutSerializer

from . import selectors, services
from .importers import FORMATS, import_issue_text
from .models import Card, Game, ImportJob, Printing


class CardPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class PrintingSerializer(serializers.ModelSerializer):
    set = serializers.CharField(source="card_set.code")
    set_name = serializers.CharField(source="card_set.name")

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


class CardDetailSerializer(CardSerializer):
    printings = PrintingSerializer(many=True, read_only=True)

    class Meta(CardSerializer.Meta):
        fields = [*CardSerializer.Meta.fields, "printings"]
        read_only_fields = fields


class ImportIssueSerializer(serializers.Serializer):
    """One problem of a failed import. `code` + `params` identify it for programs (codes are stable);
    `reason` is English; `message` is the same in the request's language (Accept-Language / cookie)."""

    line = serializers.IntegerField(allow_null=True, help_text="line of the file (row of a CSV, card id)")
    field = serializers.CharField(help_text="the field or column at fault; empty for the whole file")
    card = serializers.CharField(help_text="the card's name or id, when the problem is one card's")
    code = serializers.CharField(help_text="stable message code; empty for jobs stored before codes existed")
    params = serializers.DictField(help_text="the values the message quotes")
    reason = serializers.CharField(help_text="the message in English")
    message = serializers.CharField(help_text="the message in the request's language")


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
            "errors",
            "created_at",
            "finished_at",
        ]
        read_only_fields = fields


class ImportInputSerializer(serializers.Serializer):
    game = serializers.SlugField()
    file = serializers.FileField()
    format = serializers.ChoiceField(choices=list(FORMATS), required=False, allow_blank=True)

    def validate_game(self, value: str) -> Game:
        game = Game.objects.filter(slug=value).first()
        if game is None:
            raise serializers.ValidationError(f"unknown game {value!r}")
        return game

    def validate_file(self, value: object) -> object:
        if value.size > services.MAX_IMPORT_BYTES:  # type: ignore[attr-defined]
            raise serializers.ValidationError("the file is larger than 64 MB")
        return value


class IsOrganizer(permissions.BasePermission):
    message = "Only organizers and staff may import card databases."

    def has_permission(self, request: Request, view: object) -> bool:
        return bool(request.user and request.user.is_authenticated and request.user.can_organize)


SEARCH_PARAMETERS = [
    OpenApiParameter("game", str, description="game slug"),
    OpenApiParameter(
        "q", str, description="case-insensitive substring of the name (any script) or exact external id"
    ),
    OpenApiParameter("type", str, description="card type, e.g. monster, spell, hero, creature"),
    OpenApiParameter("subtype", str, description="a subtype the card has, e.g. effect, image, soul bond"),
    OpenApiParameter("level_min", int),
    OpenApiParameter("level_max", int),
    OpenApiParameter("cost_min", int),
    OpenApiParameter("cost_max", int),
    OpenApiParameter("deck_buildable", bool),
    OpenApiParameter(
        "attr.KEY",
        str,
        description="attribute equals (or list attribute contains) a value; also attr.KEY.min/.max",
    ),
    OpenApiParameter("ordering", str, enum=list(selectors.ORDERINGS)),
]


class CardListView(generics.ListAPIView):
    """Search a game's cards. Every filter is optional; results are paginated and ordered."""

    serializer_class = CardSerializer
    pagination_class = CardPagination
    permission_classes = [permissions.AllowAny]
    filter_backends: list = []

    def get_queryset(self):  # type: ignore[no-untyped-def]
        try:
            filters = selectors.card_filters_from_params(self.request.query_params)
            return selectors.card_search(filters)
        except selectors.FilterError as exc:
            raise ValidationError({"detail": str(exc)}) from exc

    @extend_schema(parameters=SEARCH_PARAMETERS)
    def get(self, request: Request, *args: object, **kwargs: object) -> Response:
        return super().get(request, *args, **kwargs)


class FacetParamsSerializer(serializers.Serializer):
    value = serializers.CharField(required=False, help_text="parameter of a choice, e.g. attr.size or type")
    min = serializers.CharField(
        required=False, help_text="lower-bound parameter of a range, e.g. attr.atk.min"
    )
    max = serializers.CharField(required=False, help_text="upper-bound parameter of a range, e.g. level_max")


class FacetSerializer(serializers.Serializer):
    field = serializers.CharField(help_text="type, subtype, level, cost or an attribute key")
    kind = serializers.ChoiceField(choices=["choice", "range"])
    label = serializers.CharField(help_text="in the request language (en or ru), from the rule set")
    params = FacetParamsSerializer(help_text="the /api/cards/ parameter(s) this filter sends")
    values = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="choices: the distinct values in the cards"
    )
    min = serializers.IntegerField(required=False, allow_null=True, help_text="ranges: the smallest value")
    max = serializers.IntegerField(required=False, allow_null=True, help_text="ranges: the largest value")

    def to_representation(self, instance: dict[str, object]) -> dict[str, object]:
        # Choices have no min/max and ranges no values: leave the other kind's keys out rather than
        # null (DRF fills a missing nullable field with None).
        data = super().to_representation(instance)
        return {key: value for key, value in data.items() if key in instance}


class FacetsSerializer(serializers.Serializer):
    game = serializers.CharField()
    filters = FacetSerializer(many=True)


class CardFacetsView(APIView):
    """The search filters a game offers (from its rule set's `search_filters`) with the values its cards
    have: the distinct values of each choice, the min and max of each range. Labels follow the request
    language. Cached per game until its cards change."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("game", str, required=True, description="game slug")],
        responses={200: FacetsSerializer, 404: ErrorOutSerializer},
    )
    def get(self, request: Request) -> Response:
        slug = (request.query_params.get("game") or "").strip()
        if not slug:
            raise ValidationError({"game": "this parameter is required (a game slug)"})
        game = Game.objects.filter(slug=slug).first()
        if game is None:
            raise NotFound(f"unknown game {slug[:50]!r}")
        lang = "ru" if (get_language() or "en").startswith("ru") else "en"
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

    permission_classes = [IsOrganizer]
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(request=ImportInputSerializer, responses={202: ImportJobSerializer})
    def post(self, request: Request) -> Response:
        serializer = ImportInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        upload = serializer.validated_data["file"]
        job = services.import_job_start(
            game=serializer.validated_data["game"],
            created_by=request.user,
            filename=upload.name or "upload",
            data=upload.read(),
            fmt=serializer.validated_data.get("format") or None,
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
        return Response(ImportJobSerializer(job).data)


class CardExportView(APIView):
    """Download a game's whole card database as Deckhall JSON or CSV (re-importable)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("game", str, required=True),
            OpenApiParameter("fmt", str, enum=["json", "csv"]),
        ],
        responses={(200, "application/json"): OpenApiTypes.BINARY, (200, "text/csv"): OpenApiTypes.BINARY},
    )
    def get(self, request: Request) -> HttpResponse:
        slug = request.query_params.get("game", "")
        fmt = request.query_params.get("fmt", "json")
        game = Game.objects.filter(slug=slug).first()
        if game is None:
            raise ValidationError({"game": f"unknown game {slug!r}"})
        if fmt not in selectors.EXPORT_FORMATS:
            raise ValidationError({"fmt": "must be json or csv"})
        body = selectors.cards_export(game=game, fmt=fmt)
        response = HttpResponse(body, content_type=f"{selectors.EXPORT_FORMATS[fmt]}; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{game.slug}-cards.{fmt}"'
        return response
