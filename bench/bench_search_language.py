"""The card search language at the size of Magic: CPU per search request, beside a bare FTS5 table.

A fresh database (SQLite by default; PostgreSQL with DATABASE_URL, via bench/throwaway_db.py) gets the full
shared YGOPro .cdb (10,628 cards) with the 2020.04 TCG list, and Magic: the four shared Cockatrice set files
plus generated cards of the same shape (type lines, colours, mana values, power/toughness, rules text taken
from the real cards) printed in generated sets until there are at least 45,000 printings. Then, per query
kind (name words, rules text, attribute comparisons, negation, or, legality, the builder's grouped search),
it times GET /api/cards/?game=&q= and GET /api/cards/grouped/ through Django's test client, CPU time of the
process (Django and SQLite run in it), and prints p50 / p95 / worst beside the same question asked of a bare
SQLite FTS5 table of the same rows (name and rules text indexed, the attributes as plain columns).

Usage: .venv/bin/python bench/bench_search_language.py [--rounds 15] [--printings 45000]
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from throwaway_db import throwaway_database

# kind -> (game, query in the language, bare FTS5 SQL after "SELECT rowid FROM bare WHERE ", its parameters)
QUERIES: list[tuple[str, str, str, str, tuple[object, ...]]] = [
    ("name", "yugioh", "blue eyes", "bare MATCH ? AND game = ?", ('name:"blue"* AND name:"eyes"*', "yugioh")),
    ("name", "mtg", "dragon", "bare MATCH ? AND game = ?", ('name:"dragon"*', "mtg")),
    (
        "rules text",
        "yugioh",
        'o:"destroy all monsters"',
        "bare MATCH ? AND game = ?",
        ('text:"destroy all monsters"', "yugioh"),
    ),
    ("rules text", "mtg", 'o:"draw a card"', "bare MATCH ? AND game = ?", ('text:"draw a card"', "mtg")),
    # The hardest phrase for the word postings: two common words on 40% of the cards, each row checked.
    (
        "rules text",
        "yugioh",
        'o:"special summon"',
        "bare MATCH ? AND game = ?",
        ('text:"special summon"', "yugioh"),
    ),
    (
        "attributes",
        "yugioh",
        "t:dragon atk>=3000",
        "game='yugioh' AND typeline LIKE '% dragon %' AND atk >= 3000",
        (),
    ),
    (
        "attributes",
        "mtg",
        "t:creature c:r mv>=5 pow>=4",
        "game='mtg' AND typeline LIKE '% creature %' AND color LIKE '%R%' AND cost >= 5 AND power >= 4",
        (),
    ),
    (
        "negation",
        "yugioh",
        "dragon -t:dragon",
        "bare MATCH ? AND game = ?",
        ('name:"dragon"* NOT typeline:"dragon"', "yugioh"),
    ),
    (
        "negation",
        "mtg",
        "t:instant -c:u -c:r",
        "game='mtg' AND typeline LIKE '% instant %' AND color NOT LIKE '%U%' AND color NOT LIKE '%R%'",
        (),
    ),
    (
        "or",
        "yugioh",
        "(t:synchro or t:xyz) attribute:dark",
        "game='yugioh' AND (typeline LIKE '% synchro %' OR typeline LIKE '% xyz %') AND attribute = 'DARK'",
        (),
    ),
    (
        "or",
        "mtg",
        "t:elf or t:goblin",
        "game='mtg' AND (typeline LIKE '% elf %' OR typeline LIKE '% goblin %')",
        (),
    ),
    ("legality", "yugioh", "banned:tcg", "game='yugioh' AND banned = 1", ()),
    (
        "legality",
        "yugioh",
        "t:dragon atk>=3000 -banned:",
        "game='yugioh' AND typeline LIKE '% dragon %' AND atk >= 3000 AND banned = 0",
        (),
    ),
]
GROUPED = [("grouped", "yugioh", "t:dragon atk>=3000 -banned:"), ("grouped", "mtg", "t:creature c:g"),
           ("grouped", "yugioh", "magician"), ("grouped", "mtg", 'o:"draw a card"')]  # fmt: skip


def magic_file(shared: Path, printings_wanted: int, seed: int) -> tuple[bytes, int]:
    """Deckhall JSON with generated Magic cards shaped like the real ones (from the shared set files)."""
    from cards.importers import cockatrice

    rng = random.Random(seed)
    real = []
    for path in sorted((shared / "mtg" / "cockatrice").glob("*.xml")):
        parsed = cockatrice.parse(path.read_bytes())
        real.extend(parsed.records)
    words = sorted({w for r in real for w in r.name.replace(",", "").split() if w[:1].isupper()})
    sets = [{"code": f"G{i:03d}", "name": f"Generated set {i}", "set_type": "expansion",
             "release_date": f"{2000 + i // 12}-{1 + i % 12:02d}-01"} for i in range(212)]  # fmt: skip
    cards, printings, seen = [], 0, set()
    while printings < printings_wanted:
        model = rng.choice(real)
        name = " ".join(rng.sample(words, rng.choice((2, 2, 3))))
        if name in seen:
            continue
        seen.add(name)
        count = rng.choice((1, 1, 2, 2, 3, 4))
        chosen = rng.sample(sets, count)
        cards.append({
            "external_id": name, "name": name, "card_type": model.card_type, "subtypes": model.subtypes,
            "cost": model.cost, "attributes": model.attributes,
            "text": model.text.replace(model.name, name),
            "printings": [{"set": s["code"], "code": str(rng.randint(1, 300)), "rarity": rng.choice(("common", "uncommon", "rare", "mythic"))} for s in chosen],
        })  # fmt: skip
        printings += count
    body = {"format": "deckhall-cards", "version": 1, "game": "mtg", "sets": sets, "cards": cards}
    return json.dumps(body).encode(), printings


def bare_table() -> sqlite3.Connection:
    """A bare FTS5 table of the same rows: name and text indexed, attributes as plain (unindexed) columns."""
    from cards.models import Card
    from cards.search import game_fields
    from cardsearch.evaluate import typeline_text
    from rules.models import BanListEntry

    banned = set(BanListEntry.objects.filter(limit=0).values_list("external_id", flat=True))
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE bare USING fts5(name, text, typeline, game UNINDEXED, atk UNINDEXED, "
               "cost UNINDEXED, power UNINDEXED, color UNINDEXED, attribute UNINDEXED, banned UNINDEXED, "
               "tokenize='unicode61 remove_diacritics 2')")  # fmt: skip
    rows = []
    for card in Card.objects.select_related("game").iterator(chunk_size=5000):
        a = card.attributes
        sources = game_fields(card.game.slug).keywords["type"].extra_sources
        color = a.get("color")
        rows.append((card.name, card.text, typeline_text(card, sources), card.game.slug, a.get("atk"), card.cost,
                     a.get("power"), "".join(color) if isinstance(color, list) else color or "",
                     a.get("attribute"), int(card.external_id in banned)))  # fmt: skip
    db.executemany("INSERT INTO bare VALUES (?,?,?,?,?,?,?,?,?,?)", rows)
    db.commit()
    return db


def index_memory() -> None:
    """What one web process holds per game: the index built again under tracemalloc, after the word
    postings of names and rules text are built too (the first name and rules-text searches build them)."""
    import gc
    import tracemalloc

    from cards import search
    from cards.models import Game

    for game in Game.objects.filter(slug__in=("yugioh", "mtg")).order_by("slug"):
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        index = search._build(game)
        index.words("name"), index.words("text")
        size = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        print(f"index of {game.slug}: {len(index.rows):,} rows, {size / 1e6:.0f} MB with its word postings")
        del index


def index_match(slug: str, q: str, rounds: int) -> tuple[list[float], int]:
    """CPU of the matching alone, as the bare FTS5 figure is: the query read and evaluated over the game's
    in-process index (legality from the same ban lists), no request, no page, no JSON."""
    import datetime

    from cards import search
    from cards.models import Game
    from cardsearch import parse
    from cardsearch.evaluate import Context

    game = Game.objects.get(slug=slug)
    index = search.game_index(game)
    table = search.game_fields(slug)
    times, found = [], 0
    for _ in range(rounds):
        c0 = time.process_time()
        context = Context(
            printings=lambda card: card.printings,
            legality=search._legality(game, datetime.date(2020, 6, 1), {}),
        )
        found = len(index.search(parse(q, table.keywords), context))
        times.append(1000 * (time.process_time() - c0))
    return times, found


def percentiles(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95, ordered[-1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--printings", type=int, default=45_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--profile", default="", help="write cProfile stats of the timed requests here")
    args = parser.parse_args()
    with throwaway_database("search") as connection:
        from django.conf import settings
        from django.test import Client

        from cards.games import games_sync
        from cards.models import Card, Game, Printing
        from cards.services import cards_import
        from rules.services import banlist_import

        shared = Path(settings.SHARED_DATA_DIR)
        games_sync()
        ygo, mtg = Game.objects.get(slug="yugioh"), Game.objects.get(slug="mtg")
        cdb = shared / "ygo" / "cdb" / "cards-2020-03-30.cdb"
        start = time.perf_counter()
        assert cards_import(game=ygo, data=cdb.read_bytes(), filename=cdb.name).ok
        lflist = shared / "ygo" / "lflist" / "TCG_2020.04.lflist.conf"
        banlist_import(game=ygo, text=lflist.read_text(encoding="utf-8"), source=lflist.name)
        for path in sorted((shared / "mtg" / "cockatrice").glob("*.xml")):
            assert cards_import(game=mtg, data=path.read_bytes(), filename=path.name).ok
        data, _n = magic_file(shared, args.printings, args.seed)
        result = cards_import(game=mtg, data=data, filename="generated.json")
        assert result.ok, result.errors[:3]
        loaded = time.perf_counter() - start
        print(f"database: {connection.vendor}; Yu-Gi-Oh! {Card.objects.filter(game=ygo).count():,} cards; "
              f"Magic {Card.objects.filter(game=mtg).count():,} cards, "
              f"{Printing.objects.filter(card__game=mtg).count():,} printings (loaded in {loaded:.0f} s)")  # fmt: skip
        client = Client(HTTP_HOST="localhost")
        for slug in ("yugioh", "mtg"):  # the first search of a game builds its index: timed apart
            t0, c0 = time.perf_counter(), time.process_time()
            assert client.get("/api/cards/", {"game": slug, "q": "x"}).status_code == 200
            print(f"first search of {slug} (index built): {1000 * (time.perf_counter() - t0):.0f} ms wall, "
                  f"{1000 * (time.process_time() - c0):.0f} ms CPU")  # fmt: skip
        index_memory()
        bare = bare_table()
        print(f"\n{'kind':<11} {'game':<7} {'query':<34} {'hits':>6} | request {'p50':>6} {'p95':>6} {'worst':>6} "
              f"{'wall95':>6}"
              f" | index {'p50':>6} {'p95':>6} {'worst':>6} | bare FTS5 {'p50':>6} {'p95':>6} {'worst':>6} "
              f"{'hits':>6}   (ms CPU)")  # fmt: skip
        every: list[float] = []
        every_wall: list[float] = []
        import cProfile

        profiler = cProfile.Profile() if args.profile else None
        rows: list[tuple[str, str, str, str, tuple[object, ...]]] = [
            *QUERIES,
            *((k, g, q, "", ()) for k, g, q in GROUPED),
        ]
        for kind, game, q, bare_sql, bare_params in rows:
            endpoint = "/api/cards/grouped/" if kind == "grouped" else "/api/cards/"
            params = {"game": game, "q": q, "date": "2020-06-01"}
            if kind == "grouped":
                params |= {"page_size": "40", "deck_buildable": "true"}
            response = client.get(endpoint, params)
            assert response.status_code == 200, response.content[:200]
            hits = response.json()["count"]
            cpus = []
            if profiler is not None:
                profiler.enable()
            walls = []
            for _ in range(args.rounds):
                c0, w0 = time.process_time(), time.perf_counter()
                client.get(endpoint, params)
                cpus.append(1000 * (time.process_time() - c0))
                walls.append(1000 * (time.perf_counter() - w0))
            every_wall.extend(walls)
            if profiler is not None:
                profiler.disable()
            every.extend(cpus)
            p50, p95, worst = percentiles(cpus)
            index_text = " " * 20
            if kind != "grouped":
                index_cpus, index_hits = index_match(game, q, args.rounds)
                assert index_hits == hits, (q, index_hits, hits)
                i50, i95, iworst = percentiles(index_cpus)
                index_text = f"{i50:6.2f} {i95:6.2f} {iworst:6.2f}"
            bare_text = ""
            if bare_sql:
                times, found = [], 0
                for _ in range(args.rounds):
                    c0 = time.process_time()
                    found = len(
                        bare.execute(f"SELECT rowid FROM bare WHERE {bare_sql}", bare_params).fetchall()
                    )
                    times.append(1000 * (time.process_time() - c0))
                b50, b95, bworst = percentiles(times)
                bare_text = f"{b50:6.2f} {b95:6.2f} {bworst:6.2f} {found:6d}"
            print(f"{kind:<11} {game:<7} {q[:34]:<34} {hits:6d} |         {p50:6.1f} {p95:6.1f} {worst:6.1f} "
                  f"{percentiles(walls)[1]:6.1f} |"
                  f"       {index_text} |           {bare_text}")  # fmt: skip
        if profiler is not None:
            profiler.dump_stats(args.profile)
        p50, p95, worst = percentiles(every)
        print(
            f"\nall search requests: p50 {p50:.1f} ms, p95 {p95:.1f} ms, worst {worst:.1f} ms CPU (target p95 < 20 ms)"
        )
        w50, w95, wworst = percentiles(every_wall)
        print(f"all search requests, wall clock: p50 {w50:.1f} ms, p95 {w95:.1f} ms, worst {wworst:.1f} ms")


if __name__ == "__main__":
    main()
