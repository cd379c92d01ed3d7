"""Snapshots of the venue's SQLite database: a copy after every paired round and after results settle.

If the laptop dies mid-event, the newest snapshot on a USB stick (or any other machine) is the event:
`manage.py restore_snapshot NAME`, `make venue`, carry on (README "The laptop died").

Cheap by construction: SQLite's online backup copies pages while the site keeps serving (WAL readers do
not block writers). A pairing is copied at once, in a thread of its own right after the commit (its mark is
written before the organizer's request returns, so a kill before the copy ends still owes it). Results
are coalesced: the first confirmation after a quiet spell schedules one backup VENUE_SNAPSHOT_INTERVAL
seconds after the previous one, and every confirmation until then rides along; across gunicorn workers a
file lock serialises backups and a worker skips its backup when another's, started after its change,
already holds it; one that finds the newest snapshot younger than the interval waits for the rest of it, so
the interval holds for the whole server, not per worker (every worker reads the same snapshot folder). A
results copy runs in a background thread at a low CPU priority (Linux nice is per thread), inside one
read transaction (a consistent copy that later commits neither restart nor tear) in small steps with
pauses, and its integrity check runs in that thread too: while results pour in, the request threads keep
the CPU. Only on SQLite: on PostgreSQL, backups are the database administrator's job.
"""

from __future__ import annotations

import atexit
import contextlib
import datetime
import fcntl
import logging
import os
import re
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction

from tournaments import signals

log = logging.getLogger(__name__)

_NAME = re.compile(r"^deckhall-(\d{8}T\d{12})Z-([a-z0-9-]+)\.sqlite3$")
_STAMP = "%Y%m%dT%H%M%S%f"


class SnapshotError(Exception):
    """A snapshot cannot be taken or restored; the message says why and what to do."""


@dataclass(frozen=True)
class Snapshot:
    path: Path
    started_at: datetime.datetime  # the copy holds every change committed before this moment
    reason: str

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def size(self) -> int:
        return self.path.stat().st_size


def supported() -> bool:
    return settings.DATABASES["default"]["ENGINE"] in ("django.db.backends.sqlite3", "config.sqlite")


def enabled() -> bool:
    return bool(settings.VENUE_SNAPSHOTS) and supported()


def snapshot_dir() -> Path:
    return Path(settings.VENUE_SNAPSHOT_DIR)


def database_path() -> Path:
    return Path(settings.DATABASES["default"]["NAME"])


def snapshot_list() -> list[Snapshot]:
    """Every snapshot, oldest first."""
    found = []
    directory = snapshot_dir()
    if not directory.is_dir():
        return []
    for path in directory.iterdir():
        snapshot = _parse(path)
        if snapshot is not None:
            found.append(snapshot)
    return sorted(found, key=lambda s: s.started_at)


def snapshot_find(name: str) -> Path:
    """A snapshot by name (from `manage.py snapshots`) or a path to a copied snapshot file."""
    candidate = snapshot_dir() / name
    if _NAME.match(name) and candidate.is_file():
        return candidate
    path = Path(name).expanduser()
    if path.is_file():
        return path
    raise SnapshotError(
        f"no snapshot {name!r} in {snapshot_dir()} and no such file; see `manage.py snapshots`"
    )


def snapshot_take(*, reason: str) -> Snapshot:
    """Copy the live database into a new snapshot now; keep the newest VENUE_SNAPSHOT_KEEP."""
    if not supported():
        raise SnapshotError("snapshots are for the SQLite venue database; on PostgreSQL use pg_dump / PITR")
    with _exclusive():
        return _take_locked(reason=reason)


# A background copy: pages per step and the pause between steps (4 MB then 10 ms with 4 KB pages), so a
# 20 MB database is copied in a few short bursts instead of one long one.
GENTLE_PAGES = 1024
GENTLE_PAUSE_S = 0.01


