"""Count every failed log-in, whichever path made it (Django sends user_login_failed for all)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_login_failed
from django.dispatch import receiver

from .lockout import login_failure_record


@receiver(user_login_failed)
def count_failed_login(sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
    if request is None:  # a management command or a script: no client to lock out
        return
    login_failure_record(request=request, username=str(credentials.get("username") or ""))
