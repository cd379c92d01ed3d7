"""A paused round clock shows the time left as a clock reads (``36:51``), the same on the organizer's dashboard, the
players' phones and the projector — never "2211 s", never nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.templatetags.event_day import clock

from .factories import make_event

pytestmark = pytest.mark.django_db


def test_seconds_read_as_a_clock():
    assert clock(2211) == "36:51"
    assert clock(3725.4) == "1:02:05"
    assert clock(5) == "0:05"
    assert clock(None) == "" and clock("soon") == ""


def test_every_screen_shows_the_paused_time_left(client, games, organizer, user):
    event = make_event(organizer, games["caster"], players=3, rounds=2)
    services.player_register(tournament=event, by=user)
    round_ = services.round_pair_next(tournament=event, by=organizer)
    services.round_timer_start(round_=round_, by=organizer, minutes=37)
    services.round_timer_pause(round_=round_, by=organizer)
    round_.refresh_from_db()
    shown = clock(round_.timer_paused_left)
    assert shown.startswith("36:") or shown.startswith("37:")
    client.force_login(organizer)
    dashboard = client.get(reverse("tournaments:round", args=[event.pk, round_.number])).content.decode()
    assert f"The clock is paused with {shown} left." in dashboard and " s</strong>" not in dashboard
    projector = client.get(reverse("tournaments:projector", args=[event.pk, "timer"])).content.decode()
    assert shown in projector
    client.force_login(user)
    phone = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert f"The clock is paused with {shown} left." in phone
