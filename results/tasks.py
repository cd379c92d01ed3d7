"""Celery: webhook deliveries (results/webhooks.py holds the logic)."""

from __future__ import annotations

from celery import shared_task

from .webhooks import deliveries_send


@shared_task(acks_late=True)
def webhooks_deliver(webhook_id: int) -> None:
    """Send what is due; when something waits (a failure's backoff), come back then. Eager mode (no broker)
    sends once: the management command ``webhooks_deliver`` (cron) or the next change sends the rest."""
    wait = deliveries_send(webhook_id=webhook_id)
    # The app's own setting, not Django's: tests and `make run` turn eager mode on in the app, and an eager
    # "come back later" would call itself at once, again and again.
    if wait is not None and not webhooks_deliver.app.conf.task_always_eager:
        webhooks_deliver.apply_async((webhook_id,), countdown=max(1, int(wait) + 1))
