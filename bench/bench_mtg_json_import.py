"""The whole Magic card pool at scale: a generated MTGJSON AllPrintings file of 100,000 printings (the real
shape: sets with their cards, one object per face, foreignData, legalities, identifiers, rulings…) imported
into a fresh temporary SQLite database by the streaming importer, then searched.

Prints the file's size, the import time (wall clock, and the CPU time of the importing process, which other
jobs on a shared machine do not inflate), the importing process's peak memory (ru_maxrss of a child process
that does nothing else; target < 400 MB) and the median time of a few card searches on the result.

Usage: .venv/bin/python bench/bench_mtg_json_import.py [--printings N] [--keep FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MEMORY_TARGET_MB = 400
LANGUAGES = ["German", "Spanish", "French", "Italian", "Japanese", "Portuguese (Brazil)", "Russian", "Korean"]
FORMATS = ["alchemy", "brawl", "commander", "duel", "explorer", "future", "gladiator", "historic", "legacy",
           "modern", "oathbreaker", "pauper", "penny", "pioneer", "predh", "premodern", "standard", "timeless",
           "vintage"]  # fmt: skip
WORDS = ["Dragon", "Angel", "Goblin", "Elf", "Wizard", "Knight", "Serpent", "Giant", "Spirit", "Zombie", "Sphinx",
         "Storm", "Fire", "Ice", "Shadow", "Light", "Ancient", "Swift", "Grim", "Verdant", "Iron", "Crystal"]  # fmt: skip
TYPES = [("Creature", "Human Wizard"), ("Instant", ""), ("Sorcery", ""), ("Artifact", "Equipment"),
         ("Enchantment", "Aura"), ("Legendary Creature", "Dragon"), ("Land", ""), ("Planeswalker", "Jace")]  # fmt: skip


def _face(
    rng: random.Random, card: int, set_code: str, number: int, *, face: str = "", side: str = ""
) -> dict:
    kind, sub = TYPES[card % len(TYPES)]
    name = f"{WORDS[card % len(WORDS)]} {WORDS[(card // len(WORDS)) % len(WORDS)]} {card}"
    full = f"{name} // {name} Reborn" if face else name
    uuid = f"{card:08x}-{number:04x}-4000-8000-{rng.getrandbits(48):012x}"
    return {
        "artist": "Generated Artist",
        "availability": ["mtgo", "paper"],
        "borderColor": "black",
        "colorIdentity": ["U", "R"][: 1 + card % 2],
        "colors": ["U", "R"][: 1 + card % 2],
        "convertedManaCost": float(card % 8),
        "edhrecRank": card,
        "finishes": ["nonfoil", "foil"],
        "foreignData": [
            {"language": lang, "name": f"{name} ({lang})", "text": "Fremder Text " * 6, "type": kind,
             "multiverseId": card * 10 + i, "identifiers": {"scryfallId": uuid, "multiverseId": str(card)}}
            for i, lang in enumerate(LANGUAGES[: 1 + card % len(LANGUAGES)])
        ],
        "frameVersion": "2015",
        "hasFoil": True,
        "hasNonFoil": True,
        "identifiers": {"cardKingdomId": str(card), "mcmId": str(card), "mtgjsonV4Id": uuid, "multiverseId": str(card),
                        "scryfallId": uuid, "scryfallIllustrationId": uuid, "scryfallOracleId": uuid,
                        "tcgplayerProductId": str(card)},
        "keywords": ["Flying"] if card % 3 == 0 else [],
        "language": "English",
        "layout": "transform" if face else "normal",
        "legalities": {fmt: ("Banned" if (card + i) % 97 == 0 else "Legal") for i, fmt in enumerate(FORMATS)},
        "manaCost": "{" + str(card % 7) + "}{U}",
        "manaValue": float(card % 8),
        "name": full,
        **({"faceName": face, "side": side} if face else {}),
        "number": str(number),
        "power": str(card % 6) if "Creature" in kind else None,
        "toughness": str(card % 5 + 1) if "Creature" in kind else None,
        "printings": [set_code],
        "purchaseUrls": {"cardKingdom": f"https://mtgjson.com/links/{uuid}", "tcgplayer": f"https://mtgjson.com/links/{uuid}"},
        "rarity": ["common", "uncommon", "rare", "mythic"][card % 4],
        "rulings": [{"date": "2019-10-04", "text": "A ruling about this card that players asked about. " * 2}],
        "setCode": set_code,
        "subtypes": sub.split(),
        "supertypes": ["Legendary"] if kind.startswith("Legendary") else [],
        "text": f"When {name} enters the battlefield, draw a card. " * 3,
        "type": f"{kind} — {sub}" if sub else kind,
        "types": [kind.split()[-1]],
        "uuid": uuid,
    }  # fmt: skip


def generate(path: Path, printings: int) -> int:
    """Write an AllPrintings-shaped file set by set (never whole in memory); each card is printed ~4 times,
    every 10th card is double-faced (two face objects, one printing)."""
    rng = random.Random(7)
    per_set = 250
    distinct = max(printings // 4, 1)
    with path.open("w", encoding="utf-8") as out:
        out.write('{"meta": {"date": "2026-11-20", "version": "5.2.2+bench"}, "data": {')
        made = 0
        set_index = 0
        while made < printings:
            code = f"B{set_index:03d}"
            cards = []
            for number in range(1, min(per_set, printings - made) + 1):
                card = rng.randrange(distinct)
                if card % 10 == 0:
                    cards += [_face(rng, card, code, number, face="Front", side="a"),
                              _face(rng, card, code, number, face="Back", side="b")]  # fmt: skip
                else:
                    cards.append(_face(rng, card, code, number))
                made += 1
            card_set = {"baseSetSize": len(cards), "block": "Bench", "booster": {}, "cards": cards, "code": code,
                        "name": f"Bench Set {set_index}", "releaseDate": f"{1993 + set_index % 33}-01-01",
                        "tokens": [], "totalSetSize": len(cards), "type": "expansion"}  # fmt: skip
            out.write(("," if set_index else "") + json.dumps(code) + ":" + json.dumps(card_set))
            set_index += 1
        out.write("}}")
    return made


def child(path: Path) -> None:
    """Import and search in a process of its own, so its peak memory is the importer's."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from cards.games import games_sync
    from cards.models import Card, Game, Printing
    from cards.selectors import card_filters_from_params, card_search_grouped
    from cards.services import cards_import

    games_sync()
    game = Game.objects.get(slug="mtg")
    start, cpu = time.perf_counter(), time.process_time()
    result = cards_import(game=game, data=b"", source=path)
    took, cpu_took = time.perf_counter() - start, time.process_time() - cpu
    assert result.ok, result.errors[:5]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    searches = {
        "name contains 'dragon'": {"game": "mtg", "q": "dragon"},
        "name contains 'storm fire 1'": {"game": "mtg", "q": "storm fire 1"},
        "type creature, by name": {"game": "mtg", "type": "creature"},
        "attr.color=U, cost 3..5": {"game": "mtg", "attr.color": "U", "cost_min": "3", "cost_max": "5"},
        "subtype wizard": {"game": "mtg", "subtype": "wizard"},
    }
    rows = []
    for label, params in searches.items():
        filters = card_filters_from_params(params)
        times = []
        for _ in range(7):
            t0 = time.perf_counter()
            total, _groups = card_search_grouped(filters, limit=40)
            times.append((time.perf_counter() - t0) * 1000)
        rows.append((label, total, statistics.median(times), max(times)))
    print(json.dumps({
        "import_s": took, "import_cpu_s": cpu_took, "peak_mb": peak, "cards": Card.objects.filter(game=game).count(),
        "printings": Printing.objects.filter(card__game=game).count(), "searches": rows,
    }))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--printings", type=int, default=100_000)
    parser.add_argument("--keep", help="write the generated file here and keep it")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(Path(args.child))
        return
    tmp = Path(tempfile.mkdtemp(prefix="deckhall-mtgjson-"))
    path = Path(args.keep) if args.keep else tmp / "AllPrintings.json"
    t0 = time.perf_counter()
    made = generate(path, args.printings)
    generated = time.perf_counter() - t0
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3", "DEBUG": "true"}
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(path)], env=env, capture_output=True, text=True, check=False
    )
    if out.returncode:
        sys.exit(out.stderr[-3000:])
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    size_mb = path.stat().st_size / 1e6
    verdict = "OK" if figures["peak_mb"] < MEMORY_TARGET_MB else "MISSED"
    print(f"Generated AllPrintings: {made:,} printings, {size_mb:,.0f} MB, in {generated:.0f} s\n")
    print("| import (streaming, ijson)     | figure |")
    print("|-------------------------------|--------|")
    print(f"| cards / printings imported    | {figures['cards']:,} / {figures['printings']:,} |")
    print(f"| import time (wall)            | {figures['import_s']:.1f} s |")
    # CPU time of the importing process: what the import costs even when other jobs share the cores.
    print(f"| import time (CPU of process)  | {figures['import_cpu_s']:.1f} s |")
    print(
        f"| peak memory (importing child) | {figures['peak_mb']:.0f} MB (target < {MEMORY_TARGET_MB} MB: {verdict}) |"
    )
    print("\n| search (card_search_grouped, 40 a page) | matches | median ms | worst ms |")
    print("|-----------------------------------------|---------|-----------|----------|")
    for label, total, median, worst in figures["searches"]:
        print(f"| {label:<39} | {total:>7,} | {median:>9.1f} | {worst:>8.1f} |")
    if not args.keep:
        path.unlink(missing_ok=True)
    for leftover in tmp.glob("*"):
        leftover.unlink(missing_ok=True)
    tmp.rmdir() if not any(tmp.iterdir()) else None


if __name__ == "__main__":
    main()
