"""Every write from a phone may carry an Idempotency-Key: the same key again (an answer lost on the venue
Wi-Fi, or the page's offline queue sending again) changes nothing and gets the first answer; the same key
with another body is refused (422); two simultaneous requests with one key apply once."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from idempotency.models import IdempotencyKey
from tournaments import services
from tournaments.models import Match, ResultChange

from .factories import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(games, organizer, user, other_user, api_client_for):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["yugioh"], rounds=3)
    alice = services.player_register(tournament=event, by=user)
    bob = services.player_register(tournament=event, by=other_user)
    match = services.round_pair_next(tournament=event, by=organizer).matches.get()
    return {"match": match, "a": alice.pk, "b": bob.pk, "alice": api_client_for(user), "bob": api_client_for(other_user),
            "event": event, "user": user}  # fmt: skip


def _game(client, match, key, **body):  # type: ignore[no-untyped-def]
    return client.post(f"/api/matches/{match.pk}/games/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_it_applies_a_replayed_game_report_once_and_answers_it_the_same(table):
    m, a = table["match"], table["a"]
    first = _game(table["alice"], m, "k-1", number=1, first=a, winner=a)
    again = _game(table["alice"], m, "k-1", number=1, first=a, winner=a)
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Match.objects.get(pk=m.pk).version == first.json()["version"]
    assert ResultChange.objects.filter(match=m).count() == 1


def test_it_refuses_the_same_key_with_another_body(table):
    m, a, b = table["match"], table["a"], table["b"]
    assert _game(table["alice"], m, "k-2", number=1, first=a, winner=a).status_code == 200
    other = _game(table["alice"], m, "k-2", number=1, first=a, winner=b)
    assert other.status_code == 422 and "different request" in other.json()["detail"]
    elsewhere = table["alice"].post(f"/api/matches/{m.pk}/dispute/", {"reason": "x"}, format="json",
                                    HTTP_IDEMPOTENCY_KEY="k-2")  # fmt: skip
    assert elsewhere.status_code == 422
    assert [g.winner_seat for g in Match.objects.get(pk=m.pk).games.all()] == [
        0 if m.seats.get(seat=0).player_id == a else 1
    ]


def test_keys_belong_to_one_user_and_expire(table):
    m, a, b = table["match"], table["a"], table["b"]
    assert _game(table["alice"], m, "shared", number=1, first=a, winner=a).status_code == 200
    # Bob's "shared" is his own key: his report of game 2 runs.
    bobs = _game(table["bob"], m, "shared", number=2, first=b, winner=b)
    assert bobs.status_code == 200 and len(bobs.json()["games"]) == 2
    IdempotencyKey.objects.filter(key="shared").update(created_at=IdempotencyKey.objects.get(
        key="shared", user=table["user"]).created_at - timedelta(hours=25))  # fmt: skip
    # Expired: the same key is new again (here it replaces game 1 as a fresh write).
    fresh = _game(table["alice"], m, "shared", number=1, first=a, winner=b)
    assert fresh.status_code == 200 and "Idempotent-Replayed" not in fresh


def test_a_users_expired_keys_are_cleared_without_a_delete_on_every_write(table):
    from idempotency import decorators

    m, a = table["match"], table["a"]
    from django.utils import timezone

    IdempotencyKey.objects.create(user=table["user"], key="old", fingerprint="x", status_code=200,
                                  created_at=timezone.now() - timedelta(hours=25))  # fmt: skip
    decorators._SWEPT.clear()
    assert _game(table["alice"], m, "k-new", number=1, first=a, winner=a).status_code == 200
    assert not IdempotencyKey.objects.filter(key="old").exists()  # cleared by the user's first write
    assert IdempotencyKey.objects.filter(key="k-new").exists()
    # The next write of that user within the hour does not look for expired keys again: the claim is one
    # INSERT inside the write's transaction (on SQLite, the lock every phone's write waits for).
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert _game(table["alice"], m, "k-next", number=2, first=a, winner=a).status_code == 200
    assert not [q for q in queries.captured_queries if q["sql"].startswith('DELETE FROM "idempotency')]


def test_it_replays_refusals_too_and_refuses_a_malformed_key(table):
    m, a = table["match"], table["a"]
    bad = _game(table["alice"], m, "k-3", number=9, first=a, winner=a)
    assert bad.status_code == 400
    assert _game(table["alice"], m, "k-3", number=9, first=a, winner=a).json() == bad.json()
    assert _game(table["alice"], m, "bad key with spaces", number=1, first=a, winner=a).status_code == 400
    assert _game(table["alice"], m, "x" * 256, number=1, first=a, winner=a).status_code == 400
    assert not Match.objects.get(pk=m.pk).games.exists()


def test_confirm_dispute_swaps_check_in_and_join_honour_the_key(
    games, organizer, user, other_user, api_client_for
):
    event = make_event(organizer, games["caster"])
    services.checkin_open(tournament=event, by=organizer)
    alice = api_client_for(user)
    joined = alice.post(
        "/api/tournaments/join/", {"code": event.join_code}, format="json", HTTP_IDEMPOTENCY_KEY="j"
    )
    replay = alice.post(
        "/api/tournaments/join/", {"code": event.join_code}, format="json", HTTP_IDEMPOTENCY_KEY="j"
    )
    assert joined.status_code == replay.status_code == 201 and replay.json() == joined.json()
    path = f"/api/tournaments/{event.pk}/players/{joined.json()['id']}/check-in/"
    one = alice.post(path, {"present": True}, format="json", HTTP_IDEMPOTENCY_KEY="c")
    two = alice.post(path, {"present": True}, format="json", HTTP_IDEMPOTENCY_KEY="c")
    assert one.status_code == 200 and two.json() == one.json() and two["Idempotent-Replayed"] == "true"


def test_the_confirm_form_of_my_event_is_applied_once(table):
    m, a, b = table["match"], table["a"], table["b"]
    for n, (first, winner) in enumerate([(a, a), (b, a)], start=1):
        services.match_save_game(match=m, by=table["user"], number=n, first=first, winner=winner)
    version = Match.objects.get(pk=m.pk).version
    bob = Client()
    bob.force_login(table["event"].players.get(pk=b).user)
    url = reverse("tournaments:match_confirm", args=[m.pk])
    data = {"version": version, "next": reverse("tournaments:my_event", args=[table["event"].pk])}
    first = bob.post(url, data, HTTP_IDEMPOTENCY_KEY="form-1")
    second = bob.post(url, data, HTTP_IDEMPOTENCY_KEY="form-1")
    assert first.status_code == second.status_code == 302 and second["Location"] == first["Location"]
    assert second["Idempotent-Replayed"] == "true"
    assert Match.objects.get(pk=m.pk).status == "confirmed"
    assert ResultChange.objects.filter(match=m, action="confirm").count() == 1


def test_a_game_saved_differently_meanwhile_is_a_conflict_not_an_overwrite(table):
    m, a, b = table["match"], table["a"], table["b"]
    # Bob saves game 1 while Alice's phone, offline, holds her report of it as "not saved yet".
    assert _game(table["bob"], m, "b1", number=1, first=a, winner=b).status_code == 200
    stale = _game(table["alice"], m, "a1", number=1, first=a, winner=a, previous=None)
    assert stale.status_code == 409 and stale.json()["current"]["games"][0]["winner"] == b
    # The same game as the opponent saved it is no conflict: nothing to change.
    same = _game(table["alice"], m, "a2", number=1, first=a, winner=b, previous=None)
    assert same.status_code == 200 and same.json()["version"] == stale.json()["current"]["version"]
    # The HTML form says the same with a hidden "previous" field.
    client = Client()
    client.force_login(table["user"])
    page = client.post(
        reverse("tournaments:match_game", args=[m.pk]),
        {"number": 1, "first": a, "winner": a, "previous": "",
         "next": reverse("tournaments:my_event", args=[table["event"].pk])},
    )  # fmt: skip
    assert page.status_code == 409 and "saved differently meanwhile" in page.content.decode()
    assert Match.objects.get(pk=m.pk).games.get(number=1).winner_seat == m.seats.get(player_id=b).seat


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_requests_with_one_key_apply_once(table):
    from django.db import connection

    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        # The in-memory test database's shared cache refuses a second writer at once ("table is locked")
        # where a file or PostgreSQL makes it wait; CI's PostgreSQL leg runs this.
        pytest.skip("needs a database where concurrent writers wait (PostgreSQL, or SQLite on a file)")
    m, a = table["match"], table["a"]
    answers: list[int] = []

    def send() -> None:
        try:
            answers.append(_game(table["alice"], m, "race", number=1, first=a, winner=a).status_code)
        finally:
            connection.close()  # each thread's own connection, or the test database cannot be dropped

    threads = [threading.Thread(target=send) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [200, 200, 200, 200]
    assert ResultChange.objects.filter(match=m).count() == 1
    assert IdempotencyKey.objects.filter(key="race").count() == 1
