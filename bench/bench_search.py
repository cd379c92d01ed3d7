"""Median latency of card search through the API on the full shared YGOPro database.

Imports the .cdb into a fresh temporary SQLite database, then times GET /api/cards/ for a mix of
queries through Django's test client (full request/response cycle, no network). Target: median < 50 ms.
Usage: .venv/bin/python bench/bench_search.py [rounds]
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

QUERIES = [
    {"game": "yugioh", "q": "dragon"},
    {"game": "yugioh", "q": "magician"},
    {"game": "yugioh", "q": "pot of"},
    {"game": "yugioh", "q": "46986414"},
    {"game": "yugioh", "type": "monster", "attr.attribute": "DARK", "level_min": "7"},
    {"game": "yugioh", "subtype": "synchro"},
    {"game": "yugioh", "attr.atk.min": "2500", "ordering": "-level"},
    {"game": "yugioh", "q": "e", "page": "3"},
]


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    tmp = tempfile.mkdtemp(prefix="deckhall-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client

    path = Path(settings.SHARED_DATA_DIR) / "ygo" / "cdb" / "cards-2020-03-30.cdb"
    if not path.is_file():
        sys.exit(f"no .cdb at {path}")
    call_command("migrate", verbosity=0)
    from cards.games import games_sync
    from cards.models import Game
    from cards.services import cards_import

    games_sync()
    result = cards_import(game=Game.objects.get(slug="yugioh"), data=path.read_bytes(), filename=path.name)
    assert result.ok, result.errors[:3]
    client = Client(HTTP_HOST="localhost")
    for params in QUERIES:  # warm-up
        assert client.get("/api/cards/", params).status_code == 200
    per_query: dict[str, list[float]] = {}
    timings: list[float] = []
    for _ in range(rounds):
        for params in QUERIES:
            start = time.perf_counter()
            response = client.get("/api/cards/", params)
            elapsed = (time.perf_counter() - start) * 1000
            assert response.status_code == 200
            timings.append(elapsed)
            per_query.setdefault(str(params), []).append(elapsed)
    for label, values in per_query.items():
        print(f"{statistics.median(values):7.1f} ms  {label}")
    median = statistics.median(timings)
    p95 = sorted(timings)[int(len(timings) * 0.95) - 1]
    print(
        f"all: {len(timings)} requests, median {median:.1f} ms, p95 {p95:.1f} ms; target < 50 ms ->"
        f" {'OK' if median < 50 else 'MISSED'}"
    )
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
