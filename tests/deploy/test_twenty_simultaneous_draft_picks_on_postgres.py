"""Twenty simultaneous draft picks on PostgreSQL (CI's second leg), each from its own thread and connection,
released together by a barrier: every seat of an 8-player pod picks at once, most of them from two or
three phones (different cards, different Idempotency-Keys). Exactly one pick per seat applies, the others
are refused (409), every applied card came from that seat's pack, and the pod moves to the next pick once.
The pick is written under a row lock; SQLite serialises writers, so the race is only real here."""

from __future__ import annotations

import os
import threading
import uuid
from collections import Counter

import pytest
from django.db import connection
from rest_framework.test import APIClient

from limited.models import DraftPick, DraftPod
from tests.limited.conftest import create_limited_event, sign_up, twindeck  # noqa: F401  (fixture)

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="writers race only on PostgreSQL: SQLite serialises them (one write lock for the whole venue)",
    ),
    pytest.mark.django_db(transaction=True),
]

RACERS = 20
SEATS = 8


def test_twenty_simultaneous_picks_apply_exactly_one_per_seat(twindeck, api_client_for, make_user, organizer):  # noqa: F811
    org = api_client_for(organizer)
    created = create_limited_event(org, {"kind": "draft", "product": "td-sample", "packs": 3, "seed": 5})
    assert created.status_code == 201, created.content
    event_id, code = created.json()["id"], created.json()["join_code"]
    players = sign_up(api_client_for, make_user, event_id, code, SEATS)
    assert org.post(f"/api/tournaments/{event_id}/draft/start/").status_code == 201
    packs = {
        user.pk: client.get(f"/api/tournaments/{event_id}/draft/me/").json()["pack"]
        for user, client, _ in players
    }
    barrier = threading.Barrier(RACERS)
    answers: list[tuple[int, int, str]] = []  # (seat index, status, card): list.append is atomic
    errors: list[BaseException] = []

    def pick(index: int) -> None:
        seat = index % SEATS
        user = players[seat][0]
        card = packs[user.pk][index // SEATS]  # each phone of a seat tries another card of the same pack
        client = APIClient()
        client.force_authenticate(user=user)
        try:
            barrier.wait()
            answer = client.post(
                f"/api/tournaments/{event_id}/draft/pick/", {"card": card, "pick_number": 1}, format="json",
                HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
            )  # fmt: skip
            answers.append((seat, answer.status_code, card))
        except BaseException as error:  # reported below: a thread must not die silently
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=pick, args=(i,)) for i in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []
    statuses = Counter(status for _seat, status, _card in answers)
    assert statuses[201] == SEATS and set(statuses) <= {201, 409}, statuses
    applied = {seat: card for seat, status, card in answers if status == 201}
    assert sorted(applied) == list(range(SEATS))  # one per seat, none missing
    pod = DraftPod.objects.get()
    assert DraftPick.objects.filter(pod=pod).count() == SEATS
    for seat, card in applied.items():
        assert card in packs[players[seat][0].pk]
    states = [client.get(f"/api/tournaments/{event_id}/draft/me/").json() for _u, client, _p in players]
    assert {state["pick_number"] for state in states} == {2}
