"""API root, token auth and the games list."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping

from django.db.models import Prefetch
from django.urls import NoReverseMatch
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from accounts.lockout import login_locked
from accounts.tokens import api_token_create
from cards.models import Format, Game
from config.fields import StrictCharField

from .api import ApiErrorOutSerializer


@extend_schema(exclude=True)
@api_view(["GET"])
@permission_classes([AllowAny])
def api_root(request: Request) -> Response:
    links = {
        "games": reverse("api-games", request=request),
        "schema": reverse("api-schema", request=request),
        "docs": reverse("api-docs", request=request),
        "token": reverse("api-token", request=request),
    }
    # Each app may register more endpoints; list the well-known ones that exist.
    for name, url_name in [
        ("cards", "api-card-list"),
        ("banlists", "api-banlist-list"),
        ("decks", "api-deck-list"),
        ("validate", "api-deck-validate"),
        ("tournaments", "api-tournament-list"),
    ]:
        # An app without that endpoint is simply not listed.
        with contextlib.suppress(NoReverseMatch):
            links[name] = reverse(url_name, request=request)
    return Response(links)


class TokenOutSerializer(serializers.Serializer):
    token = StrictCharField(help_text="Shown once: only its digest is stored. Keep it safe.")


class AuthTokenInSerializer(AuthTokenSerializer):
    """DRF's credentials check, reading the username and password as text only (config.fields)."""

    username = StrictCharField(label="Username", write_only=True)
    password = StrictCharField(
        label="Password", style={"input_type": "password"}, trim_whitespace=False, write_only=True
    )


class ObtainTokenView(APIView):
    """Exchange a username and password for an API token (send it as `Authorization: Token <token>`)."""

    permission_classes = [AllowAny]
    authentication_classes: list = []  # no session: a token request must not need a CSRF token
    throttle_scope = "auth"

    @extend_schema(
        request=AuthTokenInSerializer,
        responses={
            200: TokenOutSerializer,
            400: OpenApiResponse(
                ApiErrorOutSerializer, description="username or password missing or malformed"
            ),
            401: OpenApiResponse(
                ApiErrorOutSerializer, description="no active account with this username and password"
            ),
            429: ApiErrorOutSerializer,
        },
    )
    def post(self, request: Request) -> Response:
        data = request.data if isinstance(request.data, Mapping) else {}
        if login_locked(request=request, username=str(data.get("username") or "")):
            return Response(
                {"detail": "too many failed log-in attempts; wait a few minutes and try again"},
                status=status.HTTP_429_TOO_MANY_REQUESTS,
            )
        serializer = AuthTokenInSerializer(data=request.data, context={"request": request})
        try:
            serializer.is_valid(raise_exception=True)
        except serializers.ValidationError as error:
            # Credentials that name no active account are refused as credentials (401, as simplejwt's token
            # view does; RFC 9110 wants the scheme named in WWW-Authenticate); a missing or malformed field
            # is a malformed request (400).
            if error.get_codes() == {"non_field_errors": ["authorization"]}:
                return Response(
                    error.detail,
                    status=status.HTTP_401_UNAUTHORIZED,
                    headers={"WWW-Authenticate": 'Token realm="api"'},
                )
            return Response(error.detail, status=status.HTTP_400_BAD_REQUEST)
        # A new token each time, shown this once: only its digest is stored (accounts.tokens).
        token = api_token_create(user=serializer.validated_data["user"])
        return Response(TokenOutSerializer({"token": token}).data)


class FormatSerializer(serializers.ModelSerializer):
    class Meta:
        model = Format
        fields = ["slug", "name", "name_ru"]


class GameSerializer(serializers.ModelSerializer):
    formats = FormatSerializer(many=True, read_only=True)

    class Meta:
        model = Game
        fields = [
            "slug",
            "name",
            "name_ru",
            "description",
            "has_decks",
            "min_players",
            "max_players",
            "formats",
        ]


_games = Game.objects.prefetch_related(Prefetch("formats", Format.objects.order_by("position", "slug")))


class GameListView(generics.ListAPIView):
    """Every game with its formats."""

    serializer_class = GameSerializer
    pagination_class = None
    permission_classes = [AllowAny]

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return _games.all().order_by("name")


class GameDetailView(generics.RetrieveAPIView):
    serializer_class = GameSerializer
    permission_classes = [AllowAny]
    lookup_field = "slug"

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return _games.all()
