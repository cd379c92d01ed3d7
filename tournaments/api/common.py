"""What the tournament API's views share: documented error statuses, the 409 for a stale confirm, how a
response is produced from its output serializer, input parsing, and the examples the schema shows."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle

from config.api import ApiErrorOutSerializer
from config.api import exception_handler as site_exception_handler
from config.converters import DIGITS

from .. import serializers as s
from .. import services
from ..models import Match, Player, Round, Tournament
from ..reads import selectors

# Path ids are digits (as config.converters' <id:…>): a fixed route such as tournaments/join/ can never be
# read as an id, and anything else matches no route and gets the API's JSON 404 (config.errors.not_found).
# Up to 18 digits, as <id:…> (config.converters.DIGITS): a longer id matches no route either.
ID = DIGITS
PLAYER_ID = OpenApiParameter("player_id", int, OpenApiParameter.PATH)
# Writes from phones (idempotency/decorators.py): a retry whose first answer was lost is not applied twice.
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="A one-time key of your choice (1–255 visible ASCII characters, e.g. a UUID). The same key "
    "again answers the first answer unchanged, without applying anything (header `Idempotent-Replayed: "
    "true`); the same key with another request answers 422. Keys are per user and expire after 24 hours.",
)
ROUND_NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH)
ERR = ApiErrorOutSerializer


def errors(*codes: int) -> dict[int, Any]:
    """The documented error statuses of an operation; each body is an object naming what is wrong."""
    return {code: s.ConflictOutSerializer if code == 409 else ERR for code in codes}


READ = errors(404)
WRITE = errors(400, 401, 403, 404)  # and 415 for any operation with a body (config/openapi.py)


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


def tournament_response(request: Request, t: Tournament, code: int = status.HTTP_200_OK) -> Response:
    return Response(s.TournamentOutSerializer(t, context={"request": request}).data, status=code)


def player_response(p: Player, code: int = status.HTTP_200_OK) -> Response:
    return Response(s.PlayerOutSerializer(p).data, status=code)


def round_response(r: Round, code: int = status.HTTP_200_OK) -> Response:
    return Response(s.RoundOutSerializer(selectors.round_payload(r)).data, status=code)


def match_response(m: Match) -> Response:
    return Response(s.MatchOutSerializer(selectors.match_payload(selectors.match_for_api(m.pk))).data)


def parse(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
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
    "rated": True,
    "late_entry_losses": True,
    "publish_decklists": False,
    "decklists": {"registration": "closed", "swiss": "archetypes", "top_cut": "open", "finished": "open"},
    "round_minutes": 50,
    "draft_pairings": False,
    "capacity": 32,
    "late_entry_until_round": 2,
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
    "draft": False,
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
