"""Log-in lockout shared by every log-in path (the log-in page, the admin's, `POST /api/auth/token/`).

Two counters of attempts (accounts.attempts: in the database, counted atomically BEFORE the password is
checked, so simultaneous guesses cannot all slip under the limit and no cache pressure can evict them):

* per account *and* client address: LOGIN_MAX_FAILURES guesses at one account from one address, then
  that address may not try that account for LOGIN_LOCKOUT_SECONDS. Keying the account counter by address
  too is deliberate: a counter per account alone would let anyone lock a player out of their own account
  from anywhere by typing wrong passwords for it.
* per client address: LOGIN_ADDRESS_MAX_FAILURES (much higher) failures on any accounts, which stops
  one address spraying a common password over many accounts.

A log-in that succeeds takes its attempt back, so only failures add up. The lock lasts
LOGIN_LOCKOUT_SECONDS after the last attempt. The client address comes from config.client (trusted
proxies only); IPv6 clients are counted per /64 network.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings

from .attempts import address_key, attempt_count, attempt_peek, attempt_uncount


def _account_key(username: str) -> str:
    # Hashed: keys must stay short and free of spaces/control characters whatever was typed.
    normalized = (username or "").strip().casefold()
    return hashlib.sha256(normalized.encode("utf-8", "replace")).hexdigest()[:32]


def _keys(request: Any, username: str) -> list[tuple[str, int]]:
    address = address_key(request)
    return [
        (f"login-fail:acct:{_account_key(username)}:{address}", settings.LOGIN_MAX_FAILURES),
        (f"login-fail:addr:{address}", settings.LOGIN_ADDRESS_MAX_FAILURES),
    ]


def login_locked(*, request: Any, username: str) -> bool:
    """Whether this client may not try this account (or any account) now (a read, for a clear 429)."""
    return any(attempt_peek(key) >= limit for key, limit in _keys(request, username))


def login_attempt_begin(*, request: Any, username: str) -> bool:
    """Count this attempt before its password is checked; False when it is over a limit (then the
    password must not be checked at all)."""
    counts = [
        (attempt_count(key, window=settings.LOGIN_LOCKOUT_SECONDS), limit)
        for key, limit in _keys(request, username)
    ]
    return all(count <= limit for count, limit in counts)


def login_attempt_succeeded(*, request: Any, username: str) -> None:
    for key, _limit in _keys(request, username):
        attempt_uncount(key)
