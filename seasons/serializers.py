"""Input and output shapes of the series and ratings API (one serializer per response shape)."""

from __future__ import annotations

from rest_framework import serializers

from config.fields import StrictCharField, StrictSlugField

from .services import MAX_BEST_OF


class SeriesInSerializer(serializers.Serializer):
    name = StrictCharField(max_length=200)
    game = StrictSlugField()
    best_of = serializers.IntegerField(
        required=False, default=0, min_value=0, max_value=MAX_BEST_OF,
        help_text="each player's best N events count; 0: all",
    )  # fmt: skip
    points_table = serializers.JSONField(
        required=False, help_text="{participation, tiers: [{min_players, places}]}"
    )


class SeriesUpdateInSerializer(serializers.Serializer):
    name = StrictCharField(max_length=200, required=False)
    best_of = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=MAX_BEST_OF,
        help_text="each player's best N events count; 0: all",
    )
    points_table = serializers.JSONField(
        required=False, help_text="{participation, tiers: [{min_players, places}]}"
    )


class SeriesEventInSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(min_value=1, max_value=2**63 - 1)


class SeriesEventOutSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    name = StrictCharField()
    status = StrictCharField()
    players = serializers.IntegerField()


class SeriesOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = StrictCharField()
    game = StrictCharField()
    best_of = serializers.IntegerField()
    points_table = serializers.JSONField()
    events = SeriesEventOutSerializer(many=True)


class SeriesListOutSerializer(serializers.Serializer):
    series = SeriesOutSerializer(many=True)


class SeriesEventsOutSerializer(serializers.Serializer):
    events = SeriesEventOutSerializer(many=True)


class SeriesStandingOutSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    name = StrictCharField()
    user = StrictCharField(allow_null=True, help_text="username; null for a guest")
    points = serializers.IntegerField(help_text="points of the best N events")
    total = serializers.IntegerField(help_text="points of all events (first tiebreak)")
    events = serializers.IntegerField()
    best_place = serializers.IntegerField()
    counted = serializers.ListField(child=serializers.IntegerField(), help_text="event ids that count")


class SeriesStandingsOutSerializer(serializers.Serializer):
    series = serializers.IntegerField()
    best_of = serializers.IntegerField()
    standings = SeriesStandingOutSerializer(many=True)


class RatingOutSerializer(serializers.Serializer):
    game = StrictCharField(source="game.slug")
    rating = serializers.FloatField()
    rd = serializers.FloatField(help_text="rating deviation; about 95% sure the strength is within ±2 RD")
    volatility = serializers.FloatField()
    events = serializers.IntegerField()
    matches = serializers.IntegerField()


class HistoryEventOutSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    name = StrictCharField()
    game = StrictCharField()
    place = serializers.IntegerField()
    size = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    deck_url = StrictCharField(allow_null=True, help_text="the registered list, when it is public")


class HistoryOutSerializer(serializers.Serializer):
    user = StrictCharField()
    ratings = RatingOutSerializer(many=True)
    events = HistoryEventOutSerializer(many=True)
