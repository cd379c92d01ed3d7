"""Deck comparison reads: GET /api/decks/compare/ and the compare page for random pairs among 200 decks of
40–75 cards (one player's own and others' public decks), with the SQL query count per request.

`.venv/bin/python bench/bench_compare.py [--decks 200] [--requests 300] [--full]` (`--full`: the whole shared
Yu-Gi-Oh! database when it is there, else the sample cards). Target: p95 under 50 ms per compare. Prints
p50 / p95 / worst of wall and CPU time (on a shared, loaded machine the wall time mostly measures the wait for
a core) beside a peer run on the same pairs: the comparison a script makes from two deck reads.
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
        import os

        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        pairs = [rng.sample(ids, 2) for _ in range(args.requests)]

        def ours_api(a: int, b: int) -> int:
            return _get(client, "/api/decks/compare/", {"a": a, "b": b})

        def ours_page(a: int, b: int) -> int:
            return _get(client, "/decks/compare/", {"a": a, "b": b})

        def peer(a: int, b: int) -> int:
            # What a player's script does without the endpoint: read both decks from the deck API and
            # compare the lines itself.
            answers = [client.get(f"/api/decks/{pk}/") for pk in (a, b)]
            assert all(r.status_code == 200 for r in answers)
            lines = [
                {
                    (slug, e["card"]): e["count"]
                    for slug, entries in r.json()["sections"].items()
                    for e in entries
                }
                for r in answers
            ]
            both = {k: min(lines[0][k], lines[1][k]) for k in lines[0].keys() & lines[1].keys()}
            assert both is not None
            return 2

        print(
            "peer: the same comparison done as a script would without the endpoint: GET /api/decks/<a>/ and"
        )
        print("      /api/decks/<b>/, then the lines compared in Python (same process, same pairs)")
        print(f"{'':28} {'wall ms':>20} {'CPU ms':>20}  queries")
        print(f"{'read (p50 / p95 / worst)':28}" + f" {'p50   p95 worst':>20}" * 2)
        worst = 0.0
        for label, read in (("GET /api/decks/compare/", ours_api), ("compare page", ours_page),
                            ("peer: two deck reads + diff", peer)):  # fmt: skip
            times: list[float] = []
            cpu: list[float] = []
            queries: list[int] = []
            read(*pairs[0])
            for a, b in pairs:
                with CaptureQueriesContext(connection) as captured:
                    start, start_cpu = time.perf_counter(), time.process_time()
                    read(a, b)
                    times.append((time.perf_counter() - start) * 1000)
                    cpu.append((time.process_time() - start_cpu) * 1000)
                queries.append(len(captured.captured_queries))
            if not label.startswith("peer"):
                worst = max(worst, percentile(times, 95))
            print(f"{label:28} {_fmt(times)} {_fmt(cpu)}  {min(queries)}–{max(queries)}")
        print(f"target p95 < 50 ms: wall {'met' if worst < 50 else 'NOT met'} (worst p95 {worst:.1f} ms)")
        print(f"load average {os.getloadavg()[0]:.1f} at the end")


def _get(client, url: str, params: dict) -> int:  # type: ignore[no-untyped-def]
    response = client.get(url, params)
    assert response.status_code == 200, response.content[:200]
    return 1


def _fmt(times: list[float]) -> str:
    return f"{statistics.median(times):6.1f} {percentile(times, 95):6.1f} {max(times):6.1f}"


if __name__ == "__main__":
    main()
