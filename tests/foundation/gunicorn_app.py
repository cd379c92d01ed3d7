"""A real gunicorn with the project's gunicorn.conf.py (gthread, as the venue runs it) serving a tiny WSGI app
that answers its worker's pid: what the tests of the server's own settings drive."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PID_APP = (
    "def app(environ, start_response):\n"
    "    body = str(os.getpid()).encode()\n"
    "    start_response('200 OK', [('Content-Type', 'text/plain'), ('Content-Length', str(len(body)))])\n"
    "    return [body]\n"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def pid_app_server(
    folder: Path, *, workers: int, threads: int, prelude: str = "", extra: tuple[str, ...] = ()
) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """(port, gunicorn's master) while it runs; ``prelude`` is run when the app module is imported."""
    (folder / "pid_app.py").write_text(f"import os\n\n{prelude}\n\n{PID_APP}")
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py"), "pid_app:app",
               "--chdir", str(folder), "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
               "--threads", str(threads), "--worker-class", "gthread", "--log-level", "warning", *extra]  # fmt: skip
    process = subprocess.Popen(command, cwd=folder, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise AssertionError(
                    (process.stderr.read() if process.stderr else b"").decode()[-2000:]
                ) from None
            time.sleep(0.1)
    try:
        yield port, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
