"""A real Celery worker killed (SIGKILL) in the middle of a card import leaves no job stuck.

PostgreSQL + Redis leg (marker `broker`): the job is run again by a new worker, or failed with the
reason once its attempts are used up; either way the cards are consistent and the upload is gone.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest

from cards.models import Card, ImportJob
from cards.services import import_job_reap, import_job_start
from tests.conftest import celery_worker_start

pytestmark = [pytest.mark.broker, pytest.mark.django_db(transaction=True)]

STALE_SECONDS = 3
CARDS = 30_000


@pytest.fixture
def crash_queue(settings: Any) -> Iterator[str]:
    """A queue of this test's own, and settings matching the workers' (a short stale heartbeat)."""
    if not settings.CELERY_BROKER_URL:
        pytest.skip("CELERY_BROKER_URL is not set: Celery runs eagerly (this test needs Redis + workers)")
    from config.celery import app

    queue = f"deckhall-crash-{os.getpid()}"
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    settings.IMPORT_JOB_STALE_SECONDS = STALE_SECONDS
    yield queue
    app.conf.task_default_queue = previous


def _worker(queue: str, *, attempts: int) -> subprocess.Popen[bytes]:
    env = {"IMPORT_JOB_STALE_SECONDS": str(STALE_SECONDS), "IMPORT_JOB_MAX_ATTEMPTS": str(attempts)}
    return celery_worker_start(queue, extra_env=env)


def _big_file() -> bytes:
    cards = [
        {"external_id": f"K{i}", "name": f"Killed worker card {i}", "card_type": "creature", "cost": i % 7}
        for i in range(CARDS)
    ]
    return json.dumps({"format": "deckhall-cards", "version": 1, "game": "vale", "cards": cards}).encode()


def _start_and_kill_mid_import(queue: str, games: Any, *, attempts: int) -> ImportJob:
    worker = _worker(queue, attempts=attempts)
    try:
        job = import_job_start(game=games["vale"], created_by=None, filename="big.json", data=_big_file())
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            job.refresh_from_db()
            if job.status == ImportJob.Status.RUNNING and job.processed > 0:
                break
            assert job.status != ImportJob.Status.DONE, "the import finished before it could be interrupted"
            time.sleep(0.05)
        else:
            pytest.fail(f"the import never started: {job.status}")
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=30)
    return job


def _poll_until_ended(job: ImportJob, timeout: float = 180) -> ImportJob:
    """Poll as the progress page does (each read reaps a dead job)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = import_job_reap(job=ImportJob.objects.get(pk=job.pk))
        if job.status in {ImportJob.Status.DONE, ImportJob.Status.FAILED}:
            return job
        time.sleep(0.5)
    pytest.fail(f"job {job.pk} still {job.status} {timeout} s after its worker was killed")


def test_a_killed_workers_import_is_finished_by_another_worker(
    crash_queue: str, games: Any, settings: Any
) -> None:
    settings.IMPORT_JOB_MAX_ATTEMPTS = 2
    job = _start_and_kill_mid_import(crash_queue, games, attempts=2)
    assert not Card.objects.filter(game=games["vale"], external_id__startswith="K").exists()
    rescuer = _worker(crash_queue, attempts=2)
    try:
        job = _poll_until_ended(job)
    finally:
        rescuer.terminate()
        rescuer.wait(timeout=30)
    assert job.status == ImportJob.Status.DONE, job.errors
    assert job.attempts == 2 and job.created_count == CARDS
    assert Card.objects.filter(game=games["vale"], external_id__startswith="K").count() == CARDS
    assert bytes(job.payload) == b""


def test_a_job_whose_attempts_are_used_up_fails_with_the_reason(
    crash_queue: str, games: Any, settings: Any
) -> None:
    settings.IMPORT_JOB_MAX_ATTEMPTS = 1
    job = _start_and_kill_mid_import(crash_queue, games, attempts=1)
    started = time.monotonic()
    job = _poll_until_ended(job)
    assert time.monotonic() - started < STALE_SECONDS + 10  # bounded: one stale period, then failed
    assert job.status == ImportJob.Status.FAILED
    assert [issue["code"] for issue in job.errors] == ["job_worker_lost"]
    assert not Card.objects.filter(game=games["vale"], external_id__startswith="K").exists()
    assert bytes(job.payload) == b"" and job.finished_at is not None
