"""Latency of card search through the API on the full shared YGOPro database.

Imports the .cdb into a fresh temporary SQLite database, then times, for a mix of queries, GET
/api/cards/ (one row per printing) and GET /api/cards/grouped/ (the builder's search: one row per card
identity with its printings and preview) through Django's test client (full request/response cycle, no
network). Prints median and worst per query and per endpoint. Target: median < 50 ms.
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
    {"game": "yugioh", "q": "dark magician"},
    {"game": "yugioh", "q": "dragon"},
    {"game": "yugioh", "q": "magician"},
    {"game": "yugioh", "q": "pot of"},
    {"game": "yugioh", "q": "46986414"},
    {"game": "yugioh", "type": "monster", "attr.attribute": "DARK", "level_min": "7"},
    {"game": "yugioh", "subtype": "synchro"},
    {"game": "yugioh", "attr.atk.min": "2500", "ordering": "-level"},
    {"game": "yugioh", "q": "e", "page": "3"},
    {"game": "yugioh"},
]
ENDPOINTS = {"/api/cards/": {}, "/api/cards/grouped/": {"deck_buildable": "true", "page_size": "40"}}


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
    # Wall time is what a user waits; CPU time (this process: Django and SQLite run in it) is what the
    # request costs, and stays meaningful when other processes load the machine.
    print(f"{'wall med':>9} {'worst':>8} {'cpu med':>8} {'worst':>8}  endpoint / query  ({rounds} rounds)")
    for endpoint, extra in ENDPOINTS.items():
        for params in QUERIES:  # warm-up
            assert client.get(endpoint, {**params, **extra}).status_code == 200
        per_query: dict[str, tuple[list[float], list[float]]] = {}
        walls: list[float] = []
        cpus: list[float] = []
        for _ in range(rounds):
            for params in QUERIES:
                start, cpu_start = time.perf_counter(), time.process_time()
                response = client.get(endpoint, {**params, **extra})
                wall, cpu = (time.perf_counter() - start) * 1000, (time.process_time() - cpu_start) * 1000
                assert response.status_code == 200
                walls.append(wall)
                cpus.append(cpu)
                entry = per_query.setdefault(str(params), ([], []))
                entry[0].append(wall)
                entry[1].append(cpu)
        for label, (wall_values, cpu_values) in per_query.items():
            print(
                f"{statistics.median(wall_values):7.1f}ms {max(wall_values):6.1f}ms"
                f" {statistics.median(cpu_values):6.1f}ms {max(cpu_values):6.1f}ms  {endpoint} {label}"
            )
        print(
            f"{endpoint}: {len(walls)} requests; wall median {statistics.median(walls):.1f} ms, worst"
            f" {max(walls):.1f} ms; cpu median {statistics.median(cpus):.1f} ms, worst {max(cpus):.1f} ms;"
            f" target median < 50 ms -> {'OK' if statistics.median(cpus) < 50 else 'MISSED'} (cpu),"
            f" {'OK' if statistics.median(walls) < 50 else 'MISSED'} (wall)\n"
        )
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
