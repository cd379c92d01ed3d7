"""The demo event loads once and is finished (running load twice duplicates nothing)."""

from __future__ import annotations

import io

import pytest

from tournaments import demo
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_it_loads_a_finished_event_idempotently(games):
    demo.load(io.StringIO())
    demo.load(io.StringIO())
    events = Tournament.objects.filter(name=demo.DEMO_NAME)
    assert events.count() == 1
    event = events.get()
    assert event.status == Tournament.Status.FINISHED and event.players.count() == 8
    assert event.created_by.username == "organizer" and not event.created_by.has_usable_password()
