"""REST API for tournaments. Integrations rely on these shapes: keep them stable (see the OpenAPI schema).

Views only parse input (``tournaments.serializers``) and call one service; permissions are enforced by the
services themselves. Every response body is produced by the output serializer its schema names, and every
status an operation can answer is documented: 400 (bad input, nothing changed), 401/403 (who may not),
404, 409 (a confirm of a result that changed since) and 429 (too many join attempts).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle

from cards.models import Game
from config.api import ApiErrorOutSerializer
from config.api import exception_handler as site_exception_handler

from . import selectors, services
from . import serializers as s
from .models import Match, Player, Round, Tournament
from .permissions import is_organizer, require_organizer

# Path ids are matched loosely and looked up with DRF's get_object_or_404, so a malformed or huge id is a
# JSON 404 from the API rather than the site's HTML "page not found".
ID = r"[^/]+"
PLAYER_ID = OpenApiParameter("player_id", int, OpenApiParameter.PATH)
ROUND_NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH)
ERR = ApiErrorOutSerializer


def errors(*codes: int) -> dict[int, Any]:
    """The documented error statuses of an operation; each body is an object naming what is wrong."""
    return {code: s.ConflictOutSerializer if code == 409 else ERR for code in codes}


READ = errors(404)
WRITE = errors(400, 401, 403, 404)


def tournament_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, services.StaleVersion):
        body = {
            "detail": exc.messages[0],
            "current": selectors.match_payload(selectors.match_for_api(exc.current.pk)),
        }
        return Response(s.ConflictOutSerializer(body).data, status=status.HTTP_409_CONFLICT)
    return site_exception_handler(exc, context)


class TournamentApiView:
    def get_exception_handler(self):  # type: ignore[no-untyped-def]
        return tournament_exception_handler


class JoinThrottle(UserRateThrottle):
    """Join codes are short: a signed-in account may try a few dozen a minute, not millions."""

    scope = "tournament_join"
    rate = "30/min"


def _tournament(request: Request, t: Tournament, code: int = status.HTTP_200_OK) -> Response:
    return Response(s.TournamentOutSerializer(t, context={"request": request}).data, status=code)


def _player(p: Player, code: int = status.HTTP_200_OK) -> Response:
    return Response(s.PlayerOutSerializer(p).data, status=code)


def _round(r: Round, code: int = status.HTTP_200_OK) -> Response:
    return Response(s.RoundOutSerializer(selectors.round_payload(r)).data, status=code)


def _match(m: Match) -> Response:
    return Response(s.MatchOutSerializer(selectors.match_payload(selectors.match_for_api(m.pk))).data)


def _parse(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


TOURNAMENT_EXAMPLE = {
    "id": 7,
    "name": "Friday Locals",
    "game": "yugioh",
    "format": "advanced",
    "match_format": "bo3",
    "tiebreakers": "yugioh",
    "rounds": None,
    "top_cut": 4,
    "seed": 123456789,
    "status": "registration",
    "deck_registration": True,
    "registration_deadline": None,
    "banlist": None,
    "on_date": None,
    "allow_sideboard": False,
    "late_entry_losses": True,
    "publish_decklists": False,
    "round_minutes": 50,
    "check_in_open": False,
    "players": 0,
    "rounds_paired": 0,
    "join_code": "K7M3QX",
    "live_version": 0,
}
ROUND_EXAMPLE = {
    "number": 1,
    "kind": "swiss",
    "stage": "Round 1",
    "seed": 123456789,
    "timer_ends_at": None,
    "matches": [
        {"id": 31, "table": 1, "players": [4, 9], "bye": False, "status": "pending"},
        {"id": 32, "table": 2, "players": [5], "bye": True, "status": "final", "wins": [2], "draws": 0},
    ],
}
STANDINGS_EXAMPLE = {
    "standings": [
        {
            "rank": 1,
            "player": 4,
            "name": "Alice",
            "points": 9,
            "wins": 3,
            "losses": 0,
            "draws": 0,
            "dropped": False,
            "tiebreakers": {"omw": 0.555556, "gw": 0.777778, "ogw": 0.5},
            "swiss_rank": 1,
            "top_cut": "winner",
        },
    ]
}

RESULT_EXAMPLES = [
    OpenApiExample("game wins", value={"wins": [2, 1], "draws": 0}, request_only=True),
    OpenApiExample("intentional draw", value={"wins": [0, 0], "draws": 3}, request_only=True),
    OpenApiExample(
        "games",
        value={"games": [{"winner": 4, "first": 9}, {"winner": 9, "first": 9}, {"winner": 4, "first": 4}]},
        request_only=True,
    ),
    OpenApiExample(
        "pod",
        value={
            "places": [
                {"player": 4, "score": 61, "tiebreak": 9},
                {"player": 9, "score": 55, "tiebreak": 7},
                {"player": 11, "score": 40, "tiebreak": 8},
            ]
        },
        request_only=True,
    ),
    OpenApiExample(
        "reported",
        value={
            "id": 31,
            "round": 1,
            "table": 1,
            "players": [4, 9],
            "bye": False,
            "status": "reported",
            "version": 3,
            "wins": [2, 1],
            "draws": 0,
            "games": [],
            "ended_by": "",
            "dispute_reason": "",
        },
        response_only=True,
    ),
]


class TournamentViewSet(
    TournamentApiView, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Swiss tournaments: setup, joining, check-in, rounds and standings."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = s.TournamentInSerializer
    lookup_value_regex = ID

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.tournament_list()

    def _player(self, player_id: str | None) -> Player:
        return get_object_or_404(Player, pk=player_id, tournament=self.get_object())

    @extend_schema(responses={200: s.TournamentOutSerializer(many=True), **READ})
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(
            s.TournamentOutSerializer(page, many=True, context={"request": request}).data
        )

    @extend_schema(
        responses={200: s.TournamentOutSerializer, **READ},
        examples=[OpenApiExample("tournament", value=TOURNAMENT_EXAMPLE, response_only=True)],
    )
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """An event; ``join_code`` is shown to its organizers only."""
        return _tournament(request, self.get_object())

    @extend_schema(
        request=s.TournamentInSerializer,
        responses={201: s.TournamentOutSerializer, **errors(400, 401, 403)},
        examples=[
            OpenApiExample(
                "create",
                value={"name": "Friday Locals", "game": "yugioh", "format": "advanced", "match_format": "bo3",
                       "top_cut": 4},
                request_only=True,
            ),
            OpenApiExample("created", value=TOURNAMENT_EXAMPLE, response_only=True),
        ],
    )  # fmt: skip
    def create(self, request: Request) -> Response:
        v = _parse(s.TournamentInSerializer, request)
        game = Game.objects.filter(slug=v["game"]).first()
        if game is None:
            raise serializers.ValidationError({"game": f"unknown game {v['game']!r}"})
        tournament = services.tournament_create(
            created_by=request.user,
            name=v["name"],
            game=game,
            format_slug=v["format"],
            match_format=v.get("match_format"),
            tiebreakers=v.get("tiebreakers"),
            rounds=v.get("rounds"),
            top_cut=v["top_cut"],
            seed=v.get("seed"),
            deck_registration=v["deck_registration"],
            registration_deadline=v.get("registration_deadline"),
            on_date=v.get("on_date"),
            allow_sideboard=v["allow_sideboard"],
            late_entry_losses=v["late_entry_losses"],
            publish_decklists=v["publish_decklists"],
            round_minutes=v["round_minutes"],
        )
        return _tournament(request, tournament, status.HTTP_201_CREATED)

    @extend_schema(
        methods=["POST"],
        request=s.PlayerInSerializer,
        responses={201: s.PlayerOutSerializer, **WRITE},
        examples=[
            OpenApiExample("guest", value={"name": "Guest Player"}, request_only=True),
            OpenApiExample("self with deck", value={"deck": 12}, request_only=True),
        ],
    )
    @extend_schema(methods=["GET"], responses={200: s.PlayersOutSerializer, **READ})
    @action(detail=True, methods=["get", "post"])
    def players(self, request: Request, pk: str | None = None) -> Response:
        """List the players (GET) or register one (POST): yourself, or a guest by name (organizers)."""
        tournament = self.get_object()
        if request.method == "GET":
            return Response(
                s.PlayersOutSerializer({"players": tournament.players.order_by("name", "id")}).data
            )
        v = _parse(s.PlayerInSerializer, request)
        deck, payload = _deck_arg(v.get("deck"), request.user)
        organizer = is_organizer(tournament, request.user)
        # An organizer naming someone adds a guest; anyone else registers themselves.
        user = None if organizer and v.get("name") else request.user
        pool = v.get("pool")
        if pool is not None and not isinstance(pool, dict):
            raise serializers.ValidationError(
                {"pool": "give the pool as {sections: {slug: [{card, count}]}}"}
            )
        # Registration and its deck succeed or fail together: an illegal deck leaves no player behind.
        with transaction.atomic():
            if tournament.status == Tournament.Status.RUNNING and organizer:
                player = services.player_add_late(
                    tournament=tournament, by=request.user, name=v.get("name", "")
                )
            else:
                player = services.player_register(
                    tournament=tournament, by=request.user, user=user, name=v.get("name", "")
                )
            if deck is not None or payload is not None:
                services.player_submit_deck(
                    player=player, by=request.user, deck=deck, payload=payload, pool=pool
                )
        return _player(player, status.HTTP_201_CREATED)

    @extend_schema(
        request=s.JoinInSerializer,
        responses={201: s.PlayerOutSerializer, **errors(400, 401, 403, 429)},
        examples=[OpenApiExample("join", value={"code": "K7M3QX", "deck": 12}, request_only=True)],
    )
    @action(
        detail=False, methods=["post"], permission_classes=[IsAuthenticated], throttle_classes=[JoinThrottle]
    )
    def join(self, request: Request) -> Response:
        """Join an event with its join code, optionally with one of your decks or a pasted list."""
        v = _parse(s.JoinInSerializer, request)
        deck, payload = _deck_arg(v.get("deck"), request.user)
        player = services.player_join(
            code=v["code"], by=request.user, deck=deck, payload=payload, text=v.get("list", "")
        )
        return _player(player, status.HTTP_201_CREATED)

    @extend_schema(
        request=s.BulkPlayersInSerializer,
        responses={201: s.PlayersOutSerializer, **WRITE},
        examples=[OpenApiExample("names", value={"names": ["Ann", "Boris", "Chen"]}, request_only=True)],
    )
    @action(detail=True, methods=["post"], url_path="players/bulk")
    def bulk(self, request: Request, pk: str | None = None) -> Response:
        """Organizers: add many guests at once, by names or CSV rows ``name[,deck list]`` (all or none)."""
        tournament = self.get_object()
        require_organizer(tournament, request.user)
        v = _parse(s.BulkPlayersInSerializer, request)
        if ("names" in v) == ("csv" in v):
            raise serializers.ValidationError({"names": "give either names or csv"})
        rows = services.players_from_csv(v["csv"]) if "csv" in v else v["names"]
        players = services.players_bulk_add(tournament=tournament, by=request.user, rows=rows)
        return Response(s.PlayersOutSerializer({"players": players}).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[PLAYER_ID], request=s.RenameInSerializer, responses={200: s.PlayerOutSerializer, **WRITE}
    )
    @action(detail=True, methods=["post"], url_path=rf"players/(?P<player_id>{ID})/rename")
    def rename(self, request: Request, pk: str | None = None, player_id: str | None = None) -> Response:
        """Organizers: change the name an entry shows (audited)."""
        player = self._player(player_id)
        require_organizer(player.tournament, request.user)
        v = _parse(s.RenameInSerializer, request)
        return _player(services.player_rename(player=player, by=request.user, name=v["name"]))

    @extend_schema(
        parameters=[PLAYER_ID], request=s.CheckInInSerializer, responses={200: s.PlayerOutSerializer, **WRITE}
    )
    @action(detail=True, methods=["post"], url_path=rf"players/(?P<player_id>{ID})/check-in")
    def check_in(self, request: Request, pk: str | None = None, player_id: str | None = None) -> Response:
        """Check in (yourself while check-in is open; organizers mark anyone). ``present: false`` undoes it."""
        player = self._player(player_id)
        v = _parse(s.CheckInInSerializer, request)
        return _player(services.player_check_in(player=player, by=request.user, present=v["present"]))

    @extend_schema(request=None, responses={200: s.TournamentOutSerializer, **WRITE})
    @action(detail=True, methods=["post"], url_path="check-in")
    def open_check_in(self, request: Request, pk: str | None = None) -> Response:
        """Organizers: open check-in. Starting the event then drops whoever has not checked in."""
        return _tournament(request, services.checkin_open(tournament=self.get_object(), by=request.user))

    @extend_schema(request=None, responses={200: s.TournamentOutSerializer, **WRITE})
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str | None = None) -> Response:
        """Organizers: start the event (drops the no-shows when check-in was opened); then pair round 1."""
        return _tournament(request, services.tournament_start(tournament=self.get_object(), by=request.user))

    @extend_schema(request=None, responses={200: s.PlayersOutSerializer, **WRITE})
    @action(detail=True, methods=["post"], url_path="no-shows/restore")
    def restore_no_shows(self, request: Request, pk: str | None = None) -> Response:
        """Organizers: bring back the no-shows while round 1 has no result (round 1 is paired again)."""
        players = services.no_shows_restore(tournament=self.get_object(), by=request.user)
        return Response(s.PlayersOutSerializer({"players": players}).data)

    @extend_schema(parameters=[PLAYER_ID], request=None, responses={200: s.PlayerOutSerializer, **WRITE})
    @action(detail=True, methods=["post"], url_path=rf"players/(?P<player_id>{ID})/drop")
    def drop(self, request: Request, pk: str | None = None, player_id: str | None = None) -> Response:
        """Drop a player (yourself, or anyone as an organizer): never paired again, still in the standings."""
        return _player(services.player_drop(player=self._player(player_id), by=request.user))

    @extend_schema(parameters=[PLAYER_ID], request=None, responses={200: s.PlayerOutSerializer, **WRITE})
    @action(detail=True, methods=["post"], url_path=rf"players/(?P<player_id>{ID})/undo-drop")
    def undo_drop(self, request: Request, pk: str | None = None, player_id: str | None = None) -> Response:
        """Organizers: take a drop back while the player has not missed a pairing."""
        return _player(services.player_drop_undo(player=self._player(player_id), by=request.user))

    @extend_schema(
        methods=["POST"],
        request=None,
        responses={201: s.RoundOutSerializer, **WRITE},
        examples=[OpenApiExample("round", value=ROUND_EXAMPLE, response_only=True)],
    )
    @extend_schema(methods=["GET"], responses={200: s.RoundsOutSerializer, **READ})
    @action(detail=True, methods=["get", "post"])
    def rounds(self, request: Request, pk: str | None = None) -> Response:
        """Pair the next round (POST, organizers) or list every round with its matches (GET)."""
        tournament = self.get_object()
        if request.method == "GET":
            rounds = [selectors.round_payload(r) for r in tournament.round_set.order_by("number")]
            return Response(s.RoundsOutSerializer({"rounds": rounds}).data)
        return _round(
            services.round_pair_next(tournament=tournament, by=request.user), status.HTTP_201_CREATED
        )

    @extend_schema(parameters=[ROUND_NUMBER], request=None, responses={200: s.RoundOutSerializer, **WRITE})
    @action(detail=True, methods=["post"], url_path=rf"rounds/(?P<number>{ID})/repair")
    def repair(self, request: Request, pk: str | None = None, number: str | None = None) -> Response:
        """Pair a round again; only while none of its matches has a result."""
        round_ = get_object_or_404(Round, tournament=self.get_object(), number=number)
        return _round(services.round_repair(round_=round_, by=request.user))

    @extend_schema(
        parameters=[ROUND_NUMBER], request=s.TimerInSerializer, responses={200: s.TimerOutSerializer, **WRITE}
    )
    @action(detail=True, methods=["post"], url_path=rf"rounds/(?P<number>{ID})/timer")
    def timer(self, request: Request, pk: str | None = None, number: str | None = None) -> Response:
        """Organizers: start the round clock (``minutes``, default the event's round time)."""
        tournament = self.get_object()
        round_ = get_object_or_404(Round, tournament=tournament, number=number)
        require_organizer(tournament, request.user)  # who may, before what they sent
        v = _parse(s.TimerInSerializer, request)
        round_ = services.round_timer_start(round_=round_, by=request.user, minutes=v.get("minutes"))
        return Response(s.TimerOutSerializer(round_).data)

    @extend_schema(
        responses={200: s.StandingsOutSerializer, **READ},
        examples=[OpenApiExample("standings", value=STANDINGS_EXAMPLE, response_only=True)],
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """Standings; tiebreakers are fractions between 0 and 1 (mtg: omw/gw/ogw, yugioh: omw/oomw,
        pokemon: owp/oowp; pods: raw totals tiebreak/tiebreak2/opp). Once there is a top cut its players come
        first, by how far each went (``top_cut``), then everyone else by Swiss rank (``swiss_rank``)."""
        rows = selectors.standings_compute(tournament=self.get_object())
        return Response(s.StandingsOutSerializer({"standings": rows}).data)

    @extend_schema(request=None, responses={200: s.TournamentOutSerializer, **WRITE})
    @action(detail=True, methods=["post"])
    def freeze(self, request: Request, pk: str | None = None) -> Response:
        """Close registration and freeze the registered deck lists."""
        return _tournament(
            request, services.registration_freeze(tournament=self.get_object(), by=request.user)
        )

    @extend_schema(request=None, responses={201: s.RoundOutSerializer, **WRITE})
    @action(detail=True, methods=["post"], url_path="topcut")
    def topcut(self, request: Request, pk: str | None = None) -> Response:
        """Start the top cut after the last Swiss round, or pair its next round (after the final: finish)."""
        tournament = self.get_object()
        if tournament.status == Tournament.Status.TOP_CUT:
            round_ = services.topcut_advance(tournament=tournament, by=request.user)
        else:
            round_ = services.topcut_start(tournament=tournament, by=request.user)
        return _round(round_, status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: s.TournamentOutSerializer, **WRITE})
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, pk: str | None = None) -> Response:
        """Finish the event: after the last Swiss round, or after the final of the top cut."""
        return _tournament(request, services.tournament_finish(tournament=self.get_object(), by=request.user))


