"""Collection reads for a big collector: 10,000 cards owned, 200 decks (20 of them built).

    .venv/bin/python bench/bench_collection.py [--cards 10000] [--decks 200] [--built 20] [--runs 60]

Times, through Django's test client (the whole request: middleware, views, serializers, SQL), the reads a
player makes: a page of the collection API, a search in it, where a card's copies are, a deck with owned /
missing per line and its hash (API and page), the deck list with 200 "buildable / missing N" badges, and
comparing two decks. Prints p50 / p95 / worst in ms of wall and CPU time, ours beside a peer run in the same
process (the same read uncached; for the badges also the simplest per-deck ORM code). Target: p95 < 50 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from throwaway_db import throwaway_database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10_000)
    parser.add_argument("--decks", type=int, default=200)
    parser.add_argument("--built", type=int, default=20)
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument(
        "--gc-freeze",
        action="store_true",
        help="gc.freeze() once the data is made, as a server may after start-up: Python's full collections then "
        "skip the start-up heap (its pauses are most of the p95 otherwise)",
    )
    args = parser.parse_args()
    GC_FREEZE.append(args.gc_freeze)
    with throwaway_database("collection") as connection:
        run(args.cards, args.decks, args.built, args.runs, connection.vendor)


GC_FREEZE: list[bool] = []


def run(cards: int, decks: int, built: int, runs: int, vendor: str) -> None:
    from django.test import Client
    from django.urls import NoReverseMatch, reverse

    from accounts.models import User
    from cards.games import games_sync
    from cards.models import Card, Game
    from collection.models import BuiltDeck, CollectionEntry
    from decks.models import Deck, DeckCard

    rng = random.Random(7)
    games_sync()
    game = Game.objects.get(slug="yugioh")
    user = User.objects.create_user(username="collector", password="bench-Pass-1")
    start = time.perf_counter()
    Card.objects.bulk_create(
        [Card(game=game, external_id=str(10_000_000 + i), identity=str(10_000_000 + i - i % 7 * (i % 50 == 0)),
              name=f"Bench Card {i}", search_name=f"bench card {i}", card_type=("monster", "spell", "trap")[i % 3])
         for i in range(cards)],
        batch_size=2000,
    )  # fmt: skip
    pool = list(Card.objects.filter(game=game).values_list("id", flat=True))
    CollectionEntry.objects.bulk_create(
        [CollectionEntry(owner=user, game=game, card_id=pk, count=rng.randint(1, 3)) for pk in pool],
        batch_size=2000,
    )
    made = Deck.objects.bulk_create(
        [Deck(owner=user, game=game, format_slug="advanced", name=f"Deck {d}") for d in range(decks)]
    )
    lines = []
    for deck in made:
        for position, pk in enumerate(rng.sample(pool, 14)):
            lines.append(
                DeckCard(
                    deck=deck, section="main", card_id=pk, count=3 if position < 13 else 1, position=position
                )
            )
    DeckCard.objects.bulk_create(lines, batch_size=2000)
    BuiltDeck.objects.bulk_create([BuiltDeck(deck=deck, owner=user, game=game) for deck in made[:built]])
    print(
        f"{vendor}: {cards} cards owned, {decks} decks of 40 ({built} built) made in {time.perf_counter() - start:.1f} s"
    )

    from django.core.cache import cache

    from collection.services import collection_version_bump

    collection_version_bump(owner=user, game=game)  # as collection_import does after writing the rows
    client = Client()
    client.force_login(user)
    if GC_FREEZE and GC_FREEZE[0]:
        import gc

        gc.collect()
        gc.freeze()
        print("gc.freeze() after start-up")
    target = made[built + 1]
    probe = Card.objects.get(pk=DeckCard.objects.filter(deck=made[0]).values_list("card_id", flat=True)[0])
    urls = {
        "collection API, a page of 100": reverse("api-collection") + "?game=yugioh",
        "collection API, search": reverse("api-collection") + "?game=yugioh&q=card 12",
        "where are a card's copies": reverse("api-collection-where") + f"?card={probe.pk}",
        "deck API (owned/missing, hash)": reverse("api-deck-detail", args=[target.pk]),
        "deck against collection page": reverse("collection:deck", args=[target.pk]),
        f"deck list page ({decks} decks, badges)": reverse("decks:list"),
        "collection page": reverse("collection:page") + "?game=yugioh",
    }
    try:
        urls["compare two decks"] = reverse("api-deck-compare") + f"?a={made[0].pk}&b={made[1].pk}"
    except NoReverseMatch:
        print("(compare: /api/decks/compare/ is not installed on this branch; skipped)")

    def get(url: str):  # type: ignore[no-untyped-def]
        def call() -> None:
            answer = client.get(url)
            assert answer.status_code == 200, (url, answer.status_code)

        return call

    def cold(read):  # type: ignore[no-untyped-def]
        def call() -> None:
            cache.clear()
            selectors._LOCAL.clear()  # the per-process copies too: every figure from the database
            read()

        return call

    from collection import selectors
    from collection.selectors import decks_missing_for

    fresh = list(Deck.objects.filter(owner=user).order_by("id"))
    reads = {label: (get(url), cold(get(url))) for label, url in urls.items()}
    reads[f"{decks} buildable badges (selector)"] = (
        lambda: decks_missing_for(user, fresh),
        cold(lambda: decks_missing_for(user, fresh)),
    )
    reads[f"{decks} badges, naive ORM peer"] = (
        lambda: decks_missing_for(user, fresh),
        lambda: _naive(user, fresh),
    )
    import os

    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {runs} runs per read")
    print(
        "peer: the same read with the cache emptied before each call (every figure computed from the database,"
    )
    print(
        "      as an implementation without the cache would); for the badges also the simplest ORM way: per deck"
    )
    print(
        "      its lines and one owned-count aggregate query (400 queries, and no built-deck allocation at all)"
    )
    head = f"{'':38} {'ours wall':>20} {'ours CPU':>20} {'peer wall':>20} {'peer CPU':>20}"
    print(head)
    print(f"{'read (ms: p50 / p95 / worst)':38}" + f" {'p50   p95 worst':>20}" * 4)
    worst_p95 = worst_cpu = 0.0
    for label, (ours, peer) in reads.items():
        wall, cpu = _measure(ours, runs)
        peer_wall, peer_cpu = _measure(peer, max(10, runs // 3)) if peer else ([], [])
        worst_p95, worst_cpu = max(worst_p95, _p95(wall)), max(worst_cpu, _p95(cpu))
        print(f"{label:38} {_fmt(wall)} {_fmt(cpu)} {_fmt(peer_wall)} {_fmt(peer_cpu)}")
    print(f"target p95 < 50 ms: wall {'met' if worst_p95 < 50 else 'NOT met'} (worst p95 {worst_p95:.1f} ms), "
          f"CPU {'met' if worst_cpu < 50 else 'NOT met'} (worst p95 {worst_cpu:.1f} ms)")  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


def _naive(user, decks) -> dict[int, int]:  # type: ignore[no-untyped-def]
    """What a player's script or the simplest ORM code does: per deck, read its lines, then ask the database
    how many of those cards the collection has (one aggregate query), and count what is short."""
    from django.db.models import Sum

    from collection.models import CollectionEntry
    from decks.models import DeckCard

    result = {}
    for deck in decks:
        lines = list(
            DeckCard.objects.filter(deck=deck).exclude(section="maybe").values_list("card__identity", "count")
        )
        owned = dict(
            CollectionEntry.objects.filter(
                owner=user, game_id=deck.game_id, card__identity__in=[i for i, _ in lines]
            )
            .values_list("card__identity")
            .annotate(n=Sum("count"))
        )
        result[deck.pk] = sum(max(0, count - owned.get(identity, 0)) for identity, count in lines)
    return result


def _measure(read, runs: int) -> tuple[list[float], list[float]]:  # type: ignore[no-untyped-def]
    read()  # warm caches and the query plan
    wall, cpu = [], []
    for _ in range(runs):
        began, began_cpu = time.perf_counter(), time.process_time()
        read()
        wall.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - began_cpu) * 1000)
    return sorted(wall), sorted(cpu)


def _fmt(times: list[float]) -> str:
    if not times:
        return f"{'—':>20}"
    return f"{statistics.median(times):6.1f} {_p95(times):6.1f} {times[-1]:6.1f}"


def _p95(sorted_times: list[float]) -> float:
    return sorted_times[max(0, int(len(sorted_times) * 0.95) - 1)]


if __name__ == "__main__":
    main()
