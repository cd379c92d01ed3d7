"""ICS calendar feeds: one per series, one for the whole site (the store's Deckhall). RFC 5545 through the
icalendar library. Each event's UID is derived from the site and the event id only, so a calendar app updates
the same entry when the event changes (name, time) instead of adding a copy."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from icalendar import Calendar, Event

from tournaments.models import Tournament


def event_uid(tournament: Tournament, host: str) -> str:
    return f"deckhall-tournament-{tournament.pk}@{host}"


def _when(tournament: Tournament) -> tuple[object, object]:
    """The best-known start: the first round's start, the registration deadline, the ban-list date (all day),
    else the day it was created (all day); a timed event lasts its rounds."""
    first = tournament.round_set.order_by("number").first()
    start: datetime | None = (
        first.started_at if first and first.started_at else tournament.registration_deadline
    )
    if start is not None:
        rounds = tournament.rounds or 5
        return start, start + timedelta(minutes=rounds * (tournament.round_minutes + 10))
    day = tournament.on_date or tournament.created_at.date()
    return day, day + timedelta(days=1)


def feed(name: str, tournaments: Iterable[Tournament], *, host: str, base_url: str) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", "-//Deckhall//events//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", name)
    for tournament in tournaments:
        start, end = _when(tournament)
        entry = Event()
        entry.add("uid", event_uid(tournament, host))
        entry.add("summary", f"{tournament.name} ({tournament.game.name})")
        entry.add("dtstamp", tournament.created_at)
        entry.add("dtstart", start)
        entry.add("dtend", end)
        entry.add("url", f"{base_url}/tournaments/{tournament.pk}/")
        entry.add("status", "CONFIRMED")
        entry.add(
            "description", f"{tournament.get_status_display()} · {base_url}/tournaments/{tournament.pk}/"
        )
        calendar.add_component(entry)
    return calendar.to_ical()