def _take_locked(*, reason: str, gentle: bool = False) -> Snapshot:
    directory = snapshot_dir()
    started = datetime.datetime.now(datetime.UTC)
    final = directory / f"deckhall-{started.strftime(_STAMP)}Z-{_slug(reason)}.sqlite3"
    partial = directory / f".{final.name}.partial"
    source = sqlite3.connect(database_path(), timeout=30)
    try:
        target = sqlite3.connect(partial)
        try:
            if gentle:
                # One read transaction held across the steps: every step reads the same WAL snapshot (as
                # of `started`), so results committed meanwhile neither restart the copy nor tear it.
                source.isolation_level = None
                source.execute("BEGIN")
                source.execute("SELECT count(*) FROM sqlite_master").fetchone()
                source.backup(target, pages=GENTLE_PAGES, sleep=GENTLE_PAUSE_S)
                source.execute("COMMIT")
            else:
                source.backup(target)  # one step: a consistent copy as of `started`
            # Verified on write: a copy that is not whole is no snapshot (the disk, a dying laptop).
            verdict = _integrity(target)
        finally:
            target.close()
    finally:
        source.close()
    if verdict != "ok":
        partial.unlink(missing_ok=True)
        raise SnapshotError(
            f"the snapshot copy failed its integrity check ({verdict}); the next change retries"
        )
    os.chmod(partial, 0o600)  # it holds every account's password hash and every private list
    os.replace(partial, final)  # readers never see a half-written snapshot
    _mark_clean(started)
    _rotate(keep=max(1, int(settings.VENUE_SNAPSHOT_KEEP)))
    return Snapshot(path=final, started_at=started, reason=_slug(reason))


def _integrity(conn: sqlite3.Connection) -> str:
    """SQLite's full check of a copy: "ok", or the first problem it found."""
    return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


def snapshot_restore(*, source: Path) -> Snapshot | None:
    """Replace the live database's content with `source`; first snapshot the current state (returned),
    so a wrong restore can itself be undone.

    A missing database is simply created from the snapshot; a damaged one (a truncated file, a broken
    header) cannot be copied, so it is moved aside whole (with its -wal and -shm) as
    ``db.sqlite3.damaged-<time>`` for whoever wants to look at it, and the snapshot takes its place."""
    if not supported():
        raise SnapshotError(
            "snapshots are for the SQLite venue database; on PostgreSQL restore from your backups"
        )
    _check_is_deckhall_database(source)
    live = database_path()
    with _exclusive():
        before = None
        if live.exists() and database_damage(live) is None:
            before = _take_locked(reason="before-restore")
        elif live.exists():
            _move_aside(live)
        reader = sqlite3.connect(f"file:{source}?mode=ro&immutable=1", uri=True)
        try:
            writer = sqlite3.connect(live, timeout=30)
            try:
                reader.backup(writer)  # through SQLite, so the live file's WAL stays coherent
            finally:
                writer.close()
        finally:
            reader.close()
        for path in _database_files(live):
            os.chmod(path, 0o600)
    return before


def snapshot_newest_good() -> Path:
    """The newest snapshot that passes SQLite's check (older ones are tried when the newest is damaged)."""
    for snapshot in reversed(snapshot_list()):
        try:
            _check_is_deckhall_database(snapshot.path)
        except SnapshotError:
            log.warning("snapshot %s is damaged; trying an older one", snapshot.name)
            continue
        return snapshot.path
    raise SnapshotError(
        f"no good snapshot in {snapshot_dir()}: restore one copied from another machine by path"
    )


def database_damage(path: Path | None = None) -> str | None:
    """Why the database at ``path`` (the live one by default) is unusable, or None when it is fine or absent."""
    path = path or database_path()
    if not path.exists():
        return None
    try:
        conn = sqlite3.connect(path, timeout=30)
        try:
            verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    return None if verdict == "ok" else str(verdict)


def _database_files(path: Path) -> list[Path]:
    candidates = [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]
    return [candidate for candidate in candidates if candidate.exists()]


def _move_aside(path: Path) -> None:
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%S")
    for file in _database_files(path):
        file.rename(file.with_name(f"{file.name}.damaged-{stamp}"))


# --- write-ahead marks: a change committed but not yet in a snapshot -----------------------------------


def _dirty_mark() -> Path:
    return snapshot_dir() / ".changed"


def mark_changed() -> None:
    """Called from the commit of every change a snapshot must hold, before the (possibly delayed) copy:
    if the server is killed first, the next start sees the mark and takes the snapshot then."""
    mark = _dirty_mark()
    mark.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    mark.touch()
    os.utime(mark)


def _pending_marks() -> list[Path]:
    return sorted(snapshot_dir().glob(".pending-*"))


def mark_pending() -> Path:
    """A change is being committed: a mark of its own that no snapshot clears, removed (and turned into the
    ``.changed`` mark) only once the change has committed. A snapshot another worker starts between this mark
    and the commit does not hold the change, and the single ``.changed`` mark, older than that snapshot, was
    cleared by it: a round committed while its answer was lost (the worker killed before its own snapshot)
    was then owed to no one. The next start takes a snapshot while any pending mark is left."""
    directory = snapshot_dir()
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    mark = directory / f".pending-{os.getpid()}-{uuid.uuid4().hex}"
    mark.touch()
    return mark


