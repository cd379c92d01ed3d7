"""gunicorn loads the site once, in its master (gunicorn.conf.py ``preload_app``): a worker killed with
``kill -9`` is replaced by a fork that answers at once, without importing anything again — and importing the
site opens no database connection and starts no thread, so the fork shares nothing it must not."""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .gunicorn_app import pid_app_server

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="gunicorn's workers are forked (Linux)")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[int, subprocess.Popen[bytes], Path]]:
    imports = tmp_path / "imported-by"
    prelude = f"with open({str(imports)!r}, 'a') as log:\n    log.write(f'{{os.getpid()}}\\n')\n"
    with pid_app_server(tmp_path, workers=2, threads=2, prelude=prelude) as (port, process):
        yield port, process, imports


def _ask(port: int) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/")
        return int(connection.getresponse().read())
    finally:
        connection.close()


def test_a_killed_worker_is_replaced_by_a_fork_that_imports_nothing_again(server):
    port, process, imports = server
    victim = _ask(port)
    assert victim != process.pid
    os.kill(victim, signal.SIGKILL)
    killed = time.monotonic()
    answered_by: set[int] = set()
    while time.monotonic() - killed < 20 and len(answered_by - {victim}) < 2:
        try:
            answered_by.add(_ask(port))
        except (OSError, http.client.HTTPException, ValueError):
            time.sleep(0.05)
    assert len(answered_by - {victim}) == 2, "the killed worker was not replaced"
    # The application was imported once, by the master; the workers, the new one included, are its forks.
    assert imports.read_text().split() == [str(process.pid)]


def test_importing_the_site_opens_no_database_connection_and_starts_no_thread():
    probe = (
        "import threading\n"
        "import config.wsgi\n"
        "from django.db import connections\n"
        "print(sum(connections[a].connection is not None for a in connections), threading.active_count())\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DECKHALL_VENUE": "1"}
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", probe], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120, check=True)  # fmt: skip
    assert done.stdout.split() == ["0", "1"], done.stderr[-2000:]
