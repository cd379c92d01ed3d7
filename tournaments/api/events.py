"""/api/tournaments/…: setup, joining, check-in, rounds and standings."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response

from cards.models import Game
from config.api import MissingReference, StateConflict, Unprocessable
from decks.models import Deck
from idempotency.decorators import idempotent

from .. import serializers as s
from .. import services
from ..models import Player, Round, Tournament
from ..permissions import is_organizer, require_organizer
from ..reads import selectors
from .common import (
    ID,
    IDEMPOTENCY_KEY,
    PLAYER_ID,
    READ,
    ROUND_EXAMPLE,
    ROUND_NUMBER,
    STANDINGS_EXAMPLE,
    TOURNAMENT_EXAMPLE,
    WRITE,
    JoinThrottle,
    TournamentApiView,
    errors,
    parse,
    player_response,
    round_response,
    tournament_response,
)


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
        return tournament_response(request, self.get_object())

    @extend_schema(
        request=s.TournamentInSerializer,
        responses={201: s.TournamentOutSerializer, **errors(400, 401, 403, 422)},
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
        v = parse(s.TournamentInSerializer, request)
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
            rated=v["rated"],
            late_entry_losses=v["late_entry_losses"],
            publish_decklists=v["publish_decklists"],
            decklist_timeline=v.get("decklists"),
            round_minutes=v["round_minutes"],
            draft_pairings=v["draft_pairings"],
            team_size=v["team_size"],
            team_mode=v["team_mode"],
            capacity=v.get("capacity"),
            late_entry_until_round=v["late_entry_until_round"],
        )
        return tournament_response(request, tournament, status.HTTP_201_CREATED)

    @extend_schema(
        request=s.TournamentPatchInSerializer,
        responses={200: s.TournamentOutSerializer, **WRITE, **errors(422)},
        examples=[OpenApiExample("timeline", request_only=True, value={"decklists": {
            "registration": "closed", "swiss": "archetypes", "top_cut": "open", "finished": "open"}})],
    )  # fmt: skip
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        """Change settings that stay editable all event long: the deck list timeline, the legacy
        publish switch, the name (organizers)."""
        tournament = self.get_object()
        v = parse(s.TournamentPatchInSerializer, request)
        fields = {"decklist_timeline" if k == "decklists" else k: value for k, value in v.items()}
        services.tournament_update(tournament=tournament, by=request.user, **fields)
        tournament.refresh_from_db()
        return tournament_response(request, tournament, status.HTTP_200_OK)

    @extend_schema(
        methods=["POST"],
        request=s.PlayerInSerializer,
        responses={201: s.PlayerOutSerializer, 202: s.EntryRequestOutSerializer, **WRITE, **errors(409, 422)},
        examples=[
            OpenApiExample("guest", value={"name": "Guest Player"}, request_only=True),
            OpenApiExample(
                "an account (organizers; late entry after the start)",
                value={"username": "erin"},
                request_only=True,
            ),
            OpenApiExample("self with deck", value={"deck": 12}, request_only=True),
        ],
    )
    @extend_schema(methods=["GET"], responses={200: s.PlayersOutSerializer, **READ})
    @action(detail=True, methods=["get", "post"])
    def players(self, request: Request, pk: str | None = None) -> Response:
        """List the players (GET; ``place`` once finished) or register one (POST): yourself, or (organizers)
        a guest by ``name`` or an existing account by ``username``. An account with a ``deck`` of that
        player's own is only asked (202): nothing is registered until they accept on their phone; a deck of
        your own is your copy of their list, registered at once and marked ``deck_entered_by_organizer``.
        After the start, while late entry is open, an organizer's POST adds a late entry that plays from the
        next round. Past the event's cap the entry is ``waitlisted``."""
        tournament = self.get_object()
        if request.method == "GET":
            players, context = selectors.players_listing(tournament)
            return Response(s.PlayersOutSerializer({"players": players}, context=context).data)
        v = parse(s.PlayerInSerializer, request)
        organizer = is_organizer(tournament, request.user)
        if "username" in v:
            require_organizer(tournament, request.user)
            user = services.user_by_username(v["username"])
            proposed = _players_own_deck(v.get("deck"), user)
            if proposed is not None:
                # A deck of the named player's own: nothing is registered until they accept on their phone.
                asked = services.entry_request_create(
                    tournament=tournament, by=request.user, user=user, deck=proposed
                )
                return Response(s.EntryRequestOutSerializer(asked).data, status=status.HTTP_202_ACCEPTED)
        else:
            # An organizer naming someone adds a guest; anyone else registers themselves, with the join code.
            user = None if organizer and v.get("name") else request.user
            services.join_code_check(tournament=tournament, by=request.user, code=v.get("code", ""))
        deck, payload = deck_arg(v.get("deck"), request.user)
        pool = v.get("pool")
        if pool is not None and not isinstance(pool, dict):
            raise serializers.ValidationError(
                {"pool": "give the pool as {sections: {slug: [{card, count}]}}"}
            )
        # The list is judged before the write transaction opens (SQLite: one writer for the whole venue);
        # registration and its deck then succeed or fail together: an illegal deck leaves no player behind.
        judged = None
        if deck is not None or payload is not None:
            judged = judge_for_api(
                tournament=tournament, by=request.user, deck=deck, payload=payload, pool=pool
            )
        with transaction.atomic():
            if tournament.status == Tournament.Status.RUNNING and organizer:
                # As before the start: no name and no username is the organizer entering themselves.
                player = services.player_add_late(
                    tournament=tournament, by=request.user, name=v.get("name", ""),
                    user=user if "username" in v or not v.get("name") else None,
                )  # fmt: skip
            else:
                player = services.player_register(
                    tournament=tournament, by=request.user, user=user, name=v.get("name", "")
                )
            if judged is not None:
                services.player_submit_deck(player=player, by=request.user, judged=judged)
            if "publish_consent" in v:
                services.player_consent_set(player=player, by=request.user, consent=v["publish_consent"])
        return player_response(player, status.HTTP_201_CREATED)

    @extend_schema(
        request=s.JoinInSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: s.PlayerOutSerializer, **errors(400, 401, 403, 404, 409, 422, 429)},
        examples=[OpenApiExample("join", value={"code": "K7M3QX", "deck": 12}, request_only=True)],
    )
    @action(
        detail=False, methods=["post"], permission_classes=[IsAuthenticated], throttle_classes=[JoinThrottle]
    )
    @idempotent
    def join(self, request: Request) -> Response:
        """Join an event with its join code, optionally with one of your decks or a pasted list. After the
        start the code works while late entry is open (you play from the next round). When a guest entry of
        the event has your name the join is refused with the entry's id: send ``claim`` with it ("this is
        me") or ``new_entry: true``. Past the event's cap the entry is ``waitlisted``."""
        v = parse(s.JoinInSerializer, request)
        deck, payload = deck_arg(v.get("deck"), request.user)
        text = v.get("list", "")
        judged = None
        if deck is not None or payload is not None or text.strip():
            # Parsed and judged before the write transaction opens (SQLite: one writer for the whole venue).
            judged = judge_for_api(
                tournament=services.tournament_by_join_code(v["code"]), by=request.user, deck=deck,
                payload=payload, text=text,
            )  # fmt: skip
        with transaction.atomic():
            if "claim" in v:
                claimed = Player.objects.filter(pk=v["claim"]).first()
                if claimed is None:
                    raise NotFound({"claim": f"no entry {v['claim']}"})
                player = services.player_claim(code=v["code"], player=claimed, by=request.user)
                if judged is not None:
                    services.player_submit_deck(player=player, by=request.user, judged=judged)
            else:
                player = services.player_join(code=v["code"], by=request.user, judged=judged,
                                              new_entry=v["new_entry"])  # fmt: skip
            if "publish_consent" in v:
                services.player_consent_set(player=player, by=request.user, consent=v["publish_consent"])
        return player_response(player, status.HTTP_201_CREATED)

    @extend_schema(
        request=s.BulkPlayersInSerializer,
        responses={201: s.PlayersOutSerializer, **WRITE, **errors(409, 422)},
        examples=[OpenApiExample("names", value={"names": ["Ann", "Boris", "Chen"]}, request_only=True)],
    )
    @action(detail=True, methods=["post"], url_path="players/bulk")
    def bulk(self, request: Request, pk: str | None = None) -> Response:
        """Organizers: add many guests at once, by names or CSV rows ``name[,deck list]`` (all or none)."""
        tournament = self.get_object()
        require_organizer(tournament, request.user)
        v = parse(s.BulkPlayersInSerializer, request)
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
        v = parse(s.RenameInSerializer, request)
        return player_response(services.player_rename(player=player, by=request.user, name=v["name"]))

    @extend_schema(
        parameters=[PLAYER_ID], request=s.LinkInSerializer, responses={200: s.PlayerOutSerializer, **WRITE}
    )
    @action(detail=True, methods=["post"], url_path=rf"players/(?P<player_id>{ID})/link")
    def link(self, request: Request, pk: str | None = None, player_id: str | None = None) -> Response:
        """Organizers: a guest entry (added by name) now belongs to the account ``username`` (audited)."""
        player = self._player(player_id)
        require_organizer(player.tournament, request.user)
        v = parse(s.LinkInSerializer, request)
        return player_response(services.player_link(player=player, by=request.user, username=v["username"]))

    @extend_schema(
        parameters=[PLAYER_ID, IDEMPOTENCY_KEY],
        request=s.CheckInInSerializer,
        responses={200: s.PlayerOutSerializer, **WRITE, **errors(422)},
    )
    @action(detail=True, methods=["post"], url_path=rf"players/(?P<player_id>{ID})/check-in")
    @idempotent
    def check_in(self, request: Request, pk: str | None = None, player_id: str | None = None) -> Response:
        """Check in (yourself while check-in is open; organizers mark anyone). ``present: false`` undoes it."""
        player = self._player(player_id)
        v = parse(s.CheckInInSerializer, request)
        return player_response(services.player_check_in(player=player, by=request.user, present=v["present"]))

    @extend_schema(request=None, responses={200: s.TournamentOutSerializer, **WRITE})
    @action(detail=True, methods=["post"], url_path="check-in")
    def open_check_in(self, request: Request, pk: str | None = None) -> Response:
        """Organizers: open check-in. Starting the event then drops whoever has not checked in."""
        return tournament_response(
            request, services.checkin_open(tournament=self.get_object(), by=request.user)
        )

    @extend_schema(request=None, responses={200: s.TournamentOutSerializer, **WRITE})
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str | None = None) -> Response:
        """Organizers: start the event (drops the no-shows when check-in was opened); then pair round 1."""
        return tournament_response(
            request, services.tournament_start(tournament=self.get_object(), by=request.user)
        )

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
        return player_response(services.player_drop(player=self._player(player_id), by=request.user))

    @extend_schema(parameters=[PLAYER_ID], request=None, responses={200: s.PlayerOutSerializer, **WRITE})
    @action(detail=True, methods=["post"], url_path=rf"players/(?P<player_id>{ID})/undo-drop")
    def undo_drop(self, request: Request, pk: str | None = None, player_id: str | None = None) -> Response:
        """Organizers: take a drop back while the player has not missed a pairing."""
        return player_response(services.player_drop_undo(player=self._player(player_id), by=request.user))

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
            visible = tournament.round_set.order_by("number")
            if not is_organizer(tournament, request.user):
                visible = visible.filter(draft=False)  # a draft round is the organizers' until published
            rounds = [selectors.round_payload(r) for r in visible]
            return Response(s.RoundsOutSerializer({"rounds": rounds}).data)
        return round_response(
            services.round_pair_next(tournament=tournament, by=request.user), status.HTTP_201_CREATED
        )

    @extend_schema(parameters=[ROUND_NUMBER], request=None, responses={200: s.RoundOutSerializer, **WRITE})
    @action(detail=True, methods=["post"], url_path=rf"rounds/(?P<number>{ID})/repair")
    def repair(self, request: Request, pk: str | None = None, number: str | None = None) -> Response:
        """Pair a round again; only while none of its matches has a result."""
        round_ = get_object_or_404(Round, tournament=self.get_object(), number=number)
        return round_response(services.round_repair(round_=round_, by=request.user))

    @extend_schema(parameters=[ROUND_NUMBER], request=None, responses={200: s.RoundOutSerializer, **WRITE})
    @action(detail=True, methods=["post"], url_path=rf"rounds/(?P<number>{ID})/publish")
    def publish(self, request: Request, pk: str | None = None, number: str | None = None) -> Response:
        """Organizers: publish a round paired as a draft; players, phones and the projector see it from now."""
        round_ = get_object_or_404(Round, tournament=self.get_object(), number=number)
        return round_response(services.round_publish(round_=round_, by=request.user))

    @extend_schema(
        parameters=[ROUND_NUMBER], request=s.TimerInSerializer, responses={200: s.TimerOutSerializer, **WRITE}
    )
    @action(detail=True, methods=["post"], url_path=rf"rounds/(?P<number>{ID})/timer")
    def timer(self, request: Request, pk: str | None = None, number: str | None = None) -> Response:
        """Organizers: start the round clock (``minutes``, default the event's round time)."""
        tournament = self.get_object()
        round_ = get_object_or_404(Round, tournament=tournament, number=number)
        require_organizer(tournament, request.user)  # who may, before what they sent
        v = parse(s.TimerInSerializer, request)
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
        return tournament_response(
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
        return round_response(round_, status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: s.TournamentOutSerializer, **WRITE})
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, pk: str | None = None) -> Response:
        """Finish the event: after the last Swiss round, or after the final of the top cut."""
        return tournament_response(
            request, services.tournament_finish(tournament=self.get_object(), by=request.user)
        )


