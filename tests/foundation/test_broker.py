"""With CELERY_BROKER_URL set, tasks really travel through Redis to a worker process."""

from __future__ import annotations

import os
from typing import Any

import pytest

pytestmark = pytest.mark.broker


def test_it_runs_a_task_in_a_separate_worker_process_through_the_broker(celery_worker_process: Any) -> None:
    from config.celery import app, ping

    result = ping.delay(41)
    assert result.get(timeout=30) == 42
    # Eager mode would run in this process and leave no trace in the result backend.
    assert app.conf.task_always_eager is False
    assert celery_worker_process.pid != os.getpid()
    assert result.state == "SUCCESS"


@pytest.mark.django_db(transaction=True)
def test_it_imports_a_card_database_on_a_real_worker(celery_worker_process: Any, games: Any) -> None:
    import json
    import time

    from cards.models import Card, ImportJob
    from cards.services import import_job_start

    cards = [
        {"external_id": f"W{i}", "name": f"Worker card {i}", "card_type": "creature", "cost": i % 7}
        for i in range(25)
    ]
    payload = json.dumps({"format": "deckhall-cards", "version": 1, "game": "vale", "cards": cards}).encode()
    job = import_job_start(game=games["vale"], created_by=None, filename="worker.json", data=payload)

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status in {ImportJob.Status.DONE, ImportJob.Status.FAILED}:
            break
        time.sleep(0.2)
    assert job.status == ImportJob.Status.DONE, job.errors
    assert job.created_count == 25
    assert Card.objects.filter(game=games["vale"], external_id__startswith="W").count() == 25
