"""The Idempotency-Key fingerprint is the whole request: method, path, query and body. The same key on the
same path and body with another query is another request (422), never a replay of the first answer."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from idempotency.decorators import fingerprint
from tournaments import services
from tournaments.models import ResultChange

from ..tournaments.factories import make_event

pytestmark = pytest.mark.django_db


def test_it_fingerprints_method_path_query_and_body_apart() -> None:
    rf = RequestFactory()
    base = fingerprint(rf.post("/api/x/?a=1", {"n": "1"}))
    assert fingerprint(rf.post("/api/x/?a=1", {"n": "1"})) == base
    assert fingerprint(rf.post("/api/x/?a=2", {"n": "1"})) != base
    assert fingerprint(rf.post("/api/x/", {"n": "1"})) != base
    assert fingerprint(rf.post("/api/x/?a=1&b=2", {"n": "1"})) != base
    assert fingerprint(rf.put("/api/x/?a=1", "n=1", content_type="application/x-www-form-urlencoded")) != base
    assert fingerprint(rf.post("/api/y/?a=1", {"n": "1"})) != base
    assert fingerprint(rf.post("/api/x/?a=1", {"n": "2"})) != base
    # The order of the query's parameters is not a difference the view sees.
    assert fingerprint(rf.post("/api/x/?a=1&b=2", {"n": "1"})) == fingerprint(
        rf.post("/api/x/?b=2&a=1", {"n": "1"})
    )


def test_it_refuses_the_same_key_with_another_query(games, organizer, user, other_user, api_client_for):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["yugioh"], rounds=3)
    alice = services.player_register(tournament=event, by=user)
    services.player_register(tournament=event, by=other_user)
    match = services.round_pair_next(tournament=event, by=organizer).matches.get()
    client = api_client_for(user)
    body = {"number": 1, "first": alice.pk, "winner": alice.pk}
    first = client.post(
        f"/api/matches/{match.pk}/games/?from=phone", body, format="json", HTTP_IDEMPOTENCY_KEY="q-1"
    )
    assert first.status_code == 200
    other = client.post(
        f"/api/matches/{match.pk}/games/?from=desk", body, format="json", HTTP_IDEMPOTENCY_KEY="q-1"
    )
    assert other.status_code == 422, other.content
    assert "Idempotent-Replayed" not in other
    same = client.post(
        f"/api/matches/{match.pk}/games/?from=phone", body, format="json", HTTP_IDEMPOTENCY_KEY="q-1"
    )
    assert same.status_code == 200 and same["Idempotent-Replayed"] == "true"
    assert ResultChange.objects.filter(match=match).count() == 1
