"""Signed webhooks from the outbox: a receiver on loopback that was down for a minute gets every event once,
signed, in order; a change rolled back sends nothing; bad webhooks are refused by name."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from results.models import WebhookDelivery
from results.webhooks import deliveries_send
from tests.tournaments.factories import finish_round, make_event
from tournaments import services

pytestmark = pytest.mark.django_db
SECRET = "a-long-shared-secret-of-the-bot"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Receiver(BaseHTTPRequestHandler):
    got: list[dict[str, Any]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        expected = "sha256=" + hmac.new(SECRET.encode(), self.headers["X-Deckhall-Timestamp"].encode() + b"." + body,
                                        hashlib.sha256).hexdigest()  # fmt: skip
        Receiver.got.append({"body": json.loads(body), "raw": body,
                             "signed": hmac.compare_digest(expected, self.headers["X-Deckhall-Signature"]),
                             "event": self.headers["X-Deckhall-Event"]})  # fmt: skip
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


def test_a_receiver_that_was_down_gets_every_event_once_signed_and_in_order(
    games: Any, organizer: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    port = _free_port()
    api = APIClient()
    api.force_authenticate(organizer)
    body = {"url": f"http://127.0.0.1:{port}/hook", "events": ["round.paired", "results.changed", "event.finished"],
            "secret": SECRET}  # fmt: skip
    made = api.post("/api/webhooks/", body, format="json")
    assert made.status_code == 201 and "secret" not in made.json()
    hook_id = made.json()["id"]
    event = make_event(organizer, games["caster"], players=4, rounds=1)
    # The receiver is down: every change is written to the outbox and the first delivery fails.
    with django_capture_on_commit_callbacks(execute=True):
        services.round_pair_next(tournament=event, by=organizer)
    with django_capture_on_commit_callbacks(execute=True):
        finish_round(event, organizer)
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_finish(tournament=event, by=organizer)
    rows = list(WebhookDelivery.objects.filter(webhook_id=hook_id).order_by("id"))
    assert [r.event for r in rows] == ["round.paired", "results.changed", "results.changed", "event.finished"]
    assert rows[0].attempts == 1 and rows[0].status == "pending" and rows[0].last_error
    assert all(r.attempts == 0 for r in rows[1:])  # waiting behind the first: order is kept

    # A minute later the receiver is up; the retry sends everything, in order, once.
    server = HTTPServer(("127.0.0.1", port), Receiver)
    Receiver.got = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        assert deliveries_send(webhook_id=hook_id, now=timezone.now() + timedelta(minutes=1)) is None
        assert (
            deliveries_send(webhook_id=hook_id, now=timezone.now() + timedelta(minutes=2)) is None
        )  # nothing twice
    finally:
        server.shutdown()
        server.server_close()
    assert [g["event"] for g in Receiver.got] == [r.event for r in rows]
    assert [g["body"]["delivery"] for g in Receiver.got] == [r.pk for r in rows]
    assert all(g["signed"] for g in Receiver.got) and not any(
        SECRET.encode() in g["raw"] for g in Receiver.got
    )
    assert all(g["body"]["tournament"] == event.pk and "list" not in g["body"]["data"] for g in Receiver.got)
    assert WebhookDelivery.objects.filter(webhook_id=hook_id, status="delivered").count() == 4
    page = Client()
    page.force_login(organizer)
    log = page.get(reverse("results:webhooks")).content.decode()
    assert log.count("<tr><td>") == 4 and "event.finished" in log and SECRET not in log
    page.cookies["django_language"] = "ru"
    assert "Журнал доставки" in page.get(reverse("results:webhooks")).content.decode()


def test_a_rolled_back_change_leaves_no_webhook_behind(games: Any, organizer: Any, settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    api = APIClient()
    api.force_authenticate(organizer)
    api.post("/api/webhooks/", {"url": "http://127.0.0.1:9/x", "events": ["round.paired"], "secret": SECRET},
             format="json")  # fmt: skip
    event = make_event(organizer, games["caster"], players=4, rounds=1)
    with pytest.raises(RuntimeError), transaction.atomic():
        services.round_pair_next(tournament=event, by=organizer)
        assert WebhookDelivery.objects.count() == 1  # written inside the change's transaction
        raise RuntimeError("the change fails after pairing")
    assert WebhookDelivery.objects.count() == 0


def test_bad_webhooks_are_refused_by_name(organizer: Any, user: Any, settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    api = APIClient()
    api.force_authenticate(organizer)
    for body, field, status in [
        ({"url": "ftp://example.com/x", "events": ["round.paired"], "secret": SECRET}, "url", 400),
        # A host that starts with white space by either regex engine's rules (Python's or the schema's
        # ECMAScript): malformed, the same for the server and the schema.
        ({"url": "https://\x1cexample.com/x", "events": ["round.paired"], "secret": SECRET}, "url", 400),
        ({"url": "https://\ufeffexample.com/x", "events": ["round.paired"], "secret": SECRET}, "url", 400),
        # A NUL character anywhere: malformed text, as the schema's pattern for the address says.
        ({"url": "https://example.com/a\x00b", "events": ["round.paired"], "secret": SECRET}, "url", 400),
        # Well-formed, but an address the server will not call: 422 (README "Errors").
        ({"url": "http://127.0.0.1/x", "events": ["round.paired"], "secret": SECRET}, "url", 422),
        # A host name IDNA cannot encode (a control character): refused by name, never a 500.
        ({"url": "http://a\u0085b.example/x", "events": ["round.paired"], "secret": SECRET}, "url", 422),
        ({"url": "http://[not-ipv6/x", "events": ["round.paired"], "secret": SECRET}, "url", 422),
        ({"url": "https://example.com/x", "events": ["round.exploded"], "secret": SECRET}, "events", 400),
        ({"url": "https://example.com/x", "events": ["round.paired"], "secret": "short"}, "secret", 400),
    ]:
        answer = api.post("/api/webhooks/", body, format="json")
        assert answer.status_code == status and field in answer.json(), (body, answer.content)
    player = APIClient()
    player.force_authenticate(user)
    answer = player.post("/api/webhooks/", {"url": "https://example.com/x", "events": ["round.paired"],
                                            "secret": SECRET}, format="json")  # fmt: skip
    assert answer.status_code == 403
    # The schema states the NUL rule in the address's pattern, so a client (and schemathesis) can know it.
    import re

    schema = api.get("/api/schema/", {"format": "json"}).json()
    pattern = schema["components"]["schemas"]["WebhookInRequest"]["properties"]["url"]["pattern"]
    assert re.search(pattern, "https://example.com/x") and not re.search(
        pattern, "https://example.com/a\x00b"
    )


def test_failures_back_off_and_open_the_circuit(games: Any, organizer: Any) -> None:
    from results.models import Webhook
    from results.webhooks import CIRCUIT_FAILURES, backoff

    assert [backoff(n).total_seconds() for n in (1, 2, 3, 8, 20)] == [30, 60, 120, 3600, 3600]
    hook = Webhook.objects.create(owner=organizer, url=f"http://127.0.0.1:{_free_port()}/down",
                                  events=["round.paired"], secret=SECRET)  # fmt: skip
    event = make_event(organizer, games["caster"])
    now = timezone.now()
    row = WebhookDelivery.objects.create(webhook=hook, tournament=event, event="round.paired", payload={},
                                         next_attempt_at=now)  # fmt: skip
    for _ in range(CIRCUIT_FAILURES):
        wait = deliveries_send(webhook_id=hook.pk, now=now)
        now += timedelta(seconds=wait)
    hook.refresh_from_db()
    row.refresh_from_db()
    assert row.attempts == CIRCUIT_FAILURES and hook.circuit_open_until is not None
    # While the circuit is open nothing is tried, even when the row itself is due.
    assert deliveries_send(webhook_id=hook.pk, now=hook.circuit_open_until - timedelta(seconds=1)) == 1
    row.refresh_from_db()
    assert row.attempts == CIRCUIT_FAILURES and row.status == "pending"
