"""Twenty simultaneous writes of one kind, on PostgreSQL (CI's second leg), each apply exactly as one would:
pairing the next round, reporting a game of one match, and joining an event at its cap (the waitlist).
Each request runs in its own thread and connection, released together by a barrier."""

from __future__ import annotations

import os
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from tournaments import services
from tournaments.models import Match, ResultChange, Round

from .factories import make_event

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="writers race only on PostgreSQL: SQLite serialises them (one write lock for the whole venue)",
    ),
    pytest.mark.django_db(transaction=True),
]

RACERS = 20


def _race(work: Callable[[int], int]) -> Counter:
    barrier = threading.Barrier(RACERS)
    answered: list[int] = []  # list.append is atomic under the GIL; a Counter's += is not
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait()
            answered.append(work(index))
        except BaseException as error:  # reported below: a thread must not die silently
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []
    return Counter(answered)


def _client(user: Any) -> APIClient:
    api = APIClient()
    api.force_authenticate(user=user)
    return api


def test_twenty_simultaneous_pairings_make_one_round(games, organizer) -> None:
    event = make_event(organizer, games["caster"], players=8, rounds=3)
    statuses = _race(
        lambda i: (
            _client(organizer).post(f"/api/tournaments/{event.pk}/rounds/", {}, format="json").status_code
        )
    )
    assert statuses[201] == 1 and sum(statuses.values()) == RACERS
    assert set(statuses) <= {201, 400, 409}, statuses
    assert Round.objects.filter(tournament=event).count() == 1
    assert Match.objects.filter(round__tournament=event).count() == 4


def test_twenty_simultaneous_reports_of_one_game_apply_one(games, organizer, make_user) -> None:
    event = make_event(organizer, games["caster"], rounds=3)
    ann, ben = make_user("ann"), make_user("ben")
    a = services.player_register(tournament=event, by=ann)
    b = services.player_register(tournament=event, by=ben)
    match = services.round_pair_next(tournament=event, by=organizer).matches.get()

    def report(i: int) -> int:
        winner = a.pk if i % 2 else b.pk
        body = {"number": 1, "first": a.pk, "winner": winner}
        return _client(organizer).post(f"/api/matches/{match.pk}/games/", body, format="json").status_code

    statuses = _race(report)
    assert statuses[200] >= 1 and set(statuses) <= {200, 400, 409}, statuses
    match.refresh_from_db()
    assert match.games.count() == 1  # one game 1, whatever the order
    # Every applied report is recorded once; a report that lost the race changed nothing.
    assert ResultChange.objects.filter(match=match).count() == statuses[200]


def test_twenty_simultaneous_joins_at_a_cap_of_five_take_five_places(games, organizer, make_user) -> None:
    event = make_event(organizer, games["caster"], capacity=5)
    users = [make_user(f"racer{i}") for i in range(RACERS)]
    answers: list[str] = []

    def join(i: int) -> int:
        response = _client(users[i]).post("/api/tournaments/join/", {"code": event.join_code}, format="json")
        answers.append(response.json().get("status", ""))
        return response.status_code

    statuses = _race(join)
    assert statuses == Counter({201: RACERS})
    assert Counter(answers) == Counter({"registered": 5, "waitlisted": 15})
    assert event.players.filter(waitlisted=False).count() == 5
    assert event.players.filter(waitlisted=True).count() == 15
