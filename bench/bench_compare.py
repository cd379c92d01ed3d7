"""Deck comparison reads: GET /api/decks/compare/ and the compare page for random pairs among 200 decks of
40–75 cards (one player's own and others' public decks), with the SQL query count per request.

`.venv/bin/python bench/bench_compare.py [--decks 200] [--requests 300] [--full]` (`--full`: the whole shared
Yu-Gi-Oh! database when it is there, else the sample cards). Target: p95 under 50 ms per compare. On a shared, loaded machine the wall time mostly measures the wait for
a core: the process's own CPU time per request is printed beside it.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from throwaway_db import throwaway_database


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--decks", type=int, default=200)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    with throwaway_database("compare") as connection:
        from django.conf import settings
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        from accounts.models import User
        from cards import demo
        from cards.games import games_sync
        from cards.models import Card, Game
        from decks.models import Deck
        from decks.services import deck_create

        settings.ALLOWED_HOSTS = ["*"]
        games_sync()
        demo.load(io.StringIO(), full_database=args.full)
        game = Game.objects.get(slug="yugioh")
        cards = list(Card.objects.filter(game=game, deck_buildable=True, is_token=False))
        me, other = User.objects.create_user("me"), User.objects.create_user("other")
        ids = []
        for i in range(args.decks):
            chosen = rng.sample(cards, min(len(cards), rng.randint(14, 25)))
            sections = {
                "main": [(c, rng.randint(1, 3)) for c in chosen[:-4]],
                "maybe": [(c, 1) for c in chosen[-4:]],
            }
            deck = deck_create(
                owner=me if i % 2 else other, game=game, name=f"Deck {i}", format_slug="advanced",
                sections=sections, visibility=Deck.Visibility.PUBLIC,
            )  # fmt: skip
            ids.append(deck.pk)
        client = Client()
        client.force_login(me)
        print(f"{len(cards)} Yu-Gi-Oh! cards, {len(ids)} decks, {args.requests} requests each")
        for label, url in (
            ("GET /api/decks/compare/", "/api/decks/compare/"),
            ("compare page", "/decks/compare/"),
        ):
            times: list[float] = []
            cpu: list[float] = []
            queries: list[int] = []
            for _ in range(args.requests):
                a, b = rng.sample(ids, 2)
                with CaptureQueriesContext(connection) as captured:
                    start, start_cpu = time.perf_counter(), time.process_time()
                    response = client.get(url, {"a": a, "b": b})
                    times.append((time.perf_counter() - start) * 1000)
                    cpu.append((time.process_time() - start_cpu) * 1000)
                assert response.status_code == 200, response.content[:200]
                queries.append(len(captured.captured_queries))
            print(
                f"{label:26} median {statistics.median(times):6.1f} ms  p95 {percentile(times, 95):6.1f} ms  "
                f"max {max(times):6.1f} ms  CPU p95 {percentile(cpu, 95):6.1f} ms  queries {min(queries)}–{max(queries)}"
            )


if __name__ == "__main__":
    main()
