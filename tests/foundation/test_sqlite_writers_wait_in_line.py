"""The SQLite backend's writers wait in line (config/sqlite/base.py): a writer is not starved by others that
keep writing, every transaction commits once, a worker killed mid-transaction does not block the rest, and
the wait ends as SQLite's does ("database is locked") when the line does not move.

These run on a SQLite file of their own, with forked processes as gunicorn's workers are."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import OperationalError, connections, transaction

from tests.sqlite_file import sqlite_file_alias

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="forked workers need os.fork")

ALIAS = "writers-line"


@pytest.fixture
def sqlite_file(tmp_path: Path, django_db_blocker: Any) -> Iterator[str]:
    def create(alias: str) -> None:
        with connections[alias].cursor() as cursor:
            cursor.execute("CREATE TABLE writes (id INTEGER PRIMARY KEY, who TEXT)")

    with sqlite_file_alias(tmp_path / "venue.sqlite3", ALIAS, django_db_blocker, create, timeout=5) as alias:
        yield alias


def _fresh_connection_in_child() -> None:
    # A connection opened before the fork is the parent's: the child opens its own.
    connections[ALIAS].connection = None


def _write(who: str) -> None:
    with transaction.atomic(using=ALIAS), connections[ALIAS].cursor() as cursor:
        cursor.execute("INSERT INTO writes (who) VALUES (%s)", [who])


def _count(who: str | None = None) -> int:
    with connections[ALIAS].cursor() as cursor:
        if who is None:
            cursor.execute("SELECT COUNT(*) FROM writes")
        else:
            cursor.execute("SELECT COUNT(*) FROM writes WHERE who = %s", [who])
        return cursor.fetchone()[0]


def _hog(seconds: float, ready: Any) -> None:
    """Another worker writing back to back, as fast as it can."""
    _fresh_connection_in_child()
    ready.set()
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        with transaction.atomic(using=ALIAS), connections[ALIAS].cursor() as cursor:
            cursor.execute("INSERT INTO writes (who) VALUES ('hog')")
            end = time.thread_time() + 0.001  # a millisecond of work inside each transaction
            while time.thread_time() < end:
                pass
    os._exit(0)


def test_a_writer_is_not_starved_by_workers_writing_back_to_back(sqlite_file: str) -> None:
    # With SQLite's own busy handler the newcomer sleeps longer and longer between looks while two workers
    # take the lock in the gaps: here it waited 1.5 s and more. In line, it waits its turn.
    context = multiprocessing.get_context("fork")
    ready = [context.Event() for _ in range(2)]
    hogs = [context.Process(target=_hog, args=(4.0, event)) for event in ready]
    for hog in hogs:
        hog.start()
    for event in ready:
        assert event.wait(10)
    time.sleep(0.3)
    waits = []
    for _ in range(15):
        asked = time.monotonic()
        _write("newcomer")
        waits.append(time.monotonic() - asked)
        time.sleep(0.05)
    for hog in hogs:
        hog.join(20)
    assert _count("newcomer") == 15
    assert _count("hog") > 100  # the others did keep writing meanwhile
    assert max(waits) < 0.75, [round(w, 3) for w in waits]


def _many(threads: int, writes: int) -> None:
    _fresh_connection_in_child()

    def run() -> None:
        for _ in range(writes):
            _write(f"pid{os.getpid()}")
        connections[ALIAS].close()

    pool = [threading.Thread(target=run) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    os._exit(0)


def test_three_workers_of_four_threads_commit_every_write_once(sqlite_file: str) -> None:
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_many, args=(4, 40)) for _ in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    assert _count() == 3 * 4 * 40


def _hold(seconds: float, holding: Any) -> None:
    _fresh_connection_in_child()
    with transaction.atomic(using=ALIAS), connections[ALIAS].cursor() as cursor:
        cursor.execute("INSERT INTO writes (who) VALUES ('holder')")
        holding.set()
        time.sleep(seconds)
    os._exit(0)


def test_a_worker_killed_mid_transaction_does_not_block_the_line(sqlite_file: str) -> None:
    context = multiprocessing.get_context("fork")
    holding = context.Event()
    holder = context.Process(target=_hold, args=(60, holding))
    holder.start()
    assert holding.wait(10)
    os.kill(holder.pid, signal.SIGKILL)  # the kernel drops its flock (and SQLite's lock) with the process
    holder.join(10)
    asked = time.monotonic()
    _write("after")
    assert time.monotonic() - asked < 2
    assert _count("holder") == 0 and _count("after") == 1  # the killed transaction left nothing


def test_the_wait_ends_as_sqlites_does_when_the_line_does_not_move(sqlite_file: str) -> None:
    connections.settings[ALIAS]["OPTIONS"]["timeout"] = 0.5
    connections[ALIAS].settings_dict["OPTIONS"]["timeout"] = 0.5
    context = multiprocessing.get_context("fork")
    holding = context.Event()
    holder = context.Process(target=_hold, args=(3, holding))
    holder.start()
    assert holding.wait(10)
    asked = time.monotonic()
    with pytest.raises(OperationalError, match="database is locked"):
        _write("impatient")
    waited = time.monotonic() - asked
    holder.join(10)
    assert 0.4 <= waited < 2.5
    assert _count("impatient") == 0 and _count("holder") == 1
    _write("later")  # the line is free again for this thread: the refused wait did not keep a place in it
    assert _count("later") == 1
