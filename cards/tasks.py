"""Celery adapters: take ids, call one service."""

from __future__ import annotations

from celery import shared_task

from .services import import_job_run


@shared_task(name="cards.import_job_run")
def import_job_run_task(job_id: int) -> str:
    return import_job_run(job_id=job_id).status
