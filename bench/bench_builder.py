"""Server-side time and SQL query count of the deck builder page (and the deck page) for a 75-card deck.

Runs on a throwaway SQLite database: `.venv/bin/python bench/bench_builder.py [--runs 30]`.
Target: builder page under 150 ms with a bounded number of queries.
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
    demo.load(io.StringIO())
    game = Game.objects.get(slug="yugioh")
    cards = [
        c
        for c in Card.objects.filter(game=game, is_token=False).order_by("external_id")
        if c.external_id != "46986415"
    ]
    extra_kinds = {"fusion", "synchro", "xyz", "link"}
    extra = [c for c in cards if extra_kinds & set(c.subtypes)]
    main_cards = [c for c in cards if not extra_kinds & set(c.subtypes)]
    # 75 cards: main 45 (15 × 3), extra 15, side 15 — as many distinct rows as the sample allows.
    main = [(c, 3) for c in main_cards[:15]]
    extra_lines = [(c, 3 if i == 0 else 2) for i, c in enumerate(extra[:7])]
    side = [(c, 1) for c in main_cards[15:30]]
    user = User.objects.create_user("bench", password="bench-Pass-123")
    deck = deck_create(
        owner=user, game=game, name="Bench 75", format_slug="advanced",
        sections={"main": main, "extra": extra_lines, "side": side},
    )  # fmt: skip
    total = sum(n for lines in (main, extra_lines, side) for _c, n in lines)
    client = Client()
    client.force_login(user)

    for label, url in (("builder", f"/decks/{deck.pk}/edit/"), ("deck page", f"/decks/{deck.pk}/")):
        client.get(url)  # warm caches (templates, rule registry)
        timings = []
        for _ in range(args.runs):
            start = time.perf_counter()
            response = client.get(url)
            timings.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        print(
            f"{label:10s} {total} cards in {sum(len(x) for x in (main, extra_lines, side))} rows: "
            f"median {statistics.median(timings):.1f} ms, p90 {sorted(timings)[int(len(timings) * 0.9) - 1]:.1f} ms, "
            f"{len(queries)} SQL queries ({args.runs} runs)"
        )


if __name__ == "__main__":
    main()