def _players_own_deck(value: Any, user: Any) -> Any:
    """The deck ``value`` names when it is ``user``'s own (an organizer proposing it for them), else None."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value <= 2**63 - 1:
        return Deck.objects.filter(pk=value, owner=user).first()
    return None


def judge_for_api(**kwargs: Any) -> Any:
    """``services.registration_deck_judge`` with its refusals as README "Errors" states them: a list that the
    schema allows but names cards this game lacks, is another game's deck, cannot be read, is given for a
    game played without decks, or is not legal for the event's format and ban list cannot go with the event
    (422). A refusal that already has its own
    status (the code names no event: 404; the event's state: 409) keeps it."""
    try:
        return services.registration_deck_judge(**kwargs)
    except DjangoValidationError as error:
        if isinstance(error, (MissingReference, StateConflict, Unprocessable)):
            raise
        raise Unprocessable(error.message_dict if hasattr(error, "error_dict") else error.messages) from None


def deck_arg(value: Any, user: Any) -> tuple[Any, Any]:
    if value is None:
        return None, None
    if isinstance(value, int) and not isinstance(value, bool):
        deck = Deck.objects.filter(pk=value).first() if 0 < value <= 2**63 - 1 else None
        if deck is None or not deck.readable_by(user):  # another's private deck is 404, as a missing one
            raise NotFound({"deck": f"no deck {value} that you can read"})
        return deck, None
    if isinstance(value, dict):
        return None, value
    raise serializers.ValidationError({"deck": "give a deck id or an inline list {sections: {...}}"})
