"""Ordinary bad input never answers 500, permission comes before parsing, entries carry the account's name,
and simultaneous registrations of one player make one entry."""

from __future__ import annotations

import os
import threading

import pytest
from django.db import connection

from tournaments import services
from tournaments.models import EntryChange, Player

from .factories import make_event

pytestmark = pytest.mark.django_db


def test_the_timer_checks_permission_before_the_minutes(games, organizer, user, api_client_for):
    event = make_event(organizer, games["caster"], players=4, rounds=2)
    services.round_pair_next(tournament=event, by=organizer)
    url = f"/api/tournaments/{event.pk}/rounds/1/timer/"
    assert api_client_for(user).post(url, {"minutes": "abc"}, format="json").status_code == 403
    bad = api_client_for(organizer).post(url, {"minutes": "abc"}, format="json")
    assert bad.status_code == 400 and "minutes" in bad.json()
    assert event.round_set.get().timer_ends_at is None
    assert api_client_for(organizer).post(url, {"minutes": 30}, format="json").status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/api/tournaments/abc/",
        "/api/tournaments/99999999999999999999/",
        "/api/matches/x/",
        "/api/matches/%C2%84/",
    ],
)
def test_odd_ids_are_json_404_not_500(path, organizer, api_client_for):
    response = api_client_for(organizer).get(path)
    assert response.status_code == 404 and response["Content-Type"] == "application/json"


def test_odd_ids_inside_paths_are_404_too(games, organizer, api_client_for):
    event = make_event(organizer, games["caster"], players=2, rounds=1)
    client = api_client_for(organizer)
    for path in ("players/abc/drop/", "players/99999999999999999999/rename/", "rounds/x/timer/",
                 "rounds/99999999999/repair/"):  # fmt: skip
        assert client.post(f"/api/tournaments/{event.pk}/{path}", {}, format="json").status_code == 404


def test_a_player_enters_under_their_account_name_and_organizers_rename_with_an_audit(
    games, organizer, user, api_client_for
):
    event = make_event(organizer, games["caster"])
    response = api_client_for(user).post(
        f"/api/tournaments/{event.pk}/players/", {"name": "bob", "code": event.join_code}, format="json"
    )
    assert response.status_code == 201 and response.json()["name"] == "alice"
    player_id = response.json()["id"]
    url = f"/api/tournaments/{event.pk}/players/{player_id}/rename/"
    assert api_client_for(user).post(url, {"name": "Champion"}, format="json").status_code == 403
    renamed = api_client_for(organizer).post(url, {"name": "Alice Smith"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Alice Smith"
    change = EntryChange.objects.get(player_id=player_id)
    assert (change.action, change.old, change.new, change.changed_by) == (
        "rename", {"name": "alice"}, {"name": "Alice Smith"}, organizer,
    )  # fmt: skip


def test_registering_twice_is_a_clear_conflict(games, organizer, user, api_client_for):
    event = make_event(organizer, games["caster"])
    client = api_client_for(user)
    body = {"code": event.join_code}
    assert client.post(f"/api/tournaments/{event.pk}/players/", body, format="json").status_code == 201
    again = client.post(f"/api/tournaments/{event.pk}/players/", body, format="json")
    assert again.status_code == 409 and "already registered" in str(again.json())
    assert Player.objects.filter(tournament=event).count() == 1


@pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="simultaneous registrations race only on PostgreSQL (SQLite serialises writers)",
)
@pytest.mark.django_db(transaction=True)
def test_twenty_simultaneous_registrations_make_one_entry(games, organizer, user):
    from rest_framework.test import APIClient

    event = make_event(organizer, games["caster"])
    statuses: list[int] = []
    barrier = threading.Barrier(20)

    def register() -> None:
        client = APIClient()
        client.force_authenticate(user=user)
        try:
            barrier.wait()
            statuses.append(
                client.post(
                    f"/api/tournaments/{event.pk}/players/", {"code": event.join_code}, format="json"
                ).status_code
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=register) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201] + [409] * 19  # "already registered": the state refuses the rest
    assert Player.objects.filter(tournament=event, user=user).count() == 1


def test_a_number_is_not_a_boolean(games, organizer, api_client_for):
    body = {"name": "Friday", "game": "caster", "format": "standard", "publish_decklists": 0}
    response = api_client_for(organizer).post("/api/tournaments/", body, format="json")
    assert response.status_code == 400 and "publish_decklists" in response.json()
    body["publish_decklists"] = False
    assert api_client_for(organizer).post("/api/tournaments/", body, format="json").status_code == 201
