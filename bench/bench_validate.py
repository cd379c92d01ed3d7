"""Deck validation speed: the pure engine on the 12 real YGO decks, and the API's median latency.

    .venv/bin/python bench/bench_validate.py

Needs ../shared/data (or DECKHALL_SHARED_DATA). The API part builds its own temporary SQLite database.
Targets: >= 10,000 validations/s on one core; API median < 30 ms.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SHARED = Path(os.environ.get("DECKHALL_SHARED_DATA", ROOT.parent / "shared" / "data"))


def bench_engine() -> None:
    from rules.engine import BanListInfo, default_registry, validate_deck
    from tests.rules.ygo_data import load_cdb, ydk_deck

    cards = load_cdb(SHARED / "ygo/cdb/cards-2020-03-30.cdb")
    limits: dict[str, int] = {}
    for line in (SHARED / "ygo/lflist/TCG_2020.04.lflist.conf").read_text(encoding="utf-8").splitlines():
        if line[:1].isdecimal():
            code, count = line.split()[:2]
            limits[code] = int(count)
    banlist = BanListInfo(name="2020.04 TCG", limits=limits)
    fmt = default_registry().format("yugioh", "advanced")
    decks = [ydk_deck(p, cards) for p in sorted((SHARED / "ygo/ydk").glob("*.ydk"))]
    # Best of five runs (as timeit does): the machine is shared, and the slowest runs measure the neighbours.
    rounds, runs = 500, 5
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(rounds):
            for deck in decks:
                validate_deck(deck, fmt, banlist=banlist)
        times.append(time.perf_counter() - start)
    n = rounds * len(decks)
    best, median = min(times), statistics.median(times)
    print(f"engine: {n} validations of {len(decks)} real decks, best of {runs} runs {best:.2f} s = "
          f"{n / best:,.0f} /s ({best / n * 1e6:.1f} µs each); median run {n / median:,.0f} /s")  # fmt: skip


def bench_api() -> None:
    tmp = tempfile.mkdtemp(prefix="deckhall-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    call_command("migrate", verbosity=0)
    from cards.games import games_sync
    from cards.models import Card, Game
    from rules.services import banlist_import
    from tests.rules.ygo_data import load_cdb, read_ydk

    games_sync()
    game = Game.objects.get(slug="yugioh")
    infos = load_cdb(SHARED / "ygo/cdb/cards-2020-03-30.cdb")
    Card.objects.bulk_create(
        [
            Card(game=game, external_id=c.key, identity=c.identity, name=c.name, search_name=c.name.casefold(),
                 card_type=c.card_type, subtypes=list(c.subtypes), level=c.level, attributes=dict(c.attributes),
                 is_token=c.is_token, deck_buildable=c.deck_buildable)
            for c in infos.values()
        ],
        batch_size=1000,
    )  # fmt: skip
    text = (SHARED / "ygo/lflist/TCG_2020.04.lflist.conf").read_text(encoding="utf-8")
    banlist_import(game=game, text=text)
    client = Client()
    bodies = []
    for path in sorted((SHARED / "ygo/ydk").glob("*.ydk")):
        sections = {}
        for slug, codes in read_ydk(path).items():
            counts: dict[str, int] = {}
            for code in codes:
                counts[code] = counts.get(code, 0) + 1
            sections[slug] = [{"card": c, "count": n} for c, n in counts.items()]
        bodies.append(
            {"game": "yugioh", "format": "advanced", "banlist": "2020.04 TCG", "sections": sections}
        )
    for body in bodies:  # warm up
        assert client.post("/api/decks/validate/", body, content_type="application/json").status_code == 200
    times = []
    for _ in range(10):
        for body in bodies:
            start = time.perf_counter()
            client.post("/api/decks/validate/", body, content_type="application/json")
            times.append((time.perf_counter() - start) * 1000)
    times.sort()
    print(f"api: {len(times)} POST /api/decks/validate/ (sections by passcode): median {statistics.median(times):.1f} ms, "
          f"p90 {times[int(len(times) * 0.9)]:.1f} ms")  # fmt: skip
    body = {"game": "yugioh", "format": "advanced", "banlist": "2020.04 TCG",
            "ydk": (SHARED / "ygo/ydk/AI_Orcust.ydk").read_text(encoding="utf-8")}  # fmt: skip
    ydk_times = []
    for _ in range(30):
        start = time.perf_counter()
        client.post("/api/decks/validate/", body, content_type="application/json")
        ydk_times.append((time.perf_counter() - start) * 1000)
    print(f"api: 30 POST /api/decks/validate/ (ydk text): median {statistics.median(ydk_times):.1f} ms")


if __name__ == "__main__":
    if not SHARED.is_dir():
        sys.exit(f"shared data not found at {SHARED}")
    bench_engine()
    bench_api()
