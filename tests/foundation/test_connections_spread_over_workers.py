"""Phones' kept connections spread evenly over gunicorn's threaded workers (gunicorn.conf.py), also after a
worker is killed: a worker holds at most its share plus a margin, so no one worker — one core, whatever its
threads — serves half the room while another idles.

The server here is a real gunicorn (gthread, the project's gunicorn.conf.py) serving a tiny WSGI app that
answers its worker's pid: which worker holds a connection is the pid its last kept answer came from."""

from __future__ import annotations

import http.client
import importlib.util
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from .gunicorn_app import pid_app_server

ROOT = Path(__file__).resolve().parents[2]
PHONES, WORKERS, THREADS = 150, 3, 2

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="gunicorn's workers are forked (Linux)")


def _conf() -> ModuleType:
    spec = importlib.util.spec_from_file_location("deckhall_gunicorn_conf", ROOT / "gunicorn.conf.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("total", "alive", "threads"), [(0, 1, 4), (0, 3, 4), (1, 3, 1), (150, 3, 2), (2000, 3, 4), (2000, 7, 4)]
)
def test_the_workers_limits_always_leave_room_for_one_more_connection(total: int, alive: int, threads: int):
    limit = _conf().connection_limit(total, alive, threads, 1000)
    assert limit * alive > total  # some worker accepts the next phone
    assert limit >= threads  # a worker that holds nothing accepts
    # and none takes much more than its share, once there are enough phones for it to matter
    assert limit <= max(_conf().BALANCE_FROM, threads, total / alive * 1.2 + threads)


def test_a_worker_never_holds_more_than_gunicorns_own_maximum():
    assert _conf().connection_limit(10_000, 2, 4, 1000) == 1000


class FakeWorker(SimpleNamespace):
    """What the hooks read of a gthread worker: its settings, its connection count, gunicorn's limits."""

    def __init__(self, conns: int = 0) -> None:
        super().__init__(cfg=SimpleNamespace(threads=4, worker_connections=1000), nr_conns=conns,
                         worker_connections=1000, max_keepalived=996)  # fmt: skip


def _forked(conf: ModuleType, *conns: int) -> list[FakeWorker]:
    """Workers holding ``conns`` connections each, forked by the master (each given its slot)."""
    workers = [FakeWorker(conns=n) for n in conns]
    for worker in workers:
        conf.pre_fork(None, worker)
    return workers


def test_a_worker_over_its_share_stops_accepting_and_closes_kept_connections_until_under_it():
    conf = _conf()
    busy, idle = _forked(conf, 100, 0)
    conf.pre_request(idle, None)
    conf.pre_request(busy, None)
    # 100 connections over 2 workers: 50 each, plus 15 % and the threads.
    assert busy.worker_connections == conf.connection_limit(100, 2, 4, 1000) == 61
    assert busy.max_keepalived == 57  # gthread answers "Connection: close" from there on
    conf.child_exit(None, idle)  # the idle one is killed: the busy one is now the only worker
    conf.pre_request(busy, None)
    assert busy.worker_connections == conf.connection_limit(100, 1, 4, 1000) > 100 + 4


def test_without_shared_memory_the_workers_accept_as_gunicorn_does(monkeypatch: pytest.MonkeyPatch):
    conf = _conf()

    def refused(*_args: object) -> None:
        raise OSError("read-only file system")

    monkeypatch.setattr(multiprocessing, "RawArray", refused)
    (worker,) = _forked(conf, 500)
    conf.pre_request(worker, None)
    assert worker.worker_connections == 1000 and worker.max_keepalived == 996


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    with pid_app_server(tmp_path, workers=WORKERS, threads=THREADS, extra=("--keep-alive", "30")) as running:
        yield running


class Phones:
    """Kept-alive connections asking in turn, as phones poll; one that breaks connects again (the phone's
    next poll)."""

    def __init__(self, port: int) -> None:
        self.connections = [http.client.HTTPConnection("127.0.0.1", port, timeout=10) for _ in range(PHONES)]
        self.holder: list[int | None] = [None] * PHONES  # the worker that keeps each connection

    def poll_all(self) -> None:
        for i, connection in enumerate(self.connections):
            for _attempt in range(20):
                try:
                    connection.request("GET", "/")
                    answer = connection.getresponse()
                    pid = int(answer.read())
                    self.holder[i] = None if answer.will_close else pid
                    break
                except (OSError, http.client.HTTPException, ValueError):
                    connection.close()  # the worker died under it: the next request connects again
                    time.sleep(0.05)
            else:
                raise AssertionError("the server stopped answering")

    def spread(self) -> Counter[int]:
        return Counter(pid for pid in self.holder if pid is not None)

    def close(self) -> None:
        for connection in self.connections:
            connection.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").exists() and Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"


def _settled(phones: Phones, limit: int, seconds: float) -> Counter[int]:
    """Polls until a round in which no connection was closed finds every live worker holding at most ``limit``
    of the phones (or time is up): the spread."""
    deadline = time.monotonic() + seconds
    while True:
        phones.poll_all()
        spread = phones.spread()
        settled = len(spread) == WORKERS and max(spread.values()) <= limit and None not in phones.holder
        if settled or time.monotonic() > deadline:
            return spread


def test_phones_spread_over_the_workers_and_again_after_one_is_killed(
    server: tuple[int, subprocess.Popen[bytes]],
):
    port, _process = server
    limit = _conf().connection_limit(PHONES, WORKERS, THREADS, 1000)
    phones = Phones(port)
    try:
        spread = _settled(phones, limit, 20)
        assert len(spread) == WORKERS, spread
        assert max(spread.values()) <= limit, spread
        assert min(spread.values()) >= PHONES - (WORKERS - 1) * limit - WORKERS, spread

        victim = spread.most_common(1)[0][0]
        os.kill(victim, signal.SIGKILL)  # its phones reconnect; the master starts another worker
        spread = _settled(phones, limit, 30)
        assert victim not in spread
        assert all(_alive(pid) for pid in spread)
        # Without the limits the two survivors keep the victim's phones and the new worker gets none.
        assert len(spread) == WORKERS, spread
        assert max(spread.values()) <= limit, spread
        assert min(spread.values()) >= PHONES - (WORKERS - 1) * limit - WORKERS, spread
    finally:
        phones.close()


def test_a_small_room_keeps_its_connections_as_gunicorn_alone_would():
    conf = _conf()
    laptop, _other = _forked(conf, 5, 0)
    conf.pre_request(laptop, None)
    assert laptop.max_keepalived >= 5  # no "Connection: close" for a handful of phones on one worker
