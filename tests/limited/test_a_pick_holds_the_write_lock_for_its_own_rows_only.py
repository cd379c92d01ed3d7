"""A pick from the phone's queue writes in one transaction that holds SQLite's one write lock (every phone's
pick and every organizer's write waits for it) for the pick's own rows and nothing more: the key's row, the
pod's lock, the pick, the pod's move, the kept answer — no savepoints. A refusal (a second pick for the same
pick number) is still kept as the key's answer in that transaction and replayed."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from idempotency.models import IdempotencyKey
from limited.models import DraftPick

from .conftest import draft_started

# A real transaction (not the test's own, inside which every atomic block would be a savepoint).
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def draft(twindeck, api_client_for, make_user, organizer):
    return draft_started(api_client_for, make_user, organizer, players=2)


def _statements(queries: list[dict]) -> list[str]:
    # PostgreSQL's transaction boundaries are the driver's, not statements (their "sql" is empty).
    return [q["sql"].strip() for q in queries if q["sql"]]


def _writes(queries: list[dict]) -> list[str]:
    return [s for s in _statements(queries) if s.split(None, 1)[0].upper() in {"INSERT", "UPDATE", "DELETE"}]


def _pick(client, event_id, key, card, number=1):
    return client.post(
        reverse("limited:pick", args=[event_id]), {"card": card, "pick_number": number},
        HTTP_IDEMPOTENCY_KEY=key,
    )  # fmt: skip


def test_a_pick_writes_its_rows_without_savepoints(draft, client):
    event_id, players = draft
    client.force_login(players[0][0])
    card = client.get(f"/api/tournaments/{event_id}/draft/me/").json()["pack"][0]
    # The player's first write of the hour also clears their expired keys (idempotency/decorators.py): a pick
    # sent too early (409, not yet) is that one here.
    assert _pick(client, event_id, "k-0", card, number=2).status_code == 409
    with CaptureQueriesContext(connection) as seen:
        answer = _pick(client, event_id, "k-1", card)
    assert answer.status_code == 200 and "Picked." in answer.content.decode()
    statements = _statements(seen.captured_queries)
    assert not [s for s in statements if "SAVEPOINT" in s]
    # The key's row, the pod's lock, the pick, the pod's move, the kept answer: nothing else is written.
    assert len(_writes(seen.captured_queries)) == 5, statements
    if connection.vendor == "sqlite":  # and the write lock is held from BEGIN to COMMIT for just those
        begin = next(i for i, s in enumerate(statements) if s.startswith("BEGIN"))
        assert statements[begin + 6] == "COMMIT", statements[begin:]
    assert DraftPick.objects.filter(card=card, pick_number=1).count() == 1


def test_a_refused_pick_is_kept_as_its_keys_answer_and_replayed(draft, client):
    event_id, players = draft
    client.force_login(players[0][0])
    card = client.get(f"/api/tournaments/{event_id}/draft/me/").json()["pack"][0]
    assert _pick(client, event_id, "k-1", card).status_code == 200
    with CaptureQueriesContext(connection) as seen:
        again = _pick(client, event_id, "k-2", card)
    assert again.status_code == 409 and "already made this pick" in again.content.decode()
    assert not [s for s in _statements(seen.captured_queries) if "SAVEPOINT" in s]
    assert IdempotencyKey.objects.get(key="k-2").status_code == 409
    replay = _pick(client, event_id, "k-2", card)
    assert replay.status_code == 409 and replay.headers["Idempotent-Replayed"] == "true"
    assert DraftPick.objects.count() == 1


def test_a_pick_for_a_card_not_in_the_pack_names_it_and_writes_no_pick(draft, client):
    event_id, players = draft
    client.force_login(players[0][0])
    answer = _pick(client, event_id, "k-1", "<b>no-such-card</b>")
    text = answer.content.decode()
    assert (
        answer.status_code == 400 and "&lt;b&gt;no-such-card&lt;/b&gt; is not in the pack you hold." in text
    )
    assert IdempotencyKey.objects.get(key="k-1").status_code == 400
    assert DraftPick.objects.count() == 0


def test_a_key_taken_by_another_request_replays_its_answer_and_an_expired_one_is_new_again(draft, client):
    event_id, players = draft
    client.force_login(players[0][0])
    card = client.get(f"/api/tournaments/{event_id}/draft/me/").json()["pack"][0]
    first = _pick(client, event_id, "k-1", card)
    assert first.status_code == 200
    replay = _pick(client, event_id, "k-1", card)
    assert replay.headers["Idempotent-Replayed"] == "true" and DraftPick.objects.count() == 1
    # Expired: the key is claimed afresh (the pick itself is now made, so this one is refused as a second pick).
    IdempotencyKey.objects.filter(key="k-1").update(created_at="2000-01-01T00:00:00Z")
    fresh = _pick(client, event_id, "k-1", card)
    assert fresh.status_code == 409 and "Idempotent-Replayed" not in fresh.headers
    assert IdempotencyKey.objects.filter(key="k-1").count() == 1
