"""Import the shared 10,628-card YGOPro .cdb into a fresh temporary SQLite database.

Prints wall time and peak memory (ru_maxrss of this process).  Targets: < 30 s, < 500 MB.
Usage: .venv/bin/python bench/bench_import.py [path/to/cards.cdb]
"""

from __future__ import annotations

import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    tmp = tempfile.mkdtemp(prefix="deckhall-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    default = Path(settings.SHARED_DATA_DIR) / "ygo" / "cdb" / "cards-2020-03-30.cdb"
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    if not path.is_file():
        sys.exit(f"no .cdb at {path}")
    call_command("migrate", verbosity=0)
    from cards.games import games_sync
    from cards.models import Card, Game
    from cards.services import cards_import

    games_sync()
    game = Game.objects.get(slug="yugioh")
    data = path.read_bytes()
    start = time.perf_counter()
    result = cards_import(game=game, data=data, filename=path.name)
    first = time.perf_counter() - start
    start = time.perf_counter()
    again = cards_import(game=game, data=data, filename=path.name)
    second = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"file: {path} ({len(data) / 1e6:.1f} MB)")
    print(f"first import:  {result.created} created, {len(result.errors)} errors in {first:.2f} s")
    print(f"re-import:     {again.updated} updated, {again.unchanged} unchanged in {second:.2f} s")
    print(f"cards in db:   {Card.objects.filter(game=game).count()}")
    print(f"peak memory:   {peak_mb:.0f} MB (ru_maxrss, whole process incl. Django)")
    print(
        f"targets: < 30 s -> {'OK' if first < 30 else 'MISSED'}; < 500 MB -> {'OK' if peak_mb < 500 else 'MISSED'}"
    )
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
