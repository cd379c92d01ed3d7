"""The organizer's pod dashboard is answered by PodOutSerializer's own short path (250 pods of 8 seats
through DRF's field-by-field machinery was most of its time): the answer is exactly what DRF's generic
serialization of the same fields gives, so the schema drawn from the serializer stays true."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from rest_framework import serializers

from limited.serializers import PodOutSerializer


class GenericPodOut(PodOutSerializer):
    def to_representation(self, instance: dict) -> dict:
        return serializers.Serializer.to_representation(self, instance)


def _pods() -> list[dict]:
    now = timezone.now()
    seats = [
        {"seat": i + 1, "player": 100 + i, "name": f"Player «{i}»", "picked": i % 2 == 0} for i in range(8)
    ]
    return [
        {"pod": 1, "pick_number": 4, "total_picks": 45, "finished": False, "paused": False,
         "deadline": now + timedelta(seconds=31, microseconds=250), "seconds_left": 31, "seats": seats},
        {"pod": 2, "pick_number": 9, "total_picks": 45, "finished": False, "paused": True, "deadline": None,
         "seconds_left": None, "seats": seats[:5]},
        {"pod": 3, "pick_number": 46, "total_picks": 45, "finished": True, "paused": False, "deadline": None,
         "seconds_left": None, "seats": []},
    ]  # fmt: skip


def test_the_dashboards_answer_is_drfs_own_serialization_of_its_fields():
    pods = _pods()
    assert PodOutSerializer(pods, many=True).data == GenericPodOut(pods, many=True).data
