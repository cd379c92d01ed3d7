"""/api/matches/…: game-by-game results, report → confirm or dispute, corrections, sideboarding."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from idempotency.decorators import idempotent

from .. import serializers as s
from .. import services
from ..models import Match, Player
from ..permissions import is_organizer, require_organizer
from ..reads import selectors
from .common import (
    ID,
    IDEMPOTENCY_KEY,
    READ,
    RESULT_EXAMPLES,
    WRITE,
    TournamentApiView,
    errors,
    match_response,
    parse,
)


class ExtendInSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(min_value=1, max_value=30, help_text="minutes to add for this table")


class MatchViewSet(TournamentApiView, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Matches: game-by-game results, report → confirm (of a version) or dispute, corrections, sideboarding."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    # For OPTIONS and the browsable API; each action parses its own input serializer.
    serializer_class = s.ResultInSerializer
    lookup_value_regex = ID

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return Match.objects.select_related("round__tournament__game")

    @extend_schema(responses={200: s.MatchOutSerializer, **READ})
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return match_response(self.get_object())

    @extend_schema(
        request=s.ResultInSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.MatchOutSerializer, **WRITE, **errors(422)},
        examples=RESULT_EXAMPLES,
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    @idempotent
    def result(self, request: Request, pk: str | None = None) -> Response:
        """Report a whole result: `{"wins": [w1, w2], "draws": d}` in the order of `players`, or
        `{"games": [{"winner": id|null, "first": id, "chooser"?: id}]}`; pods: `{"places": [{"player", "score", "tiebreak"}]}`.
        A player's report waits for the opponent's confirmation; an organizer's entry is final."""
        v = result_input(request)
        return match_response(services.match_report_result(match=self.get_object(), by=request.user, **v))

    @extend_schema(
        request=s.GameInSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.MatchOutSerializer, **WRITE, **errors(409, 422)},
        examples=[
            OpenApiExample(
                "game 2", value={"number": 2, "first": 9, "winner": None, "chooser": 9}, request_only=True
            )
        ],
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    @idempotent
    def games(self, request: Request, pk: str | None = None) -> Response:
        """Save or replace one game (`winner` null = drawn game). The match becomes `reported` once decided."""
        v = parse(s.GameInSerializer, request)
        check = {"previous": dict(v["previous"]) if v["previous"] else None} if "previous" in v else {}
        match = services.match_save_game(
            match=self.get_object(), by=request.user, number=v["number"], first=v["first"], winner=v["winner"],
            chooser=v.get("chooser"), **check,
        )  # fmt: skip
        return match_response(match)

    @extend_schema(
        request=s.FinishInSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.MatchOutSerializer, **WRITE, **errors(422)},
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    @idempotent
    def end(self, request: Request, pk: str | None = None) -> Response:
        """End the match early: on time (the games saved), by a concession, or an intentional draw."""
        v = parse(s.FinishInSerializer, request)
        match = services.match_finish_early(
            match=self.get_object(), by=request.user, how=v["how"], conceded_by=v.get("conceded_by")
        )
        return match_response(match)

    @extend_schema(
        request=s.ConfirmInSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.MatchOutSerializer, **errors(400, 401, 403, 404, 409, 422)},
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    @idempotent
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        """The opponent confirms the result of `version`; a result changed since answers 409 with it."""
        v = parse(s.ConfirmInSerializer, request)
        return match_response(
            services.match_confirm_result(match=self.get_object(), by=request.user, version=v.get("version"))
        )

    @extend_schema(
        request=s.DisputeInSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: s.MatchOutSerializer, **WRITE, **errors(422)},
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    @idempotent
    def dispute(self, request: Request, pk: str | None = None) -> Response:
        v = parse(s.DisputeInSerializer, request)
        return match_response(
            services.match_dispute(match=self.get_object(), by=request.user, reason=v.get("reason", ""))
        )

    @extend_schema(
        request=s.ResultInSerializer, responses={200: s.MatchOutSerializer, **WRITE, **errors(409, 422)}
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def correct(self, request: Request, pk: str | None = None) -> Response:
        """Organizers: set any result (a reason is needed once it was confirmed or disputed); audited."""
        match = self.get_object()
        require_organizer(match.round.tournament, request.user)
        v = result_input(request)
        reason = str(request.data.get("reason", "")) if hasattr(request.data, "get") else ""
        return match_response(services.match_correct_result(match=match, by=request.user, reason=reason, **v))

    @extend_schema(
        request=s.ResultInSerializer, responses={200: s.MatchOutSerializer, **WRITE, **errors(409, 422)}
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def resolve(self, request: Request, pk: str | None = None) -> Response:
        """Organizers: decide a dispute with a `reason`: keep the reported result (no result given) or set one."""
        match = self.get_object()
        require_organizer(match.round.tournament, request.user)
        v = parse(s.ResultInSerializer, request)
        given = {k: v.get(k) for k in ("wins", "games", "places") if k in v}
        if len(given) > 1:
            raise serializers.ValidationError(
                {"detail": "give at most one of: wins (with draws), games, places"}
            )
        return match_response(
            services.match_resolve_dispute(
                match=match, by=request.user, reason=v.get("reason", ""), draws=v.get("draws", 0), **given
            )
        )

    @extend_schema(
        methods=["GET"],
        parameters=[
            OpenApiParameter(
                "player",
                {"type": "integer", "minimum": 0, "maximum": 10**18 - 1},  # what the view reads: 1-18 digits
                required=True,
                description="the player whose deck to show",
            )
        ],
        responses={200: s.SideboardOptionsOutSerializer, **errors(400, 401, 403, 404)},
    )
    @extend_schema(
        methods=["POST"],
        request=s.SideboardInSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: s.SideboardChangeOutSerializer, **WRITE, **errors(422)},
        examples=[
            OpenApiExample(
                "one for one",
                request_only=True,
                value={"player": 4, "game_number": 2,
                       "swaps": [{"section": "main", "out": "12345678", "in": "87654321", "count": 1}]},
            )
        ],
    )  # fmt: skip
    @action(detail=True, methods=["get", "post"], permission_classes=[IsAuthenticated])
    @idempotent
    def sideboard(self, request: Request, pk: str | None = None) -> Response:
        """GET: a player's current deck and the cards that can come in (the player and organizers only).
        POST: swap cards before a game (2+); the rules engine validates the swap and the deck. Private."""
        match = self.get_object()
        if request.method == "GET":
            raw = request.query_params.get("player", "")
            if not raw.isdecimal() or len(raw) > 18:
                raise serializers.ValidationError({"player": "give the id of a player of this match"})
            player = get_object_or_404(Player, pk=int(raw), tournament=match.round.tournament)
            options = services.sideboard_options(match=match, player=player, by=request.user)
            return Response(s.SideboardOptionsOutSerializer(options).data)
        v = parse(s.SideboardInSerializer, request)
        player = get_object_or_404(Player, pk=v["player"], tournament=match.round.tournament)
        change = services.match_sideboard(
            match=match, player=player, by=request.user, game_number=v["game_number"], swaps=v["swaps"]
        )
        return Response(s.SideboardChangeOutSerializer(change).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=ExtendInSerializer,
        responses={200: s.MatchOutSerializer, **WRITE},
        examples=[OpenApiExample("five minutes", value={"minutes": 5}, request_only=True)],
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def extend(self, request: Request, pk: str | None = None) -> Response:
        """Organizers: more time for this table only (1–30 minutes, added to any earlier extension)."""
        v = parse(ExtendInSerializer, request)
        return match_response(
            services.match_extend(match=self.get_object(), by=request.user, minutes=v["minutes"])
        )

    @extend_schema(request=None, responses={200: s.MatchOutSerializer, **WRITE})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def judge(self, request: Request, pk: str | None = None) -> Response:
        """A player of the match calls a judge to the table (the organizer's dashboard shows it at once)."""
        match = self.get_object()
        services.judge_call(match=match, by=request.user)
        return match_response(match)

    @extend_schema(request=None, responses={200: s.MatchOutSerializer, **WRITE})
    @action(detail=True, methods=["post"], url_path="judge/answer", permission_classes=[IsAuthenticated])
    def judge_answer(self, request: Request, pk: str | None = None) -> Response:
        """Organizers: a judge is at the table; the call leaves the dashboards and the players' phones."""
        match = self.get_object()
        require_organizer(match.round.tournament, request.user)
        for call in match.judge_calls.filter(answered_at__isnull=True):
            services.judge_call_answer(call=call, by=request.user)
        return match_response(match)

    @extend_schema(responses={200: s.AuditOutSerializer, **errors(401, 403, 404)})
    @action(detail=True, methods=["get"], permission_classes=[IsAuthenticated])
    def audit(self, request: Request, pk: str | None = None) -> Response:
        """Every change to this match's result (organizers and the match's players)."""
        match = self.get_object()
        tournament = match.round.tournament
        mine = any(seat.player.user_id == request.user.id for seat in match.seats.select_related("player"))
        if not (is_organizer(tournament, request.user) or mine):
            from rest_framework.exceptions import PermissionDenied

            raise PermissionDenied("only organizers and the match's players see its audit trail")
        return Response(s.AuditOutSerializer({"changes": selectors.match_audit(match)}).data)


def result_input(request: Request) -> dict[str, Any]:
    v = parse(s.ResultInSerializer, request)
    if sum(key in v for key in ("wins", "games", "places")) != 1:
        raise serializers.ValidationError({"detail": "give exactly one of: wins (with draws), games, places"})
    return {
        "wins": v.get("wins"),
        "draws": v.get("draws", 0),
        "games": v.get("games"),
        "places": v.get("places"),
    }