def _deck_arg(value: Any, user: Any) -> tuple[Any, Any]:
    if value is None:
        return None, None
    if isinstance(value, int) and not isinstance(value, bool):
        from decks.models import Deck

        deck = Deck.objects.filter(pk=value).first() if 0 < value <= 2**63 - 1 else None
        if deck is None or not deck.readable_by(user):
            raise serializers.ValidationError({"deck": f"no deck {value} that you can read"})
        return deck, None
    if isinstance(value, dict):
        return None, value
    raise serializers.ValidationError({"deck": "give a deck id or an inline list {sections: {...}}"})


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
        return _match(self.get_object())

    @extend_schema(
        request=s.ResultInSerializer, responses={200: s.MatchOutSerializer, **WRITE}, examples=RESULT_EXAMPLES
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def result(self, request: Request, pk: str | None = None) -> Response:
        """Report a whole result: `{"wins": [w1, w2], "draws": d}` in the order of `players`, or
        `{"games": [{"winner": id|null, "first": id}]}`; pods: `{"places": [{"player", "score", "tiebreak"}]}`.
        A player's report waits for the opponent's confirmation; an organizer's entry is final."""
        v = _result_input(request)
        return _match(services.match_report_result(match=self.get_object(), by=request.user, **v))

    @extend_schema(
        request=s.GameInSerializer,
        responses={200: s.MatchOutSerializer, **WRITE},
        examples=[
            OpenApiExample("game 2", value={"number": 2, "first": 9, "winner": None}, request_only=True)
        ],
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def games(self, request: Request, pk: str | None = None) -> Response:
        """Save or replace one game (`winner` null = drawn game). The match becomes `reported` once decided."""
        v = _parse(s.GameInSerializer, request)
        match = services.match_save_game(
            match=self.get_object(), by=request.user, number=v["number"], first=v["first"], winner=v["winner"]
        )
        return _match(match)

    @extend_schema(request=s.FinishInSerializer, responses={200: s.MatchOutSerializer, **WRITE})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def end(self, request: Request, pk: str | None = None) -> Response:
        """End the match early: on time (the games saved), by a concession, or an intentional draw."""
        v = _parse(s.FinishInSerializer, request)
        match = services.match_finish_early(
            match=self.get_object(), by=request.user, how=v["how"], conceded_by=v.get("conceded_by")
        )
        return _match(match)

    @extend_schema(
        request=s.ConfirmInSerializer,
        responses={200: s.MatchOutSerializer, **errors(400, 401, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        """The opponent confirms the result of `version`; a result changed since answers 409 with it."""
        v = _parse(s.ConfirmInSerializer, request)
        return _match(
            services.match_confirm_result(match=self.get_object(), by=request.user, version=v.get("version"))
        )

    @extend_schema(request=s.DisputeInSerializer, responses={200: s.MatchOutSerializer, **WRITE})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def dispute(self, request: Request, pk: str | None = None) -> Response:
        v = _parse(s.DisputeInSerializer, request)
        return _match(
            services.match_dispute(match=self.get_object(), by=request.user, reason=v.get("reason", ""))
        )

    @extend_schema(request=s.ResultInSerializer, responses={200: s.MatchOutSerializer, **WRITE})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def correct(self, request: Request, pk: str | None = None) -> Response:
        """Organizers: set any result (a reason is needed once it was confirmed or disputed); audited."""
        match = self.get_object()
        require_organizer(match.round.tournament, request.user)
        v = _result_input(request)
        reason = str(request.data.get("reason", "")) if hasattr(request.data, "get") else ""
        return _match(services.match_correct_result(match=match, by=request.user, reason=reason, **v))

    @extend_schema(request=s.ResultInSerializer, responses={200: s.MatchOutSerializer, **WRITE})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def resolve(self, request: Request, pk: str | None = None) -> Response:
        """Organizers: decide a dispute with a `reason`: keep the reported result (no result given) or set one."""
        match = self.get_object()
        require_organizer(match.round.tournament, request.user)
        v = _parse(s.ResultInSerializer, request)
        given = {k: v.get(k) for k in ("wins", "games", "places") if k in v}
        if len(given) > 1:
            raise serializers.ValidationError(
                {"detail": "give at most one of: wins (with draws), games, places"}
            )
        return _match(
            services.match_resolve_dispute(
                match=match, by=request.user, reason=v.get("reason", ""), draws=v.get("draws", 0), **given
            )
        )

    @extend_schema(
        methods=["GET"],
        parameters=[
            OpenApiParameter("player", int, required=True, description="the player whose deck to show")
        ],
        responses={200: s.SideboardOptionsOutSerializer, **errors(400, 401, 403, 404)},
    )
    @extend_schema(
        methods=["POST"],
        request=s.SideboardInSerializer,
        responses={201: s.SideboardChangeOutSerializer, **WRITE},
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
    def sideboard(self, request: Request, pk: str | None = None) -> Response:
        """GET: a player's current deck and the cards that can come in (the player and organizers only).
        POST: swap cards before a game (2+); the rules engine validates the swap and the deck. Private."""
        match = self.get_object()
        if request.method == "GET":
            raw = request.query_params.get("player", "")
            if not raw.isdigit() or len(raw) > 18:
                raise serializers.ValidationError({"player": "give the id of a player of this match"})
            player = get_object_or_404(Player, pk=int(raw), tournament=match.round.tournament)
            options = services.sideboard_options(match=match, player=player, by=request.user)
            return Response(s.SideboardOptionsOutSerializer(options).data)
        v = _parse(s.SideboardInSerializer, request)
        player = get_object_or_404(Player, pk=v["player"], tournament=match.round.tournament)
        change = services.match_sideboard(
            match=match, player=player, by=request.user, game_number=v["game_number"], swaps=v["swaps"]
        )
        return Response(s.SideboardChangeOutSerializer(change).data, status=status.HTTP_201_CREATED)

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


def _result_input(request: Request) -> dict[str, Any]:
    v = _parse(s.ResultInSerializer, request)
    if sum(key in v for key in ("wins", "games", "places")) != 1:
        raise serializers.ValidationError({"detail": "give exactly one of: wins (with draws), games, places"})
    return {
        "wins": v.get("wins"),
        "draws": v.get("draws", 0),
        "games": v.get("games"),
        "places": v.get("places"),
    }
