"""The webhooks' hook into tournaments: outbox rows inside the change's transaction, delivery after it."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tournaments import signals

from .tasks import webhooks_deliver
from .webhooks import outbox_write


def on_change_pending(*, pending: Any, **kwargs: Any) -> None:
    for hook_id in outbox_write(pending, kwargs):
        transaction.on_commit(lambda pk=hook_id: webhooks_deliver.delay(pk))


def connect_receivers() -> None:
    signals.change_pending.connect(on_change_pending, dispatch_uid="results.webhooks.change_pending")
