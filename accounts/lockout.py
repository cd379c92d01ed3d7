"""Log-in lockout shared by every log-in path (the log-in page, the admin's, `POST /api/auth/token/`).

Two counters of failed attempts, both in the cache (Redis with several web nodes):

* per account *and* client address: LOGIN_MAX_FAILURES guesses at one account from one address, then
  that address may not try that account for LOGIN_LOCKOUT_SECONDS. Keying the account counter by address
  too is deliberate: a counter per account alone would let anyone lock a player out of their own account
  from anywhere by typing wrong passwords for it.
* per client address: LOGIN_ADDRESS_MAX_FAILURES (much higher) failures on any accounts, which stops
  one address spraying a common password over many accounts.

The client address comes from config.client (trusted proxies only), and IPv6 clients are counted per
/64 network, since one host usually holds a whole /64 and could otherwise rotate through it.
"""

from __future__ import annotations

import hashlib
import ipaddress
from typing import Any

from django.conf import settings
from django.core.cache import cache

from config.client import client_address


def _address_key(request: Any) -> str:
    address = client_address(request)
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def _account_key(username: str) -> str:
    # Hashed: cache keys must stay short and free of spaces/control characters whatever was typed.
    normalized = (username or "").strip().casefold()
    return hashlib.sha256(normalized.encode("utf-8", "replace")).hexdigest()[:32]


def _keys(request: Any, username: str) -> list[tuple[str, int]]:
    address = _address_key(request)
    return [
        (f"login-fail:acct:{_account_key(username)}:{address}", settings.LOGIN_MAX_FAILURES),
        (f"login-fail:addr:{address}", settings.LOGIN_ADDRESS_MAX_FAILURES),
    ]


def login_locked(*, request: Any, username: str) -> bool:
    """Whether this client may not try this account (or any account) now."""
    return any(cache.get(key, 0) >= limit for key, limit in _keys(request, username))


def login_failure_record(*, request: Any, username: str) -> None:
    for key, _limit in _keys(request, username):
        cache.add(key, 0, timeout=settings.LOGIN_LOCKOUT_SECONDS)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=settings.LOGIN_LOCKOUT_SECONDS)
