"""Simultaneous password guesses check at most the limit's number of passwords (100 guesses at
once had 20–26 passwords checked against a limit of 10, and the counter could be evicted from the cache).

The counter is one atomic statement per attempt, counted before the password is checked. The tests: the
counter itself under 100 threads on a SQLite file (the venue: separate connections, a real write lock,
the busy timeout); the reproduction of the report (100, then 60 simultaneous wrong guesses against a
limit of 10, each wave repeated) through the whole log-in path with the counter on a SQLite file; and the
whole log-in path under 100 threads where the database allows it (PostgreSQL), repeated likewise.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth import authenticate
from django.core.exceptions import PermissionDenied
from django.db import connection, connections
from django.test import RequestFactory

from accounts.attempts import attempt_count
from accounts.models import AttemptCounter, User
from tests.sqlite_file import sqlite_file_alias

GUESSES = 100
LIMIT = 10


def _race(work: Any, guesses: int = GUESSES) -> None:
    barrier = threading.Barrier(guesses)
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait()
            work(index)
        except BaseException as error:
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(guesses)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []


@pytest.fixture
def sqlite_file(tmp_path: Path, django_db_blocker: Any) -> Iterator[str]:
    """A SQLite file of its own (not the suite's in-memory database), open to every thread."""

    def create(alias: str) -> None:
        with connections[alias].schema_editor() as editor:
            editor.create_model(AttemptCounter)

    with sqlite_file_alias(tmp_path / "race.sqlite3", "lockout-race", django_db_blocker, create) as alias:
        yield alias


def test_a_hundred_simultaneous_attempts_on_a_sqlite_file_let_exactly_the_limit_through(
    sqlite_file: str,
) -> None:
    checked: list[int] = []

    def guess(index: int) -> None:
        if attempt_count("login-fail:race", window=900, using=sqlite_file) <= LIMIT:
            checked.append(index)  # here the password would be checked

    _race(guess)
    assert len(checked) == LIMIT
    assert AttemptCounter.objects.using(sqlite_file).get(key="login-fail:race").count == GUESSES


def _counting_password_checks() -> tuple[list[bool], Any]:
    checked: list[bool] = []
    real_check = User.check_password

    def counting_check(self: User, raw: str) -> bool:
        checked.append(True)
        return real_check(self, raw)

    return checked, mock.patch.object(User, "check_password", counting_check)


def _guess(index: int, address: str) -> None:
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR=address)
    with contextlib.suppress(PermissionDenied):
        authenticate(request, username="alice", password=f"guess{index}")


WAVES = [
    (60, 1),
    (80, 2),
    (100, 3),
    (60, 4),
    (100, 5),
]  # (simultaneous guesses, wave) — each from a new address


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite leg; PostgreSQL's is below")
@pytest.mark.django_db(transaction=True)  # the user row committed: the racing threads read it
def test_waves_of_simultaneous_guesses_through_the_log_in_check_at_most_ten_passwords_on_sqlite(
    sqlite_file: str, settings: Any
) -> None:
    """The whole log-in path (the backend's count, then the password check) with the counter on a SQLite
    file: the suite's in-memory database only serves the (read-only) user lookup."""
    import accounts.lockout as lockout

    settings.LOGIN_MAX_FAILURES = LIMIT
    settings.LOGIN_ADDRESS_MAX_FAILURES = 1_000
    User.objects.create_user(username="alice", password="s3cret-Pass!")
    real_count = lockout.attempt_count

    def count_on_file(key: str, *, window: int) -> int:
        return real_count(key, window=window, using=sqlite_file)

    peek = lambda key: 0  # noqa: E731  (the views' read-only check is not what is raced here)
    for guesses, wave in WAVES:
        checked, counting = _counting_password_checks()
        with counting, mock.patch.object(lockout, "attempt_count", count_on_file), \
                mock.patch.object(lockout, "attempt_peek", peek):  # fmt: skip
            _race(lambda i, wave=wave: _guess(i, f"198.51.100.{wave}"), guesses)
        assert len(checked) == LIMIT, (guesses, wave, len(checked))


def _free_postgres_slots() -> int:
    """Connections this test may open at once: a stock server allows 100, some reserved for superusers,
    and the suite's other workers hold theirs. Each guess holds one connection while it waits."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW max_connections")
        allowed = int(cursor.fetchone()[0])
        cursor.execute("SHOW superuser_reserved_connections")
        reserved = int(cursor.fetchone()[0])
        cursor.execute("SELECT count(*) FROM pg_stat_activity")
        used = int(cursor.fetchone()[0])
    return allowed - reserved - used - 10  # room for the other test workers opening theirs meanwhile


@pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="SQLite's shared in-memory test database refuses concurrent writers outright; the counter is "
    "raced on a SQLite file above, the whole log-in path on PostgreSQL",
)
@pytest.mark.django_db(transaction=True)
def test_simultaneous_guesses_check_at_most_the_limit_of_passwords(settings: Any) -> None:
    settings.LOGIN_MAX_FAILURES = LIMIT
    settings.LOGIN_ADDRESS_MAX_FAILURES = 1_000
    User.objects.create_user(username="alice", password="s3cret-Pass!")
    free = _free_postgres_slots()
    assert free > 3 * LIMIT, f"only {free} free connections: too few to race the limit of {LIMIT}"
    for guesses, wave in WAVES:
        checked, counting = _counting_password_checks()
        with counting:
            _race(lambda i, wave=wave: _guess(i, f"198.51.100.{wave}"), min(guesses, free))
        assert len(checked) <= LIMIT, (guesses, wave, len(checked))
