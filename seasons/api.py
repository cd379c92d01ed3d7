"""/api/series/… (store leagues and seasons) and /api/players/{username}/history/ (events and ratings)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.urls import reverse
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cards.models import Game
from config.api import ApiErrorOutSerializer, MissingReference
from tournaments.models import Tournament

from . import selectors, services
from . import serializers as s
from .models import Series

ERR = ApiErrorOutSerializer


def parse(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    data = serializer_class(data=request.data)
    data.is_valid(raise_exception=True)
    return dict(data.validated_data)


def event_payloads(series: Series) -> list[dict[str, Any]]:
    return [
        {"tournament": t.pk, "name": t.name, "status": t.status, "players": t.playing}
        # Players are the entrants who took a place: not the waitlist, not those who dropped before round 1,
        # not no-shows (the same people the series' points count).
        for t in Tournament.objects.filter(pk__in=series.series_events.values("tournament_id"))
        .annotate(
            playing=Count(
                "players",
                filter=Q(players__waitlisted=False, players__no_show=False)
                & (Q(players__dropped_at_round__isnull=True) | Q(players__dropped_at_round__gt=0)),
            )
        )
        .order_by("created_at", "id")
    ]


def series_payload(series: Series) -> dict[str, Any]:
    return {
        "id": series.pk, "name": series.name, "game": series.game.slug, "best_of": series.best_of,
        "points_table": series.points_table, "events": event_payloads(series),
    }  # fmt: skip


class SeriesListView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="series_list", responses={200: s.SeriesListOutSerializer})
    def get(self, request: Request) -> Response:
        """Every series (newest first)."""
        rows = [series_payload(x) for x in selectors.series_list()[:200]]
        return Response(s.SeriesListOutSerializer({"series": rows}).data)

    @extend_schema(
        operation_id="series_create",
        request=s.SeriesInSerializer,
        responses={201: s.SeriesOutSerializer, 400: ERR, 401: ERR, 403: ERR},
        examples=[OpenApiExample("league", value={"name": "Spring League", "game": "yugioh", "best_of": 4},
                                 request_only=True)],
    )  # fmt: skip
    def post(self, request: Request) -> Response:
        """Organizers: a series of events of one game; each player's best ``best_of`` events count (0: all).
        ``points_table`` (optional) gives points by place and event size."""
        v = parse(s.SeriesInSerializer, request)
        game = Game.objects.filter(slug=v["game"]).first()
        if game is None:
            raise serializers.ValidationError({"game": f"unknown game {v['game']!r}"})
        series = services.series_create(
            by=request.user,
            name=v["name"],
            game=game,
            best_of=v["best_of"],
            points_table=v.get("points_table"),
        )
        return Response(s.SeriesOutSerializer(series_payload(series)).data, status=status.HTTP_201_CREATED)


class SeriesDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="series_retrieve", responses={200: s.SeriesOutSerializer, 404: ERR})
    def get(self, request: Request, pk: str) -> Response:
        series = get_object_or_404(selectors.series_list(), pk=pk)
        return Response(s.SeriesOutSerializer(series_payload(series)).data)

    @extend_schema(
        operation_id="series_update",
        request=s.SeriesUpdateInSerializer,
        responses={200: s.SeriesOutSerializer, 400: ERR, 401: ERR, 403: ERR, 404: ERR},
        examples=[OpenApiExample("best four", value={"best_of": 4}, request_only=True)],
    )
    def patch(self, request: Request, pk: str) -> Response:
        """The series' organizer changes its name, best N or points table (what is left out stays)."""
        series = get_object_or_404(selectors.series_list(), pk=pk)
        v = parse(s.SeriesUpdateInSerializer, request)
        series = services.series_update(series=series, by=request.user, **v)
        return Response(s.SeriesOutSerializer(series_payload(series)).data)


class SeriesEventDetailView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="series_events_remove", responses={204: None, 400: ERR, 401: ERR, 403: ERR, 404: ERR}
    )
    def delete(self, request: Request, pk: str, tournament_id: str) -> Response:
        """The series' organizer takes an event out of the series."""
        series = get_object_or_404(Series, pk=pk)
        tournament = get_object_or_404(Tournament, pk=tournament_id)
        services.series_remove_event(series=series, by=request.user, tournament=tournament)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeriesEventsView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="series_events_list", responses={200: s.SeriesEventsOutSerializer, 404: ERR})
    def get(self, request: Request, pk: str) -> Response:
        series = get_object_or_404(Series, pk=pk)
        return Response(s.SeriesEventsOutSerializer({"events": event_payloads(series)}).data)

    @extend_schema(
        operation_id="series_events_add",
        request=s.SeriesEventInSerializer,
        responses={201: s.SeriesEventsOutSerializer, 400: ERR, 401: ERR, 403: ERR, 404: ERR, 422: ERR},
        examples=[OpenApiExample("add", value={"tournament": 12}, request_only=True)],
    )
    def post(self, request: Request, pk: str) -> Response:
        """The series' organizer adds an event they organize, of the series' game."""
        series = get_object_or_404(Series.objects.select_related("game"), pk=pk)
        services.require_series_owner(series, request.user)
        v = parse(s.SeriesEventInSerializer, request)
        tournament = Tournament.objects.select_related("game").filter(pk=v["tournament"]).first()
        if tournament is None:
            # An id in the body naming no event: 404, as in the path (README "Errors").
            raise MissingReference({"tournament": f"no event {v['tournament']}"})
        services.series_add_event(series=series, by=request.user, tournament=tournament)
        return Response(
            s.SeriesEventsOutSerializer({"events": event_payloads(series)}).data,
            status=status.HTTP_201_CREATED,
        )


class SeriesStandingsView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="series_standings", responses={200: s.SeriesStandingsOutSerializer, 404: ERR})
    def get(self, request: Request, pk: str) -> Response:
        """Players by the points of their best N events; ties: all points, best place, events played, name.
        Finished events count as frozen; a running event by its current standings."""
        series = get_object_or_404(Series, pk=pk)
        rows, usernames = selectors.series_standings_compute(series)
        body = [
            {"rank": r.rank, "name": r.name, "user": usernames.get(r.key), "points": r.points, "total": r.total,
             "events": r.events, "best_place": r.best_place, "counted": r.counted}
            for r in rows
        ]  # fmt: skip
        return Response(
            s.SeriesStandingsOutSerializer(
                {"series": series.pk, "best_of": series.best_of, "standings": body}
            ).data
        )


class PlayerHistoryView(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="player_history", responses={200: s.HistoryOutSerializer, 404: ERR})
    def get(self, request: Request, username: str) -> Response:
        """An account's finished events (place, record, deck list link when public) and ratings per game."""
        user = get_object_or_404(get_user_model(), username=username, is_active=True)
        history = selectors.player_history(user, request.user)
        events = [
            {"tournament": e["tournament"].pk, "name": e["tournament"].name, "game": e["tournament"].game.slug,
             "place": e["place"], "size": e["size"], "wins": e["record"][0], "losses": e["record"][1],
             "draws": e["record"][2],
             "deck_url": reverse("tournaments:player_deck", args=[e["tournament"].pk, e["deck_player"].pk])
             if e["deck_player"] else None}
            for e in history["events"]
        ]  # fmt: skip
        return Response(
            s.HistoryOutSerializer(
                {"user": user.username, "ratings": history["ratings"], "events": events}
            ).data
        )
