"""The authentication backend: Django's, with the lockout (accounts.lockout) around the password check.

Counting here rather than in each view covers every caller of ``authenticate()`` with a request — the
log-in page, the admin's log-in and the API token endpoint — so no log-in path skips the lockout. The
attempt is counted before the password is checked and a count over the limit checks nothing, so even
simultaneous guesses check at most the limit's number of passwords. The views check first as well, to
answer 429 with a clear message instead of "wrong password".
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied

from config.prepared import Prepared

from .lockout import login_attempt_begin, login_attempt_succeeded

# Every signed-in request finds its account by primary key (django.contrib.auth.get_user): its SQL is written
# once per process (config/prepared.py).
_BY_ID = Prepared(lambda pk: get_user_model()._default_manager.filter(pk=pk)[:1], int)


class LockoutModelBackend(ModelBackend):
    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if request is None or password is None:  # a script, or not a password log-in: nothing to count
            return super().authenticate(request, username=username, password=password, **kwargs)
        name = str(username if username is not None else kwargs.get(get_user_model().USERNAME_FIELD) or "")
        if not login_attempt_begin(request=request, username=name):
            # PermissionDenied stops authenticate() from asking any further backend.
            raise PermissionDenied("too many failed log-in attempts")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None:
            login_attempt_succeeded(request=request, username=name)
        return user

    def get_user(self, user_id: Any) -> Any:
        """ModelBackend's: the account by primary key, None when there is none or it may not sign in."""
        try:
            pk = int(user_id)
        except (TypeError, ValueError):
            return None
        if not 0 < pk < 2**63:  # no account has it, and the database would refuse the number
            return None
        user = _BY_ID.first(pk)
        return user if user is not None and self.user_can_authenticate(user) else None
