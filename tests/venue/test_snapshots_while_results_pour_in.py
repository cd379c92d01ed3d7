"""Snapshots while results pour in: one per interval for the whole server (every worker, not each), copied
in small steps from one read snapshot (commits meanwhile neither restart nor tear it), in a thread at the
low CPU priority."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from venue import snapshots


def _results() -> list[snapshots.Snapshot]:
    return [s for s in snapshots.snapshot_list() if s.reason == "results"]


def test_a_second_worker_waits_for_the_interval_instead_of_copying_again(live_db: Path) -> None:
    first, second = snapshots._Coalescer(), snapshots._Coalescer()  # two gunicorn workers
    first.changed()  # nothing taken yet: the first result's copy is due at once, in the timer's thread
    deadline = time.monotonic() + 5
    while not _results() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(_results()) == 1
    second.changed()  # a result committed in another worker just after that copy began
    assert second.flush() is None  # postponed: the newest snapshot is younger than the interval
    assert len(_results()) == 1
    deadline = time.monotonic() + 5  # the rest of the interval: the postponed copy is taken, not dropped
    while len(_results()) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(_results()) == 2
    assert _results()[-1].started_at.timestamp() - _results()[0].started_at.timestamp() >= 0.95


def test_a_graceful_shutdown_writes_the_owed_copy_without_waiting(live_db: Path) -> None:
    coalescer = snapshots._Coalescer()
    snapshots.snapshot_take(reason="manual")
    coalescer.changed()
    assert coalescer.flush(wait=False) is not None


def test_a_stepwise_copy_under_constant_commits_finishes_whole_and_consistent(
    live_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    conn = sqlite3.connect(live_db)
    conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, pad TEXT)")
    conn.executemany("INSERT INTO games (pad) VALUES (?)", [("x" * 900,) for _ in range(3000)])
    conn.commit()
    conn.close()
    monkeypatch.setattr(snapshots, "GENTLE_PAGES", 8)  # many steps, each a chance for a restart
    monkeypatch.setattr(snapshots, "GENTLE_PAUSE_S", 0.001)
    stop = threading.Event()
    commits = [0]

    def results_pouring_in() -> None:
        writer = sqlite3.connect(live_db, timeout=10)
        while not stop.is_set():
            writer.execute("INSERT INTO games (pad) VALUES ('result')")
            writer.commit()
            commits[0] += 1
        writer.close()

    thread = threading.Thread(target=results_pouring_in)
    thread.start()
    try:
        time.sleep(0.05)
        started = time.monotonic()
        with snapshots._exclusive():
            taken = snapshots._take_locked(reason="results", gentle=True)
        took = time.monotonic() - started
    finally:
        stop.set()
        thread.join()
    assert commits[0] > 5, "the writer committed while the copy ran"
    assert took < 10, f"the copy restarted on every commit ({took:.1f} s)"
    copy = sqlite3.connect(taken.path)
    assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert copy.execute("SELECT count(*) FROM games WHERE pad != 'result'").fetchone() == (3000,)
    copy.close()


@pytest.mark.skipif(not hasattr(os, "setpriority"), reason="per-thread nice is Linux's")
def test_the_results_copy_runs_at_a_low_priority_and_the_worker_keeps_its_own(
    live_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, Any] = {}
    real = snapshots._take_locked

    def spy(**kwargs: Any) -> snapshots.Snapshot:
        seen["copy"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        return real(**kwargs)

    monkeypatch.setattr(snapshots, "_take_locked", spy)
    before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    coalescer = snapshots._Coalescer()
    coalescer.changed()  # no snapshot yet: the timer fires at once, in its own thread
    deadline = time.monotonic() + 5
    while "copy" not in seen and time.monotonic() < deadline:
        time.sleep(0.02)
    assert seen.get("copy") == snapshots.COPY_NICE
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == before
