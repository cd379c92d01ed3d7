"""Card and deck imports on the shared community files, into a fresh temporary SQLite database.

Prints, as tables with the median and the worst of N runs:
- the 10,628-card YGOPro .cdb: first import into an empty game, then a re-import (target < 5 s);
- the four Cockatrice MTG set files imported one after another into one empty game (target < 10 s);
and then how many real files of each kind import (.cdb, Cockatrice sets, .ydk byte for byte, .cod decks,
deck text) and the peak memory of the process.

Usage: .venv/bin/python bench/bench_import.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CDB_TARGET_S = 5.0
MTG_TARGET_S = 10.0


def _timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def _row(label: str, times: list[float], target: float | None) -> str:
    worst = max(times)
    verdict = "" if target is None else ("OK" if worst < target else "MISSED")
    goal = f"< {target:.0f} s" if target is not None else ""
    return f"| {label:<38} | {statistics.median(times):8.2f} | {worst:8.2f} | {goal:>7} | {verdict:<6} |"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="deckhall-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    data_dir = Path(settings.SHARED_DATA_DIR)
    cdb = data_dir / "ygo" / "cdb" / "cards-2020-03-30.cdb"
    set_files = sorted((data_dir / "mtg" / "cockatrice").glob("*.xml"))
    if not cdb.is_file() or not set_files:
        sys.exit(f"shared data not found under {data_dir} (set DECKHALL_SHARED_DATA)")
    call_command("migrate", verbosity=0)
    from cards.games import games_sync
    from cards.models import Card, CardSet, Game
    from cards.services import cards_import

    games_sync()
    ygo = Game.objects.get(slug="yugioh")
    mtg, _ = Game.objects.get_or_create(slug="mtg", defaults={"name": "Magic: The Gathering"})
    cdb_bytes = cdb.read_bytes()
    set_bytes = [(path.name, path.read_bytes()) for path in set_files]

    def empty(game: Game) -> None:
        Card.objects.filter(game=game).delete()
        CardSet.objects.filter(game=game).delete()

    def import_all_sets() -> None:
        for name, data in set_bytes:
            assert cards_import(game=mtg, data=data, filename=name).ok, name

    first, again, sets = [], [], []
    for _ in range(args.runs):
        empty(ygo)
        first.append(_timed(lambda: cards_import(game=ygo, data=cdb_bytes, filename=cdb.name)))
        again.append(_timed(lambda: cards_import(game=ygo, data=cdb_bytes, filename=cdb.name)))
        empty(mtg)
        sets.append(_timed(import_all_sets))
    print(f"Card imports, {args.runs} runs each (seconds)\n")
    print(f"| {'import':<38} | {'median':>8} | {'worst':>8} | {'target':>7} | {'':<6} |")
    print(f"|{'-' * 40}|{'-' * 10}|{'-' * 10}|{'-' * 9}|{'-' * 8}|")
    print(_row(f".cdb, {Card.objects.filter(game=ygo).count()} cards, first import", first, CDB_TARGET_S))
    print(_row(".cdb re-import (nothing changed)", again, CDB_TARGET_S))
    print(_row(f"{len(set_files)} MTG set files, one after another", sets, MTG_TARGET_S))
    print(
        f"\nMTG database after the set files: {Card.objects.filter(game=mtg).count()} cards, "
        f"{CardSet.objects.filter(game=mtg).count()} sets\n"
    )
    _real_files(data_dir, ygo)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory: {peak_mb:.0f} MB (ru_maxrss, whole process incl. Django)")
    shutil.rmtree(tmp, ignore_errors=True)


def _real_files(data_dir: Path, ygo: object) -> None:
    """How many real files of each kind import (the cards of both games are in the database by now)."""
    from accounts.models import User
    from cards.importers import parse
    from decks.formats import parse_deck
    from decks.services import DeckImportError, deck_export, deck_import

    owner, _ = User.objects.get_or_create(username="bench")
    rows: list[tuple[str, int, int, str]] = []
    cdbs = sorted((data_dir / "ygo" / "cdb").glob("*.cdb"))
    ok = [p for p in cdbs if not parse(p.read_bytes(), filename=p.name).errors]
    rows.append((".cdb card databases", len(ok), len(cdbs), "no errors, no warnings"))
    sets = sorted((data_dir / "mtg" / "cockatrice").glob("*.xml"))
    ok = [p for p in sets if not parse(p.read_bytes(), filename=p.name).errors]
    rows.append(("Cockatrice MTG set files", len(ok), len(sets), "imported above, one database"))
    ydks = sorted((data_dir / "ygo" / "ydk").glob("*.ydk"))
    parsed = [p for p in ydks if not parse_deck(p.read_bytes(), filename=p.name).errors]
    rows.append((".ydk decks parse", len(parsed), len(ydks), ""))
    whole, same = 0, 0
    for path in ydks:
        data = path.read_bytes()
        try:
            result = deck_import(owner=owner, game=ygo, data=data, filename=path.name, format_slug="advanced")
        except DeckImportError:
            continue  # holds cards newer than the 2020 database
        whole += 1
        same += deck_export(deck=result.deck, fmt="ydk").content == data
    rows.append((".ydk import with every card known", whole, len(ydks), "others hold post-2020 cards"))
    rows.append((".ydk import → export byte for byte", same, whole, "of those imported whole"))
    cods = sorted((data_dir / "mtg" / "cod").glob("*.cod"))
    ok = [p for p in cods if not parse_deck(p.read_bytes(), filename=p.name).errors]
    rows.append(
        (".cod decks parse (zones → sections)", len(ok), len(cods), "reprints outside 4 sets: unknown")
    )
    texts = sorted((data_dir / "mtg" / "text").glob("*.txt"))
    ok = [p for p in texts if not parse_deck(p.read_bytes(), filename=p.name).errors]
    rows.append(("deck text (Arena export)", len(ok), len(texts), ""))
    print(f"| {'real files':<38} | {'ok':>4} | {'of':>4} | note")
    print(f"|{'-' * 40}|{'-' * 6}|{'-' * 6}|{'-' * 34}")
    for label, good, total, note in rows:
        print(f"| {label:<38} | {good:>4} | {total:>4} | {note}")


if __name__ == "__main__":
    main()
