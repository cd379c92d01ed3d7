"""Server-side time and SQL query count of the deck builder page and the deck page, for a small and a
75-card deck, on the full shared Yu-Gi-Oh! database when it is there (else the sample cards).

Runs on a throwaway SQLite database: `.venv/bin/python bench/bench_builder.py [--runs 30]`.
Targets: both pages under 150 ms (median), the same number of SQL queries for both deck sizes.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()

    tmp = tempfile.mkdtemp(prefix="deckhall-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)
    from accounts.models import User
    from cards import demo
    from cards.games import games_sync
    from cards.models import Card, Game
    from decks.services import deck_create

    games_sync()
    demo.load(io.StringIO(), full_database=True)
    game = Game.objects.get(slug="yugioh")
    known = set(demo_sample_ids())
    cards = [
        c
        for c in Card.objects.filter(game=game, is_token=False, deck_buildable=True).order_by("external_id")
        if c.external_id in known
    ]
    extra_kinds = {"fusion", "synchro", "xyz", "link"}
    extra = [c for c in cards if extra_kinds & set(c.subtypes)]
    main_cards = [c for c in cards if not extra_kinds & set(c.subtypes)]
    # Well-known cards (the sample's ids, all in the real database too). 75 cards: main 45 (15 × 3),
    # extra 15, side 15;
    # the small deck: 3 rows. Equal query counts for both show the pages do not query per card.
    big = {
        "main": [(c, 3) for c in main_cards[:15]],
        "extra": [(c, 3 if i == 0 else 2) for i, c in enumerate(extra[:7])],
        "side": [(c, 1) for c in main_cards[15:30]],
    }
    small = {"main": [(c, 3) for c in main_cards[:2]], "extra": [(extra[0], 1)]}
    user = User.objects.create_user("bench", password="bench-Pass-123")
    client = Client()
    client.force_login(user)
    print(
        f"{Card.objects.filter(game=game).count()} Yu-Gi-Oh! cards in the database; {args.runs} runs per page"
    )
    for deck_label, sections in (("75-card deck", big), ("7-card deck", small)):
        deck = deck_create(owner=user, game=game, name=deck_label, format_slug="advanced", sections=sections)
        total = sum(n for lines in sections.values() for _c, n in lines)
        rows = sum(len(lines) for lines in sections.values())
        for label, url in (("builder", f"/decks/{deck.pk}/edit/"), ("deck page", f"/decks/{deck.pk}/")):
            client.get(url)  # warm caches (templates, rule registry)
            # Wall time, and CPU time of this process (Django and SQLite run in it): the page's own cost,
            # still meaningful when other processes load the machine.
            walls, cpus = [], []
            for _ in range(args.runs):
                start, cpu_start = time.perf_counter(), time.process_time()
                response = client.get(url)
                walls.append((time.perf_counter() - start) * 1000)
                cpus.append((time.process_time() - cpu_start) * 1000)
                assert response.status_code == 200
            with CaptureQueriesContext(connection) as queries:
                client.get(url)
            print(
                f"{label:10s} {total:3d} cards in {rows:2d} rows: wall median {statistics.median(walls):6.1f} ms,"
                f" worst {max(walls):6.1f} ms; cpu median {statistics.median(cpus):6.1f} ms,"
                f" worst {max(cpus):6.1f} ms; {len(queries)} SQL queries"
            )


def demo_sample_ids() -> list[str]:
    import json

    from cards.demo import SAMPLES

    return [c["external_id"] for c in json.loads((SAMPLES / "yugioh-sample.json").read_text())["cards"]]


if __name__ == "__main__":
    main()
