"""Celery adapters: take ids, call one service."""

from __future__ import annotations

from celery import shared_task

from .services import IMPORT_JOB_TASK, import_job_run


# Late acknowledgement + reject_on_worker_lost: a worker killed mid-import leaves the message to be
# delivered again, and import_job_run takes over the job once its heartbeat is stale.
@shared_task(name=IMPORT_JOB_TASK, acks_late=True, reject_on_worker_lost=True)
def import_job_run_task(job_id: int) -> str:
    return import_job_run(job_id=job_id).status
