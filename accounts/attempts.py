"""Counters of attempts per key (a client address, an account at an address), in the database.

Used by the log-in lockout (accounts.lockout) and by the throttles of the anonymous pages that create
things or tell whether something exists (sign-up, the join screen, join-code look-ups).

Why the database and not the cache: a cache may drop any entry under pressure — 858 cheap anonymous
requests flushed the venue's file cache and a lockout with it — and a cache counter is read, compared,
then incremented, so simultaneous requests all pass the check (100 simultaneous guesses had 20–26
passwords checked against a limit of 10). Here each attempt is ONE statement, INSERT … ON CONFLICT DO
UPDATE … RETURNING (SQLite ≥ 3.35 and PostgreSQL), that counts it and returns the new count: the caller
decides on the count its own attempt produced, so at most ``limit`` attempts ever see a count within it.

A counter's window restarts when it has expired and every counted attempt extends it, so a lock lasts
its full window after the last attempt (the cache's ``incr`` reset the lockout's timeout to the cache's
default 300 s: why venue mode locked for 300 s instead of LOGIN_LOCKOUT_SECONDS).
"""

from __future__ import annotations

import ipaddress
import random
from datetime import timedelta
from typing import Any

from django.db import connections
from django.utils import timezone

from config.client import client_address

from .models import AttemptCounter

# One counted attempt in this many also deletes the expired counters (an indexed range delete).
_SWEEP_ONE_IN = 200
# Standard SQL both SQLite (>= 3.35) and PostgreSQL run; "key" quoted as the column is named.
_COUNT_SQL = (
    'INSERT INTO accounts_attemptcounter ("key", count, expires_at) VALUES (%s, 1, %s) '
    'ON CONFLICT ("key") DO UPDATE SET '
    "count = CASE WHEN accounts_attemptcounter.expires_at <= %s THEN 1 "
    "ELSE accounts_attemptcounter.count + 1 END, "
    "expires_at = EXCLUDED.expires_at RETURNING count"
)


def address_key(request: Any) -> str:
    """The client address as counted: IPv6 per /64 network, since one host usually holds a whole /64."""
    address = client_address(request)
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def attempt_count(key: str, *, window: int, using: str = "default") -> int:
    """Count one attempt at ``key`` and return the count including it (atomic across processes)."""
    connection = connections[using]
    now = timezone.now()
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(_COUNT_SQL, [key[:120], adapt(now + timedelta(seconds=window)), adapt(now)])
        count = int(cursor.fetchone()[0])
    if random.randrange(_SWEEP_ONE_IN) == 0:
        AttemptCounter.objects.using(using).filter(expires_at__lt=now).delete()
    return count


def attempt_uncount(key: str, *, using: str = "default") -> None:
    """Take one attempt back (a log-in that succeeded was not a failure)."""
    from django.db.models import F

    AttemptCounter.objects.using(using).filter(key=key[:120], count__gt=0).update(count=F("count") - 1)


def attempt_peek(key: str, *, using: str = "default") -> int:
    """The current count at ``key`` without counting (0 once expired)."""
    row = AttemptCounter.objects.using(using).filter(key=key[:120], expires_at__gt=timezone.now()).first()
    return row.count if row else 0


def throttle_allows(request: Any, *, scope: str, limit: int, window: int) -> bool:
    """Count this request against ``limit`` per ``window`` seconds for its client address."""
    return attempt_count(f"throttle:{scope}:{address_key(request)}", window=window) <= limit


_PERIODS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hour": 3600,
            "d": 86400, "day": 86400}  # fmt: skip


def parse_rate(rate: str) -> tuple[int, int]:
    """(limit, window seconds) of "30/hour", as DRF writes rates."""
    number, _, period = rate.partition("/")
    return int(number), _PERIODS[period.strip().lower()]


def rate_allows(request: Any, *, scope: str, rate: str) -> bool:
    """Count this request for its client address against ``rate`` ("60/min"); False once over it."""
    limit, window = parse_rate(rate)
    return throttle_allows(request, scope=scope, limit=limit, window=window)
