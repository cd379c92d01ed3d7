"""REST API for tournaments. Integrations rely on these shapes: keep them stable (see the OpenAPI schema).

Views only parse input and call services; permissions are enforced by the services themselves.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from cards.models import Game

from . import selectors, services
from .models import Match, MatchSeat, Player, Round, Tournament
from .permissions import is_organizer

# --- output shapes ----------------------------------------------------------------------------------------


def tournament_json(t: Tournament) -> dict[str, Any]:
    return {
        "id": t.pk,
        "name": t.name,
        "game": t.game.slug,
        "format": t.format_slug,
        "match_format": t.match_format,
        "tiebreakers": t.tiebreakers,
        "rounds": t.rounds,
        "top_cut": t.top_cut,
        "seed": t.seed,
        "status": t.status,
        "deck_registration": t.deck_registration,
        "registration_deadline": t.registration_deadline,
        "banlist": t.banlist_id,
        "on_date": t.on_date,
        "allow_sideboard": t.allow_sideboard,
        "late_entry_losses": t.late_entry_losses,
        "publish_decklists": t.publish_decklists,
        "round_minutes": t.round_minutes,
        "players": t.player_count if hasattr(t, "player_count") else t.players.count(),
        "rounds_paired": t.round_set.count(),
    }


def player_json(p: Player) -> dict[str, Any]:
    return {
        "id": p.pk,
        "name": p.name,
        "user": p.user_id,
        "dropped": p.dropped_at_round is not None,
        "dropped_at_round": p.dropped_at_round,
        "joined_round": p.joined_round,
        "has_deck": p.deck is not None,
    }


def match_json(m: Match, seats: list[MatchSeat] | None = None) -> dict[str, Any]:
    seats = seats if seats is not None else sorted(m.seats.all(), key=lambda s: s.seat)
    data: dict[str, Any] = {
        "id": m.pk,
        "table": m.table,
        "players": [s.player_id for s in seats],
        "bye": m.bye,
        "status": m.status,
    }
    if m.status != Match.Status.PENDING:
        if any(s.place is not None for s in seats) and not m.bye:
            data["places"] = [
                {"player": s.player_id, "place": s.place, "score": s.score, "tiebreak": s.tiebreak}
                for s in seats
            ]
        else:
            data["wins"] = [s.wins for s in seats]
            data["draws"] = m.draws
    return data


def round_json(r: Round) -> dict[str, Any]:
    # Plain values, two queries: a 4,096-player round is serialised without building 6,000 model instances.
    players: dict[int, list[int]] = {}
    wins: dict[int, list[int]] = {}
    for mid, pid, w in (
        MatchSeat.objects.filter(match__round=r)
        .order_by("match_id", "seat")
        .values_list("match_id", "player_id", "wins")
    ):
        players.setdefault(mid, []).append(pid)
        wins.setdefault(mid, []).append(w)
    body = []
    for mid, table, bye, state, draws in r.matches.order_by("table").values_list(
        "id", "table", "bye", "status", "draws"
    ):
        item: dict[str, Any] = {
            "id": mid,
            "table": table,
            "players": players.get(mid, []),
            "bye": bye,
            "status": state,
        }
        if state != Match.Status.PENDING:
            item["wins"] = wins.get(mid, [])
            item["draws"] = draws
        body.append(item)
    return {
        "number": r.number,
        "kind": r.kind,
        "seed": r.seed,
        "timer_ends_at": r.timer_ends_at,
        "matches": body,
    }


# --- input shapes -----------------------------------------------------------------------------------------


class TournamentInSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    game = serializers.SlugField()
    format = serializers.SlugField()
    match_format = serializers.ChoiceField(choices=Tournament.MatchFormat.values, required=False)
    tiebreakers = serializers.ChoiceField(choices=Tournament.Tiebreakers.values, required=False)
    rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=30)
    top_cut = serializers.IntegerField(required=False, min_value=0, default=0)
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    deck_registration = serializers.BooleanField(required=False, default=False)
    registration_deadline = serializers.DateTimeField(required=False, allow_null=True)
    on_date = serializers.DateField(required=False, allow_null=True)
    allow_sideboard = serializers.BooleanField(required=False, default=False)
    late_entry_losses = serializers.BooleanField(required=False, default=True)
    publish_decklists = serializers.BooleanField(required=False, default=False)
    round_minutes = serializers.IntegerField(required=False, default=50, min_value=1, max_value=600)


class PlayerInSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=150, required=False, allow_blank=True)
    deck = serializers.JSONField(
        required=False,
        allow_null=True,
        help_text="A deck id of yours, or an inline list {hero?, sections: {slug: [{card, count}]}}.",
    )
    pool = serializers.JSONField(
        required=False,
        allow_null=True,
        help_text="Limited formats: the product the player received, {sections: {slug: [{card, count}]}}.",
    )


class ResultInSerializer(serializers.Serializer):
    wins = serializers.ListField(child=serializers.IntegerField(min_value=0), required=False)
    draws = serializers.IntegerField(required=False, default=0, min_value=0)
    games = serializers.ListField(child=serializers.DictField(), required=False)
    places = serializers.ListField(child=serializers.DictField(), required=False)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=300)


class SideboardInSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    game_number = serializers.IntegerField(min_value=1)
    swaps = serializers.ListField(child=serializers.DictField())


# Output shapes, for the OpenAPI schema (responses are built by the *_json functions above).
class TournamentOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.SlugField()
    format = serializers.SlugField()
    match_format = serializers.ChoiceField(choices=Tournament.MatchFormat.values)
    tiebreakers = serializers.ChoiceField(choices=Tournament.Tiebreakers.values)
    rounds = serializers.IntegerField(allow_null=True)
    top_cut = serializers.IntegerField()
    seed = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Tournament.Status.values)
    deck_registration = serializers.BooleanField()
    registration_deadline = serializers.DateTimeField(allow_null=True)
    banlist = serializers.IntegerField(allow_null=True)
    on_date = serializers.DateField(allow_null=True)
    allow_sideboard = serializers.BooleanField()
    late_entry_losses = serializers.BooleanField()
    publish_decklists = serializers.BooleanField()
    round_minutes = serializers.IntegerField()
    players = serializers.IntegerField()
    rounds_paired = serializers.IntegerField()


class PlayerOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    user = serializers.IntegerField(allow_null=True)
    dropped = serializers.BooleanField()
    dropped_at_round = serializers.IntegerField(allow_null=True)
    joined_round = serializers.IntegerField()
    has_deck = serializers.BooleanField()


class PlayersOutSerializer(serializers.Serializer):
    players = PlayerOutSerializer(many=True)


class PlaceOutSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)
    tiebreak = serializers.IntegerField(allow_null=True)


class MatchOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField()
    players = serializers.ListField(
        child=serializers.IntegerField(), help_text="1 id for a bye, 2 for a match, 2–4 for a pod"
    )
    bye = serializers.BooleanField()
    status = serializers.ChoiceField(choices=Match.Status.values)
    wins = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="game wins, order of players"
    )
    draws = serializers.IntegerField(required=False)
    places = PlaceOutSerializer(many=True, required=False)


class RoundOutSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Round.Kind.values)
    seed = serializers.IntegerField()
    timer_ends_at = serializers.DateTimeField(allow_null=True)
    matches = MatchOutSerializer(many=True)


class RoundsOutSerializer(serializers.Serializer):
    rounds = RoundOutSerializer(many=True)


class StandingRowOutSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    dropped = serializers.BooleanField()
    tiebreakers = serializers.DictField(
        child=serializers.FloatField(),
        help_text="mtg: omw, gw, ogw; yugioh: omw, oomw; pokemon: owp, oowp (fractions 0–1); pods: raw totals",
    )


class StandingsOutSerializer(serializers.Serializer):
    standings = StandingRowOutSerializer(many=True)


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
    "players": 0,
    "rounds_paired": 0,
}
ROUND_EXAMPLE = {
    "number": 1,
    "kind": "swiss",
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
        },
    ]
}

_match_qs = Match.objects.select_related("round__tournament__game").prefetch_related(
    Prefetch("seats", MatchSeat.objects.order_by("seat"))
)


class TournamentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Swiss tournaments: setup, registration, rounds and standings."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = TournamentInSerializer

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return selectors.tournament_list()

    @extend_schema(
        responses={200: TournamentOutSerializer(many=True)},
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response([tournament_json(t) for t in page])

    @extend_schema(
        responses={200: TournamentOutSerializer},
        examples=[OpenApiExample("tournament", value=TOURNAMENT_EXAMPLE, response_only=True)],
    )
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(tournament_json(self.get_object()))

    @extend_schema(
        request=TournamentInSerializer,
        responses={201: TournamentOutSerializer},
        examples=[
            OpenApiExample(
                "create",
                value={
                    "name": "Friday Locals",
                    "game": "yugioh",
                    "format": "advanced",
                    "match_format": "bo3",
                    "top_cut": 4,
                },
                request_only=True,
            ),
            OpenApiExample("created", value=TOURNAMENT_EXAMPLE, response_only=True),
        ],
    )
    def create(self, request: Request) -> Response:
        data = TournamentInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
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
        return Response(tournament_json(tournament), status=status.HTTP_201_CREATED)

    @extend_schema(
        methods=["POST"],
        request=PlayerInSerializer,
        responses={201: PlayerOutSerializer},
        examples=[
            OpenApiExample("guest", value={"name": "Guest Player"}, request_only=True),
            OpenApiExample("self with deck", value={"deck": 12}, request_only=True),
            OpenApiExample(
                "registered",
                value={
                    "id": 4,
                    "name": "Alice",
                    "user": 2,
                    "dropped": False,
                    "dropped_at_round": None,
                    "joined_round": 1,
                    "has_deck": True,
                },
                response_only=True,
            ),
        ],
    )
    @extend_schema(
        methods=["GET"],
        responses={200: PlayersOutSerializer},
    )
    @action(detail=True, methods=["get", "post"])
    def players(self, request: Request, pk: str | None = None) -> Response:
        """List the players (GET) or register one (POST): yourself, or a guest by name (organizers)."""
        tournament = self.get_object()
        if request.method == "GET":
            return Response({"players": [player_json(p) for p in tournament.players.order_by("name", "id")]})
        data = PlayerInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        deck, payload = _deck_arg(v.get("deck"), request.user)
        # An organizer naming someone adds a guest; anyone else registers themselves.
        user = None if is_organizer(tournament, request.user) and v.get("name") else request.user
        pool = v.get("pool")
        if pool is not None and not isinstance(pool, dict):
            raise serializers.ValidationError(
                {"pool": "give the pool as {sections: {slug: [{card, count}]}}"}
            )
        # Registration and its deck succeed or fail together: an illegal deck leaves no player behind.
        with transaction.atomic():
            if tournament.status == Tournament.Status.RUNNING and is_organizer(tournament, request.user):
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
        return Response(player_json(player), status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: PlayerOutSerializer})
    @action(detail=True, methods=["post"], url_path=r"players/(?P<player_id>\d+)/drop")
    def drop(self, request: Request, pk: str | None = None, player_id: str | None = None) -> Response:
        """Drop a player (yourself, or anyone as an organizer): never paired again, still in the standings."""
        tournament = self.get_object()
        player = get_object_or_404(Player, pk=player_id, tournament=tournament)
        player = services.player_drop(player=player, by=request.user)
        return Response(player_json(player))

    @extend_schema(
        methods=["POST"],
        request=None,
        responses={201: RoundOutSerializer},
        examples=[OpenApiExample("round", value=ROUND_EXAMPLE, response_only=True)],
    )
    @extend_schema(methods=["GET"], responses={200: RoundsOutSerializer})
    @action(detail=True, methods=["get", "post"])
    def rounds(self, request: Request, pk: str | None = None) -> Response:
        """Pair the next round (POST, organizers) or list every round with its matches (GET)."""
        tournament = self.get_object()
        if request.method == "GET":
            return Response({"rounds": [round_json(r) for r in tournament.round_set.order_by("number")]})
        round_ = services.round_pair_next(tournament=tournament, by=request.user)
        return Response(round_json(round_), status=status.HTTP_201_CREATED)

    @extend_schema(
        request=None,
        responses={200: RoundOutSerializer},
    )
    @action(detail=True, methods=["post"], url_path=r"rounds/(?P<number>\d+)/repair")
    def repair(self, request: Request, pk: str | None = None, number: str | None = None) -> Response:
        """Pair a round again; only while none of its matches has a result."""
        tournament = self.get_object()
        round_ = get_object_or_404(Round, tournament=tournament, number=number)
        return Response(round_json(services.round_repair(round_=round_, by=request.user)))

    @extend_schema(
        request=inline_serializer("TimerIn", {"minutes": serializers.IntegerField(required=False)}),
        responses={200: inline_serializer("Timer", {"timer_ends_at": serializers.DateTimeField()})},
    )
    @action(detail=True, methods=["post"], url_path=r"rounds/(?P<number>\d+)/timer")
    def timer(self, request: Request, pk: str | None = None, number: str | None = None) -> Response:
        tournament = self.get_object()
        round_ = get_object_or_404(Round, tournament=tournament, number=number)
        minutes = request.data.get("minutes") if hasattr(request.data, "get") else None
        round_ = services.round_timer_start(
            round_=round_, by=request.user, minutes=int(minutes) if minutes else None
        )
        return Response({"number": round_.number, "timer_ends_at": round_.timer_ends_at})

    @extend_schema(
        responses={200: StandingsOutSerializer},
        examples=[OpenApiExample("standings", value=STANDINGS_EXAMPLE, response_only=True)],
    )
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """Swiss standings; tiebreakers are fractions between 0 and 1 (mtg: omw/gw/ogw, yugioh: omw/oomw,
        pokemon: owp/oowp; pods: raw totals tiebreak/tiebreak2/opp)."""
        return Response({"standings": selectors.standings_compute(tournament=self.get_object())})

    @extend_schema(request=None, responses={200: TournamentOutSerializer})
    @action(detail=True, methods=["post"])
    def freeze(self, request: Request, pk: str | None = None) -> Response:
        """Close registration and freeze the registered deck lists."""
        return Response(
            tournament_json(services.registration_freeze(tournament=self.get_object(), by=request.user))
        )

    @extend_schema(request=None, responses={200: RoundOutSerializer})
    @action(detail=True, methods=["post"], url_path="topcut")
    def topcut(self, request: Request, pk: str | None = None) -> Response:
        """Start the top cut after the last Swiss round, or pair its next round; after the final: finished."""
        tournament = self.get_object()
        if tournament.status == Tournament.Status.TOP_CUT:
            round_ = services.topcut_advance(tournament=tournament, by=request.user)
        else:
            round_ = services.topcut_start(tournament=tournament, by=request.user)
        if round_ is None:
            return Response({"status": Tournament.Status.FINISHED})
        return Response(round_json(round_), status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: TournamentOutSerializer})
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, pk: str | None = None) -> Response:
        return Response(
            tournament_json(services.tournament_finish(tournament=self.get_object(), by=request.user))
        )


def _deck_arg(value: Any, user: Any) -> tuple[Any, Any]:
    if value is None:
        return None, None
    if isinstance(value, int) and not isinstance(value, bool):
        from decks.models import Deck

        deck = Deck.objects.filter(pk=value).first()
        if deck is None or not deck.readable_by(user):
            raise serializers.ValidationError({"deck": f"no deck {value} that you can read"})
        return deck, None
    if isinstance(value, dict):
        return None, value
    raise serializers.ValidationError({"deck": "give a deck id or an inline list {sections: {...}}"})


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
            "table": 1,
            "players": [4, 9],
            "bye": False,
            "status": "reported",
            "wins": [2, 1],
            "draws": 0,
        },
        response_only=True,
    ),
]


class MatchViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Matches: results (report → confirm, or entered by an organizer), corrections, sideboarding, audit."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    queryset = _match_qs

    @extend_schema(responses={200: MatchOutSerializer})
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(match_json(self.get_object()))

    @extend_schema(
        request=ResultInSerializer,
        responses={200: MatchOutSerializer},
        examples=RESULT_EXAMPLES,
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def result(self, request: Request, pk: str | None = None) -> Response:
        """Report a result: `{"wins": [w1, w2], "draws": d}` in the order of `players`, or
        `{"games": [{"winner": id|null, "first": id}]}`; pods: `{"places": [{"player", "score", "tiebreak"}]}`.
        A player's report waits for the opponent's confirmation; an organizer's entry is final."""
        v = _result_input(request)
        match = services.match_report_result(match=self.get_object(), by=request.user, **v)
        return Response(match_json(_match_qs.get(pk=match.pk)))

    @extend_schema(request=None, responses={200: MatchOutSerializer})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        match = services.match_confirm_result(match=self.get_object(), by=request.user)
        return Response(match_json(_match_qs.get(pk=match.pk)))

    @extend_schema(
        request=inline_serializer("DisputeIn", {"reason": serializers.CharField(required=False)}),
        responses={200: MatchOutSerializer},
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def dispute(self, request: Request, pk: str | None = None) -> Response:
        reason = str(request.data.get("reason", ""))[:300] if hasattr(request.data, "get") else ""
        match = services.match_dispute(match=self.get_object(), by=request.user, reason=reason)
        return Response(match_json(_match_qs.get(pk=match.pk)))

    @extend_schema(
        request=ResultInSerializer,
        responses={200: MatchOutSerializer},
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def correct(self, request: Request, pk: str | None = None) -> Response:
        """Organizers: set any result; the change is recorded in the audit trail (who, when, old → new)."""
        v = _result_input(request)
        reason = str(request.data.get("reason", "")) if hasattr(request.data, "get") else ""
        match = services.match_correct_result(match=self.get_object(), by=request.user, reason=reason, **v)
        return Response(match_json(_match_qs.get(pk=match.pk)))

    @extend_schema(
        request=SideboardInSerializer,
        responses={201: inline_serializer("SideboardOut", {"id": serializers.IntegerField()})},
        examples=[
            OpenApiExample(
                "one for one",
                request_only=True,
                value={
                    "player": 4,
                    "game_number": 2,
                    "swaps": [{"section": "main", "out": "12345678", "in": "87654321", "count": 1}],
                },
            )
        ],
    )
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def sideboard(self, request: Request, pk: str | None = None) -> Response:
        """Swap cards before a game (2+) of this match; the rules engine validates the swap and the deck."""
        data = SideboardInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = self.get_object()
        player = get_object_or_404(
            Player, pk=data.validated_data["player"], tournament=match.round.tournament
        )
        change = services.match_sideboard(
            match=match,
            player=player,
            by=request.user,
            game_number=data.validated_data["game_number"],
            swaps=data.validated_data["swaps"],
        )
        return Response(
            {
                "id": change.pk,
                "game_number": change.game_number,
                "player": player.pk,
                "deck": change.deck,
                "report": change.report,
            },
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(responses={200: inline_serializer("Audit", {"changes": serializers.ListField()})})
    @action(detail=True, methods=["get"], permission_classes=[IsAuthenticated])
    def audit(self, request: Request, pk: str | None = None) -> Response:
        """Every change to this match's result (organizers and the match's players)."""
        match = self.get_object()
        tournament = match.round.tournament
        mine = any(s.player.user_id == request.user.id for s in match.seats.select_related("player"))
        if not (is_organizer(tournament, request.user) or mine):
            from rest_framework.exceptions import PermissionDenied

            raise PermissionDenied("only organizers and the match's players see its audit trail")
        return Response(
            {
                "changes": [
                    {
                        "changed_by": c.changed_by.username if c.changed_by else None,
                        "changed_at": c.changed_at,
                        "action": c.action,
                        "old": c.old,
                        "new": c.new,
                        "reason": c.reason,
                    }
                    for c in selectors.match_audit(match)
                ]
            }
        )


def _result_input(request: Request) -> dict[str, Any]:
    data = ResultInSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    v = data.validated_data
    if sum(key in v for key in ("wins", "games", "places")) != 1:
        raise serializers.ValidationError("give exactly one of: wins (with draws), games, places")
    return {
        "wins": v.get("wins"),
        "draws": v.get("draws", 0),
        "games": v.get("games"),
        "places": v.get("places"),
    }
