"""Celery: webhook deliveries (results/webhooks.py holds the logic)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from .webhooks import deliveries_send


@shared_task(acks_late=True)
def webhooks_deliver(webhook_id: int) -> None:
    """Send what is due; when something waits (a failure's backoff), come back then. Eager mode (no broker)
    sends once: the management command ``webhooks_deliver`` (cron) or the next change sends the rest."""
    wait = deliveries_send(webhook_id=webhook_id)
    if wait is not None and not settings.CELERY_TASK_ALWAYS_EAGER:
        webhooks_deliver.apply_async((webhook_id,), countdown=max(1, int(wait) + 1))