def _mark_committed(pending: Path) -> None:
    try:
        mark_changed()
    finally:
        pending.unlink(missing_ok=True)


def _mark_clean(started: datetime.datetime) -> None:
    mark = _dirty_mark()
    with contextlib.suppress(FileNotFoundError):
        if mark.stat().st_mtime < started.timestamp():
            mark.unlink()


def snapshot_if_behind() -> Snapshot | None:
    """Take the snapshot a killed server owed (a change committed after the newest snapshot), if any."""
    mark = _dirty_mark()
    if not supported() or not database_path().exists():
        return None
    pending = _pending_marks()
    if not mark.exists() and not pending:
        return None
    with _exclusive():
        if not pending and _newest_started() > mark.stat().st_mtime:
            mark.unlink(missing_ok=True)
            return None
        # A pending mark left by a killed worker: its change may have committed after every snapshot.
        taken = _take_locked(reason="after-restart")
        for left in pending:
            left.unlink(missing_ok=True)
        return taken


def server_pid() -> int | None:
    """The pid of a venue server (gunicorn master) that is still alive, from its pid file."""
    pidfile = Path(settings.VENUE_DIR) / "venue.pid"
    try:
        pid = int(pidfile.read_text().strip())
    except (FileNotFoundError, ValueError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:  # alive, another user's
        return pid
    cmdline = Path(f"/proc/{pid}/cmdline")
    if cmdline.exists() and b"gunicorn" not in cmdline.read_bytes():
        return None  # the pid was reused by an unrelated process after a crash
    return pid


def _check_is_deckhall_database(path: Path) -> None:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        try:
            ok = conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise SnapshotError(f"{path} is not a readable SQLite database: {exc}") from exc
    if not ok or not {"django_migrations", "tournaments_tournament"} <= tables:
        raise SnapshotError(f"{path} is not a Deckhall database snapshot (or it is damaged)")


def _parse(path: Path) -> Snapshot | None:
    match = _NAME.match(path.name)
    if match is None or not path.is_file():
        return None
    started = datetime.datetime.strptime(match.group(1), _STAMP).replace(tzinfo=datetime.UTC)
    return Snapshot(path=path, started_at=started, reason=match.group(2))


def _slug(reason: str) -> str:
    return re.sub(r"[^a-z0-9-]+", "-", reason.lower()).strip("-") or "manual"


def _rotate(*, keep: int) -> None:
    for old in snapshot_list()[:-keep]:
        old.path.unlink(missing_ok=True)


@contextmanager
def _exclusive() -> Iterator[None]:
    # gunicorn workers are separate processes: a lock file makes their backups take turns.
    directory = snapshot_dir()
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    with open(directory / ".lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _newest_started() -> float:
    snapshots = snapshot_list()
    return snapshots[-1].started_at.timestamp() if snapshots else 0.0


class _Coalescer:
    """At most one result snapshot per VENUE_SNAPSHOT_INTERVAL per process, never skipping the last change."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._dirty_since: float | None = None
        self._timer: threading.Timer | None = None

    def changed(self) -> None:
        with self._lock:
            if self._dirty_since is None:
                self._dirty_since = time.time()
            if self._timer is None:
                delay = max(0.0, _newest_started() + float(settings.VENUE_SNAPSHOT_INTERVAL) - time.time())
                self._timer = threading.Timer(delay, self.flush)
                self._timer.daemon = True
                self._timer.start()

    def flush(self, *, wait: bool = True) -> Snapshot | None:
        """Take the owed results snapshot. With ``wait`` (the timer), one younger than the interval taken by
        any worker of the server postpones this one to the end of the interval instead (the change stays
        owed); without it (a graceful shutdown) the copy is taken now."""
        with self._lock:
            since, self._dirty_since = self._dirty_since, None
            if self._timer is not None:
                self._timer.cancel()
            self._timer = None
        if since is None:
            return None
        if wait:
            _lower_this_threads_priority()
        try:
            with _exclusive():
                newest = _newest_started()
                if newest >= since:
                    return None  # a snapshot begun after the change (another worker's, a pairing's) has it
                left = newest + float(settings.VENUE_SNAPSHOT_INTERVAL) - time.time()
                if wait and left > 0:
                    self._postpone(since, left)
                    return None
                return _take_locked(reason="results", gentle=wait)
        except Exception:  # never lose the site over a backup; the next change tries again
            log.exception("venue snapshot after results failed")
            return None

    def _postpone(self, since: float, delay: float) -> None:
        with self._lock:
            self._dirty_since = min(since, self._dirty_since or since)
            if self._timer is None:
                self._timer = threading.Timer(delay, self.flush)
                self._timer.daemon = True
                self._timer.start()


# Nice 10 (a tenth of a request thread's CPU share when both want the CPU), not 19 (1.5 %): the copy holds
# the snapshot lock, which a pairing's snapshot (in the organizer's request) waits for, so it must still end.
COPY_NICE = 10


def _lower_this_threads_priority() -> None:
    """The copy's thread (a timer thread of its own) at COPY_NICE: on Linux nice is per thread, so the
    worker's request threads keep their priority and take the CPU first."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), COPY_NICE)


_results = _Coalescer()
atexit.register(
    lambda: _results.flush(wait=False)
)  # a worker shutting down gracefully writes its pending snapshot


class _PairingCopier:
    """Copies a paired round right after its commit, in a thread of its own, off the organizer's request.

    The copy of a 20 MB database costs ~250 ms of the "pair" request when taken inline, at the moment every
    phone in the room asks for its new table. The promise stays whole without it: the ``.changed`` mark is
    written before the request answers, so a server killed
    before the copy ends owes the snapshot and the next start takes it (``snapshot_if_behind``); a graceful
    shutdown waits for the copy (``drain`` at exit)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queue: list[str] = []
        self._idle = threading.Event()
        self._idle.set()
        self._thread: threading.Thread | None = None

    def copy_soon(self, reason: str) -> None:
        with self._lock:
            self._queue.append(reason)
            self._idle.clear()
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="venue-pairing-snapshot", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            with self._lock:
                if not self._queue:
                    self._thread = None
                    self._idle.set()
                    return
                # Pairings queued while a copy ran ride along in the next one: it holds them all.
                reasons, self._queue = self._queue, []
            try:
                snapshot_take(reason=reasons[-1])
            except Exception:  # the mark stays: the next pairing, result or start takes the snapshot
                log.exception("venue snapshot after pairing (%s) failed", ", ".join(reasons))

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until every queued pairing copy is written; True if none is left."""
        return self._idle.wait(timeout)


_pairings = _PairingCopier()
atexit.register(lambda: _pairings.drain(timeout=60))


def drain(timeout: float | None = None) -> bool:
    """Wait for this process's pairing copies (tests, a graceful shutdown, `manage.py snapshots`)."""
    return _pairings.drain(timeout)


def on_round_paired(*, tournament_id: int, round_number: int, **kwargs: Any) -> None:
    if not enabled():
        return
    try:
        mark_changed()
    except OSError:
        log.exception("venue snapshot mark failed")
    _pairings.copy_soon(f"event-{tournament_id}-round-{round_number}")


def on_result_settled(**kwargs: Any) -> None:
    if enabled():
        try:
            mark_changed()
        except OSError:
            log.exception("venue snapshot mark failed")
        _results.changed()


def on_tournament_changed(*, what: str = "", **kwargs: Any) -> None:
    # Every result change (a report, a dispute, a correction), not only the settled ones: all are sent
    # from the transaction's commit, and the coalescer folds a burst of them into one copy.
    if what in ("result", "game"):  # a game saved one by one is an acknowledged result too
        on_result_settled()


def on_change_pending(*, pending: Any, **kwargs: Any) -> None:
    """Write-ahead: a pairing or result is being committed. The mark exists before the commit, so a kill
    between the commit and the (possibly delayed) copy still leaves the next start owing a snapshot."""

    if enabled() and pending in (signals.round_paired, signals.result_settled, signals.tournament_changed):
        try:
            mark = mark_pending()
        except OSError:
            log.exception("venue snapshot mark failed")
            return
        # Registered before the signal's own on_commit: the committed mark exists before any receiver runs.
        transaction.on_commit(lambda: _mark_committed(mark))


def connect_receivers() -> None:
    signals.change_pending.connect(on_change_pending, dispatch_uid="venue.snapshot.change_pending")
    signals.round_paired.connect(on_round_paired, dispatch_uid="venue.snapshot.round_paired")
    signals.result_settled.connect(on_result_settled, dispatch_uid="venue.snapshot.result_settled")
    signals.tournament_changed.connect(on_tournament_changed, dispatch_uid="venue.snapshot.result_changed")
