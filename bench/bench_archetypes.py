"""Labelling every deck of a 2,000-player Yu-Gi-Oh! event by archetype set code.

    .venv/bin/python bench/bench_archetypes.py [--players 2000] [--repeat 5]

Throw-away test database (SQLite; PostgreSQL when DATABASE_URL is set). Stores the set codes of YGOPro's
2020 card database (only the cards the decks use, real codes from ../shared/data/ygo) and registers
``--players`` players, each with one of YGOPro's windbot decks (main deck) as a snapshot. Then times
``results.services.archetypes_classify`` (read the decks, read the cards' set codes, label, write the labels)
from nothing stored, ``--repeat`` times, and prints p50 / max of wall time, p50 of this process's CPU time (the
machine may be shared: CPU time is what the work costs) and the labels' counts. Target: under 1 s.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from throwaway_db import throwaway_database

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "ygo"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if not (SHARED / "cdb").is_dir():
        sys.exit("needs ../shared/data/ygo (the YGOPro card database and decks)")
    with throwaway_database("archetypes"):
        run(args)


def _decks() -> list[Counter[int]]:
    decks = []
    for path in sorted((SHARED / "ydk").glob("*.ydk")):
        counts: Counter[int] = Counter()
        section = "main"
        for line in path.read_text().splitlines():
            line = line.strip()
            section = "extra" if line.startswith("#extra") else "side" if line.startswith("!") else section
            if line.isdigit() and section == "main":
                counts[int(line)] += 1
        decks.append(counts)
    return decks


def run(args: argparse.Namespace) -> None:
    from accounts.models import User
    from cards.games import games_sync
    from cards.models import Card, Game
    from results.models import DeckArchetype
    import results.services as _rs
    archetypes_classify = _rs.archetypes_classify
    from tournaments import services
    from tournaments.models import Player

    games_sync()
    game = Game.objects.get(slug="yugioh")
    decks = _decks()
    wanted = {card for deck in decks for card in deck}
    db = sqlite3.connect(SHARED / "cdb" / "cards-2020-03-30.cdb")
    rows = db.execute("SELECT d.id, d.setcode, t.name FROM datas d JOIN texts t ON t.id = d.id").fetchall()
    cards = Card.objects.bulk_create([
        Card(game=game, external_id=str(cid), name=name, card_type="monster",
             attributes={"setcode": [c for c in ((sc >> s) & 0xFFFF for s in (0, 16, 32, 48)) if c]})
        for cid, sc, name in rows if cid in wanted
    ])  # fmt: skip
    by_passcode = {int(c.external_id): c.pk for c in Card.objects.filter(game=game)}
    del cards
    organizer = User.objects.create_user("bench-organizer", password="x", is_organizer=True)
    event = services.tournament_create(created_by=organizer, name="Regional", game=game, format_slug="advanced",
                                       seed=2026)  # fmt: skip
    snapshots = [
        {"sections": {"main": [{"card_id": by_passcode.get(card), "external_id": str(card), "name": "", "count": n}
                               for card, n in deck.items()]}}
        for deck in decks
    ]  # fmt: skip
    Player.objects.bulk_create([
        Player(tournament=event, name=f"Player {i:05d}", deck=snapshots[i % len(snapshots)])
        for i in range(args.players)
    ])  # fmt: skip
    times, cpu = [], []
    for _ in range(args.repeat):
        DeckArchetype.objects.all().delete()
        start, start_cpu = time.perf_counter(), time.process_time()
        labels = archetypes_classify(tournament=event)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    names = Counter(a.name or ("(two rules)" if a.candidates else "(no rule)") for a in labels.values())
    print(f"players {args.players}: classify p50 {statistics.median(times) * 1000:.0f} ms, "
          f"max {max(times) * 1000:.0f} ms wall; CPU p50 {statistics.median(cpu) * 1000:.0f} ms (target < 1000 ms)")  # fmt: skip
    for name, n in names.most_common():
        print(f"  {name}: {n}")


if __name__ == "__main__":
    main()
