"""One serializer per response shape of the limited API (the OpenAPI schema comes from these)."""

from __future__ import annotations

from rest_framework import serializers

from config.fields import StrictCharField
from tournaments.models import Tournament
from tournaments.serializers import TournamentInSerializer, TournamentOutSerializer

# The event's status as TournamentOut and TournamentLimitedOut both answer it: named once in the schema
# (config/settings.py ENUM_NAME_OVERRIDES), not as two hashed enums.
TOURNAMENT_STATUSES = Tournament.Status.values


class LimitedInSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["sealed", "draft"])
    product = StrictCharField(max_length=60)
    packs = serializers.IntegerField(min_value=1, max_value=12, required=False)
    seed = serializers.IntegerField(min_value=0, max_value=2**62, required=False)
    cube = serializers.ListField(child=StrictCharField(max_length=200), required=False, max_length=2000)
    cube_pack_size = serializers.IntegerField(min_value=1, max_value=30, default=15)
    physical = serializers.BooleanField(default=False)
    pick_time_scale = serializers.FloatField(min_value=0.1, max_value=10, default=1.0)
    pod_rounds = serializers.IntegerField(min_value=0, max_value=5, default=0)


class LimitedOutSerializer(serializers.Serializer):
    kind = serializers.CharField()
    product = serializers.CharField()
    packs = serializers.IntegerField()
    seed = serializers.IntegerField()
    physical = serializers.BooleanField()
    pick_time_scale = serializers.FloatField()
    pod_rounds = serializers.IntegerField()
    pools_dealt_at = serializers.DateTimeField(allow_null=True)
    draft_started_at = serializers.DateTimeField(allow_null=True)
    draft_finished_at = serializers.DateTimeField(allow_null=True)


class PickInSerializer(serializers.Serializer):
    card = StrictCharField(max_length=200)
    pick_number = serializers.IntegerField(min_value=1, max_value=1000)


class PickOutSerializer(serializers.Serializer):
    pick_number = serializers.IntegerField()
    card = serializers.CharField()
    auto = serializers.BooleanField()


class DraftMeOutSerializer(serializers.Serializer):
    pod = serializers.IntegerField()
    seat = serializers.IntegerField()
    seats = serializers.IntegerField()
    pack_number = serializers.IntegerField()
    pick_in_pack = serializers.IntegerField()
    pick_number = serializers.IntegerField(
        allow_null=True, help_text="across the packs, from 1; null when done"
    )
    pack = serializers.ListField(child=serializers.CharField())
    picks = serializers.ListField(child=serializers.CharField())
    waiting = serializers.BooleanField(help_text="this pick is made; the pod has not moved on yet")
    finished = serializers.BooleanField()
    paused = serializers.BooleanField()
    deadline = serializers.DateTimeField(allow_null=True)
    passing = serializers.CharField()


class SeatOutSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    picked = serializers.BooleanField()


class PodOutSerializer(serializers.Serializer):
    pod = serializers.IntegerField()
    pick_number = serializers.IntegerField()
    total_picks = serializers.IntegerField()
    finished = serializers.BooleanField()
    paused = serializers.BooleanField()
    deadline = serializers.DateTimeField(allow_null=True)
    seconds_left = serializers.IntegerField(allow_null=True)
    seats = SeatOutSerializer(many=True)

    def to_representation(self, instance: dict) -> dict:
        """The fields above, from ``services.pods_progress``'s plain values: 250 pods of 8 seats through
        DRF's field-by-field machinery was two thirds of the dashboard's time. Same output (a test compares
        it with DRF's own); the deadline is formatted by its field."""
        deadline = instance["deadline"]
        return {
            "pod": int(instance["pod"]), "pick_number": int(instance["pick_number"]),
            "total_picks": int(instance["total_picks"]), "finished": bool(instance["finished"]),
            "paused": bool(instance["paused"]),
            "deadline": None if deadline is None else self.fields["deadline"].to_representation(deadline),
            "seconds_left": None if instance["seconds_left"] is None else int(instance["seconds_left"]),
            "seats": [
                {"seat": int(seat["seat"]), "player": int(seat["player"]), "name": str(seat["name"]),
                 "picked": bool(seat["picked"])}
                for seat in instance["seats"]
            ],
        }  # fmt: skip


class PausedInSerializer(serializers.Serializer):
    paused = serializers.BooleanField()


class TickOutSerializer(serializers.Serializer):
    auto_picks = serializers.IntegerField()


class DealtOutSerializer(serializers.Serializer):
    pools = serializers.IntegerField()


class TournamentLimitedInSerializer(TournamentInSerializer):
    """``POST /api/tournaments/``: an event, and with ``limited`` a sealed event or a booster draft."""

    limited = LimitedInSerializer(
        required=False,
        allow_null=True,
        help_text="Makes the event a limited one (its format must build decks from a pool).",
    )


class TournamentLimitedOutSerializer(TournamentOutSerializer):
    limited = LimitedOutSerializer(allow_null=True, help_text="null for an event that is not limited")
