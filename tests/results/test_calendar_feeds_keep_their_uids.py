"""ICS feeds of a series and of the whole site: they parse as calendars, and an event keeps its UID."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from icalendar import Calendar
from rest_framework.test import APIClient

from tests.tournaments.factories import make_event

pytestmark = pytest.mark.django_db


def _events(body: bytes) -> dict[str, Any]:
    calendar = Calendar.from_ical(body)
    return {str(e["uid"]): e for e in calendar.walk("VEVENT")}


def test_it_serves_series_and_store_feeds_with_stable_uids(games: Any, organizer: Any) -> None:
    game = games["yugioh"]
    first = make_event(organizer, game, name="Tuesday Locals #1")
    other = make_event(organizer, game, name="Saturday Regional; \\ with, commas")
    api = APIClient()
    api.force_authenticate(organizer)
    series = api.post("/api/series/", {"name": "Tuesday League", "game": "yugioh"}, format="json").json()[
        "id"
    ]
    assert (
        api.post(f"/api/series/{series}/events/", {"tournament": first.pk}, format="json").status_code == 201
    )
    answer = Client().get(f"/seasons/{series}/calendar.ics")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/calendar")
    events = _events(answer.content)
    assert list(events) == [f"deckhall-tournament-{first.pk}@testserver"]
    assert "Tuesday Locals #1" in str(events[f"deckhall-tournament-{first.pk}@testserver"]["summary"])
    store = _events(Client().get("/seasons/calendar.ics").content)
    assert set(store) == {
        f"deckhall-tournament-{first.pk}@testserver",
        f"deckhall-tournament-{other.pk}@testserver",
    }
    assert "Saturday Regional; \\ with, commas" in str(
        store[f"deckhall-tournament-{other.pk}@testserver"]["summary"]
    )
    first.name = "Tuesday Locals #1 (moved)"
    first.save(update_fields=["name"])
    again = _events(Client().get(f"/seasons/{series}/calendar.ics").content)
    assert list(again) == list(events) and "moved" in str(
        again[f"deckhall-tournament-{first.pk}@testserver"]["summary"]
    )
    assert Client().get("/seasons/999999/calendar.ics").status_code == 404
