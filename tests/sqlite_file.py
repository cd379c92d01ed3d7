"""A SQLite file of a test's own beside the suite's in-memory database, set up as the venue's (the writers'
line of config/sqlite, WAL, BEGIN IMMEDIATE, a busy timeout): for races between threads and processes,
which the shared in-memory database cannot hold."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.db import connections


@contextmanager
def sqlite_file_alias(
    path: Path, alias: str, blocker: Any, create: Callable[[str], None], *, timeout: float = 20
) -> Iterator[str]:
    """``alias`` names a connection to the file at ``path`` while the block runs; ``create(alias)`` makes
    its tables first."""
    connections.settings[alias] = {
        **connections.settings["default"],
        "ENGINE": "config.sqlite",
        "NAME": str(path),
        "OPTIONS": {
            "timeout": timeout,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL;",
        },
        "CONN_MAX_AGE": 0,
        "TEST": {},
    }
    try:
        with blocker.unblock():
            create(alias)
            connections[alias].close()
            yield alias
            connections[alias].close()
    finally:
        # Forget the cached wrapper too: the next test's file is another one.
        del connections[alias]
        del connections.settings[alias]
