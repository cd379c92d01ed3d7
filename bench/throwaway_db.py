"""A throw-away database for the benches that drive Django (`bench_tournament_api`, `bench_day2`,
`bench_season`): Django set up from the repository, a fresh database created before and dropped after.

SQLite gets a temporary file; PostgreSQL (DATABASE_URL) a database of the bench's own name and process id,
so a bench never clobbers the `test_*` database a concurrent pytest run may be using.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def throwaway_database(label: str) -> Iterator[Any]:
    """Yield Django's default connection, on a database made for this run and removed afterwards."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "true")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    tmp = None
    if connection.vendor == "sqlite":
        tmp = tempfile.NamedTemporaryFile(suffix=".sqlite3", delete=False)  # noqa: SIM115
        connection.settings_dict.setdefault("TEST", {})["NAME"] = tmp.name
    else:
        connection.settings_dict.setdefault("TEST", {})["NAME"] = f"deckhall_bench_{label}_{os.getpid()}"
    test_db = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        yield connection
    finally:
        connection.creation.destroy_test_db(test_db, verbosity=0)
        if tmp is not None:
            Path(tmp.name).unlink(missing_ok=True)
