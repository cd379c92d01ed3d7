"""Celery application.

Without CELERY_BROKER_URL the settings switch Celery to eager mode, so the same
task code runs in-process on a laptop and on real workers in production.
"""

import os
from typing import Any

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("deckhall")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="deckhall.ping")
def ping(value: int) -> int:
    """Round-trip task used by /healthz-style checks and the broker test."""
    return value + 1


@worker_ready.connect
def _reap_import_jobs(**kwargs: Any) -> None:
    """A worker that (re)starts ends or re-queues the import jobs a dead worker left running, even when
    nobody is polling them."""
    from cards.services import import_jobs_reap

    import_jobs_reap()
