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
