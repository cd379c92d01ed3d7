"""A real venue server (`manage.py venue`: gunicorn, DEBUG off, SQLite WAL, snapshots) in a subprocess."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.deploy.event_driver import wait_healthy
from venue import snapshots

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Venue:
    """One venue installation in a temporary directory; start/kill/manage its server like an organizer."""

    home: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in {"CELERY_BROKER_URL", "CACHE_URL", "DEBUG"}}
        env.update(
            DECKHALL_VENUE="1",
            DATABASE_URL=f"sqlite:///{self.home / 'db.sqlite3'}",
            DECKHALL_VENUE_DIR=str(self.home / "var"),
            PORT=str(self.port),
            VENUE_SNAPSHOT_INTERVAL="1",
            SECRET_KEY="",
        )
        return env

    def manage(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if check and result.returncode != 0:
            raise AssertionError(f"manage.py {' '.join(args)} failed: {result.stdout}{result.stderr}")
        return result

    def start(self) -> None:
        log = open(self.home / "server.log", "ab")  # noqa: SIM115 - the server writes to it until killed
        command = [
            sys.executable,
            "manage.py",
            "venue",
            "--port",
            str(self.port),
            "--workers",
            "2",
            "--threads",
            "2",
        ]
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            wait_healthy(self.base, timeout=300, process=self.process)
        except AssertionError:
            self.kill()
            raise AssertionError((self.home / "server.log").read_text()[-3000:]) from None

    def kill(self) -> None:
        """SIGKILL the whole server (master and workers), as a dead battery would."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        self.process = None

    def organizer_password(self) -> str:
        return (self.home / "var" / "organizer-password").read_text().strip()


@pytest.fixture
def venue(tmp_path: Path) -> Iterator[Venue]:
    if os.environ.get("DATABASE_URL"):
        pytest.skip("the venue runs on SQLite: its server test belongs to the SQLite leg")
    place = Venue(home=tmp_path)
    yield place
    place.kill()


def snapshot_names(venue: Any) -> list[str]:
    lines = venue.manage("snapshots").stdout.splitlines()[1:]
    return [line.split()[0] for line in lines if line.strip()]


@pytest.fixture
def live_db(tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small Deckhall-shaped SQLite file standing in for the venue database."""
    path = tmp_path / "db.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE django_migrations (id INTEGER PRIMARY KEY)")
    conn.execute("CREATE TABLE tournaments_tournament (id INTEGER PRIMARY KEY, name TEXT)")
    conn.execute("INSERT INTO tournaments_tournament (name) VALUES ('Friday Swiss')")
    conn.commit()
    conn.close()
    settings.VENUE_SNAPSHOTS, settings.VENUE_SNAPSHOT_INTERVAL, settings.VENUE_SNAPSHOT_KEEP = True, 1, 50
    settings.VENUE_SNAPSHOT_DIR, settings.VENUE_DIR = tmp_path / "snapshots", tmp_path
    monkeypatch.setattr(snapshots, "database_path", lambda: path)
    monkeypatch.setattr(snapshots, "supported", lambda: True)
    return path
