"""The authentication backend: Django's, refusing clients that are locked out (accounts.lockout).

Checking here rather than in each view covers every caller of ``authenticate()`` with a request — the
log-in page, the admin's log-in and the API token endpoint — so no log-in path skips the lockout. The
views check first as well, to answer 429 with a clear message instead of "wrong password".
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from .lockout import login_locked


class LockoutModelBackend(ModelBackend):
    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if request is not None and login_locked(request=request, username=username or ""):
            # PermissionDenied stops authenticate() from asking any further backend.
            raise PermissionDenied("too many failed log-in attempts")
        return super().authenticate(request, username=username, password=password, **kwargs)
