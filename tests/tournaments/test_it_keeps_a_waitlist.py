"""A player cap with a waitlist: joins past the cap wait in line, a place freed before the start goes to the
first in line (who is told on My event); waitlisted entries are never paired, checked in or in the
standings."""

from __future__ import annotations

import os
import threading
import time

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from tournaments import services
from tournaments.models import EntryChange, Player, Tournament
from tournaments.reads.selectors import standings_compute

from .factories import make_event

pytestmark = pytest.mark.django_db


def create(api_client_for, organizer, **extra):
    body = {"name": "Capped", "game": "caster", "format": "standard", **extra}
    return api_client_for(organizer).post("/api/tournaments/", body, format="json")


@pytest.mark.parametrize("capacity", [0, -3, "many", 10**9])
def test_a_cap_must_be_a_positive_whole_number(capacity, games, organizer, api_client_for):
    response = create(api_client_for, organizer, capacity=capacity)
    assert response.status_code == 400 and "capacity" in response.json()


def test_joins_past_the_cap_wait_in_order_and_a_drop_promotes_the_first(
    games, organizer, make_user, api_client_for, client
):
    created = create(api_client_for, organizer, capacity=2)
    assert created.status_code == 201 and created.json()["capacity"] == 2
    event_id = created.json()["id"]
    code = Tournament.objects.get(pk=event_id).join_code
    users = [make_user(f"p{i}") for i in range(4)]
    answers = [api_client_for(u).post("/api/tournaments/join/", {"code": code}, format="json") for u in users]
    assert [a.status_code for a in answers] == [201] * 4
    assert [a.json()["status"] for a in answers] == ["registered", "registered", "waitlisted", "waitlisted"]
    assert [a.json()["waitlist_position"] for a in answers] == [None, None, 1, 2]
    client.force_login(users[2])
    page = client.get(f"/tournaments/{event_id}/me/")
    assert b'data-testid="waitlisted"' in page.content and b"number 1" in page.content
    # Waitlisted entries cannot check in.
    third = Player.objects.get(pk=answers[2].json()["id"])
    services.checkin_open(tournament=third.tournament, by=organizer)
    with pytest.raises(ValidationError, match="waitlist"):
        services.player_check_in(player=third, by=users[2])
    dropped = api_client_for(users[0]).post(
        f"/api/tournaments/{event_id}/players/{answers[0].json()['id']}/drop/", format="json"
    )
    assert dropped.status_code == 200
    players = {p["id"]: p for p in api_client_for(organizer).get(f"/api/tournaments/{event_id}/players/").json()["players"]}  # fmt: skip
    assert players[third.pk]["status"] == "registered"
    assert players[answers[3].json()["id"]]["status"] == "waitlisted"
    assert players[answers[3].json()["id"]]["waitlist_position"] == 1
    assert EntryChange.objects.filter(player=third, action="promote").count() == 1
    page = client.get(f"/tournaments/{event_id}/me/")
    assert b'data-testid="promoted"' in page.content and b'data-testid="waitlisted"' not in page.content


def test_waitlisted_entries_are_never_paired_nor_in_the_standings(games, organizer):
    event = make_event(organizer, games["caster"], players=5, capacity=4)
    waiting = event.players.get(waitlisted=True)
    assert waiting.name == "Player 05"
    services.tournament_start(tournament=event, by=organizer)
    round_one = services.round_pair_next(tournament=event, by=organizer)
    assert not round_one.matches.filter(seats__player=waiting).exists()
    assert waiting.pk not in {r["player"] for r in standings_compute(tournament=event)}
    assert not Player.objects.get(pk=waiting.pk).no_show


def test_after_the_start_a_late_entry_into_a_full_event_waits_in_line(games, organizer, user):
    event = make_event(organizer, games["caster"], players=4, capacity=4)
    services.tournament_start(tournament=event, by=organizer)
    late = services.player_add_late(tournament=event, by=organizer, user=user)
    assert late.waitlisted and services.waitlist_position(late) == 1


def test_raising_the_cap_promotes_at_once_and_undoing_a_drop_cannot_overfill(games, organizer):
    event = make_event(organizer, games["caster"], players=4, capacity=2)
    assert list(event.players.order_by("id").values_list("waitlisted", flat=True)) == [
        False,
        False,
        True,
        True,
    ]
    services.tournament_update(tournament=event, by=organizer, capacity=3)
    assert list(event.players.order_by("id").values_list("waitlisted", flat=True)) == [
        False,
        False,
        False,
        True,
    ]
    first = event.players.order_by("id").first()
    services.player_drop(player=first, by=organizer)
    assert not event.players.filter(waitlisted=True, dropped_at_round__isnull=True).exists()
    with pytest.raises(ValidationError, match="full"):
        services.player_drop_undo(player=first, by=organizer)


def test_bulk_adds_past_the_cap_go_to_the_waitlist_in_order(games, organizer):
    event = make_event(organizer, games["caster"], capacity=2)
    added = services.players_bulk_add(tournament=event, by=organizer, rows=["Ann", "Ben", "Cy"])
    assert [p.waitlisted for p in added] == [False, False, True]


@pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="simultaneous joins race only on PostgreSQL (SQLite serialises writers)",
)
@pytest.mark.django_db(transaction=True)
def test_simultaneous_joins_at_the_cap_take_exactly_the_free_places(games, organizer, make_user, monkeypatch):
    from rest_framework.test import APIClient

    from tournaments.services import waitlist

    counted = waitlist.places_taken

    def slow_count(tournament):
        # Widen the window between counting the places and inserting the entry, so that without the event
        # row lock every join would see a free place.
        taken = counted(tournament)
        time.sleep(0.05)
        return taken

    monkeypatch.setattr(waitlist, "places_taken", slow_count)
    event = make_event(organizer, games["caster"], capacity=3)
    users = [make_user(f"racer{i}") for i in range(12)]
    statuses: list[str] = []
    barrier = threading.Barrier(len(users))

    def join(account) -> None:
        api = APIClient()
        api.force_authenticate(user=account)
        try:
            barrier.wait()
            response = api.post("/api/tournaments/join/", {"code": event.join_code}, format="json")
            statuses.append(response.json()["status"])
        finally:
            connection.close()

    threads = [threading.Thread(target=join, args=(u,)) for u in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == ["registered"] * 3 + ["waitlisted"] * 9
    assert event.players.filter(waitlisted=False).count() == 3
