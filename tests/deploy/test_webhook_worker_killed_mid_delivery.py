"""A real Celery worker killed (SIGKILL) while it delivers a webhook: the task is not lost and the delivery
is completed exactly once.

PostgreSQL + Redis leg (marker `broker`). The receiver holds the first POST open; the worker is killed
while it waits for the answer. The task was acknowledged late (``acks_late``), so the broker hands it to the
next worker once the visibility timeout has passed (a few seconds here, via CELERY_VISIBILITY_TIMEOUT). The
delivery row is then marked delivered once; the receiver saw the same delivery id twice (it was sent once
before the crash), which is what the ``X-Deckhall-Delivery`` header lets it deduplicate — and no third POST
follows.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.utils import timezone

from results.models import Webhook, WebhookDelivery
from results.tasks import webhooks_deliver
from tests.conftest import celery_worker_start
from tests.tournaments.factories import make_event

pytestmark = [pytest.mark.broker, pytest.mark.django_db(transaction=True)]

VISIBILITY = 3


class Receiver:
    """A local HTTP receiver that records every POST and holds the first one until released."""

    def __init__(self) -> None:
        self.posts: list[dict[str, Any]] = []
        self.first_arrived = threading.Event()
        self.release = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                receiver.posts.append({"delivery": self.headers.get("X-Deckhall-Delivery"), "body": body})
                if len(receiver.posts) == 1:
                    receiver.first_arrived.set()
                    receiver.release.wait(60)
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()


@pytest.fixture
def crash_queue(settings: Any) -> Iterator[str]:
    if not settings.CELERY_BROKER_URL:
        pytest.skip("CELERY_BROKER_URL is not set: Celery runs eagerly (this test needs Redis + workers)")
    from config.celery import app

    queue = f"deckhall-hook-crash-{os.getpid()}"
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    yield queue
    app.conf.task_default_queue = previous


def _worker(queue: str) -> Any:
    # The first scan for lost tasks runs as the rescuer starts, maybe before the lost task is VISIBILITY old;
    # kombu's next one would come 100 s later: scan every second instead.
    env = {
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY),
        "CELERY_UNACKED_RESTORE_INTERVAL": "1",
        "CELERY_UNACKED_RESTORE_THROTTLE": "1",
    }
    return celery_worker_start(queue, extra_env=env)


def test_a_webhook_delivery_whose_worker_is_killed_is_completed_once_by_another(
    crash_queue: str, games: Any, organizer: Any
) -> None:
    receiver = Receiver()
    event = make_event(organizer, games["vale"])
    hook = Webhook.objects.create(owner=organizer, url=receiver.url, events=["round.paired"], secret="s" * 20)
    delivery = WebhookDelivery.objects.create(
        webhook=hook, tournament=event, event="round.paired",
        payload={"event": "round.paired", "tournament": event.pk, "data": {"round": 1}},
        next_attempt_at=timezone.now() - timedelta(seconds=1),
    )  # fmt: skip
    worker = _worker(crash_queue)
    rescuer = None
    try:
        webhooks_deliver.delay(hook.pk)
        assert receiver.first_arrived.wait(60), "the worker never posted the delivery"
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=30)
        receiver.release.set()  # its answer goes to a dead socket
        delivery.refresh_from_db()
        assert delivery.status == WebhookDelivery.Status.PENDING  # killed before it could record anything
        rescuer = _worker(crash_queue)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            delivery.refresh_from_db()
            if delivery.status == WebhookDelivery.Status.DELIVERED:
                break
            time.sleep(0.5)
        else:
            pytest.fail(f"the delivery was never completed after the kill: {delivery.status}")
        time.sleep(VISIBILITY + 2)  # nothing else arrives later (no second redelivery of a finished task)
    finally:
        for process in (worker, rescuer):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(timeout=30)
        receiver.close()
    delivery.refresh_from_db()
    assert delivery.status == WebhookDelivery.Status.DELIVERED and delivery.attempts == 1
    assert [post["delivery"] for post in receiver.posts] == [str(delivery.pk)] * 2
    assert {json.loads(post["body"])["delivery"] for post in receiver.posts} == {delivery.pk}
    assert WebhookDelivery.objects.filter(webhook=hook).count() == 1
