"""Django's SQLite backend, with writers that wait in line instead of polling SQLite's lock.

SQLite lets one transaction write at a time; a writer that finds the lock taken sleeps in SQLite's busy
handler for 1, 2, 5 … then 100 ms at a time before it looks again. On the venue server (3 gunicorn workers of 4
threads on one file) the writers that have waited longest look least often: a newcomer takes the lock
between their naps, and under load a pick or a result waits seconds behind ones sent after it (seen in
bench/bench_draft.py at 2,000 phones: picks answered seconds after polls on the same server).

Here a transaction (every ``atomic()`` block begins ``BEGIN IMMEDIATE``, settings.py) first takes its place
in line: the threads of a process queue on a lock (they sleep until it is released, no polling), and the
one thread at the head of each process takes an advisory ``flock`` on a file beside the database, looking
again at least every millisecond (bench/bench_sqlite_writers.py: the worst wait of 12 writers on 2 cores
went from 1.8 s to 0.36 s, p99 from 0.84 s to 0.09 s, at the same throughput). The kernel drops a ``flock`` when its process dies, so a worker killed with
``kill -9`` mid-transaction never leaves the line blocked. The line is given up when the transaction ends
(commit, rollback or the connection closed). The wait is bounded by the database's ``timeout`` option, as
SQLite's own is, and ends as SQLite's does: "database is locked" (config/busy.py answers 503).

In-memory databases (the test suite's) have one process and no file: they keep Django's behaviour.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from typing import Any

from django.db import OperationalError
from django.db.backends.sqlite3 import base

_LINES: dict[str, WriterLine] = {}
_LINES_LOCK = threading.Lock()


# How long a worker that just wrote steps aside when another worker is waiting: longer than a waiting
# worker's pause between looks, so the waiting one finds the lock free.
_STEP_ASIDE = 0.0015
_LOOK_AGAIN = 0.001


class WriterLine:
    """The writers of one database file in this process: one at a time, the head holding the file lock.

    Across processes the head looks for the lock every millisecond while it holds a shared lock on a second
    file, which says "a worker is waiting". A worker that is about to take the lock again right after giving
    it up (its next thread in line) first looks at that file and, when another worker waits, steps aside for
    longer than that worker's pause between looks: without it, the worker that just wrote wins every time."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.threads = threading.Lock()
        self.fd: int | None = None
        self.waiting_fd: int | None = None  # our "waiting" mark, held shared while the head looks
        self.check_fd: int | None = None  # to see whether another worker holds that mark

    def _open(self) -> None:
        if self.fd is None:
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            self.waiting_fd = os.open(self.path + ".waiting", os.O_RDWR | os.O_CREAT, 0o600)
            self.check_fd = os.open(self.path + ".waiting", os.O_RDWR)

    def _take(self) -> bool:
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # type: ignore[arg-type]
            return True
        except BlockingIOError:
            return False

    def _another_waits(self) -> bool:
        try:
            fcntl.flock(self.check_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # type: ignore[arg-type]
        except BlockingIOError:
            return True
        fcntl.flock(self.check_fd, fcntl.LOCK_UN)  # type: ignore[arg-type]
        return False

    def enter(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        if not self.threads.acquire(timeout=max(timeout, 0.001)):
            raise OperationalError("database is locked")
        try:
            self._open()
            if self._another_waits():
                time.sleep(_STEP_ASIDE)
            if self._take():
                return
            fcntl.flock(self.waiting_fd, fcntl.LOCK_SH)  # type: ignore[arg-type]
            try:
                pause = 0.0001
                while not self._take():
                    if time.monotonic() >= deadline:
                        raise OperationalError("database is locked")
                    time.sleep(pause)
                    pause = min(pause * 2, _LOOK_AGAIN)
            finally:
                fcntl.flock(self.waiting_fd, fcntl.LOCK_UN)  # type: ignore[arg-type]
        except BaseException:
            self.threads.release()
            raise

    def leave(self) -> None:
        try:
            if self.fd is not None:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
        finally:
            self.threads.release()


def line_for(database: str) -> WriterLine:
    path = f"{database}-writers.lock"
    with _LINES_LOCK:
        line = _LINES.get(path)
        if line is None:
            line = _LINES[path] = WriterLine(path)
        return line


def _forget_lines() -> None:
    # A forked worker must open its own file: a descriptor shared with the parent shares its lock, and a
    # thread lock copied while held would never be released in the child.
    global _LINES_LOCK
    _LINES.clear()
    _LINES_LOCK = threading.Lock()


os.register_at_fork(after_in_child=_forget_lines)


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._line: WriterLine | None = None

    def _line_timeout(self) -> float:
        return float(self.settings_dict.get("OPTIONS", {}).get("timeout", 5))

    def _start_transaction_under_autocommit(self) -> None:
        if self.is_in_memory_db():
            super()._start_transaction_under_autocommit()
            return
        line = line_for(str(self.settings_dict["NAME"]))
        line.enter(self._line_timeout())
        self._line = line
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._leave_line()
            raise

    def _leave_line(self) -> None:
        line, self._line = self._line, None
        if line is not None:
            line.leave()

    def _commit(self) -> None:
        try:
            super()._commit()
        finally:
            # A failed COMMIT leaves the transaction open: Django rolls it back next, and that leaves the line.
            if self.connection is None or not self.connection.in_transaction:
                self._leave_line()

    def _rollback(self) -> None:
        try:
            super()._rollback()
        finally:
            self._leave_line()

    def _close(self) -> None:
        try:
            super()._close()
        finally:
            self._leave_line()
