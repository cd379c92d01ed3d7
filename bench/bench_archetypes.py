"""Labelling every deck of a 2,000-player event by archetype, end to end, in two shapes.

    .venv/bin/python bench/bench_archetypes.py [--players 2000] [--repeat 7] [--shape ygo|mtg|all]
        [--mtgoformatdata PATH] [--rev HEAD]

Throw-away test database (SQLite; PostgreSQL when DATABASE_URL is set). Times
``results.services.archetypes_classify`` (read the decks, read their cards, label, write the labels) from
nothing stored, ``--repeat`` times per shape, and prints p50 / worst wall time, p50 / worst CPU time of this
process (the machine may be shared: CPU time is what the work costs) and the labels' counts. Target: < 1 s.

- ``ygo``: YGOPro's 2020 card database (only the cards the decks use, their real set codes) and its windbot
  decks (main deck) in turn; labelled by the rule set's ``[archetype_families]`` (set codes, strings.conf).
- ``mtg``: Badaro's MTGOFormatData Modern rules imported by ``import_archetypes`` (``--mtgoformatdata``: a
  checkout or a bare git dir of it) into a store's directory. The decks are generated, each different: one
  archetype's positive conditions met (4 copies of each required card, enough different cards of each "one
  or two of" list), filled to 60 + 15 with other cards the rules name and basic lands — so some decks also
  meet a second rule or break a "none of", as real decks do. The cards are rows named as the rules name them.

The peer beside the ``mtg`` shape: a Python port of MTGOArchetypeParser's own loop (ArchetypeAnalyzer.Detect:
per deck, per archetype, per condition, a scan of the deck's list; fallbacks by weight), run in memory over
the same decks. It is not the C# tool (no .NET here); it shows what the per-deck evaluation costs in Python
and that both give the same archetype names (the agreement is printed).
"""

from __future__ import annotations

import argparse
import io
import json
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from throwaway_db import throwaway_database

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
BASICS = ["Island", "Mountain", "Forest", "Plains", "Swamp"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--shape", choices=["ygo", "mtg", "all"], default="all")
    parser.add_argument("--mtgoformatdata", default="", help="an MTGOFormatData checkout or bare git dir")
    parser.add_argument("--rev", default="HEAD")
    args = parser.parse_args()
    with throwaway_database("archetypes"):
        if args.shape in ("ygo", "all"):
            if (SHARED / "ygo" / "cdb").is_dir():
                ygo(args)
            else:
                print("ygo: skipped, needs ../shared/data/ygo (the YGOPro card database and decks)")
        if args.shape in ("mtg", "all"):
            if args.mtgoformatdata and Path(args.mtgoformatdata).exists():
                mtg(args)
            else:
                print("mtg: skipped, give --mtgoformatdata PATH (an MTGOFormatData checkout or bare git dir)")


def _organizer() -> Any:
    from accounts.models import User

    return User.objects.get_or_create(username="bench-organizer", defaults={"is_organizer": True})[0]


def _time(event: Any, repeat: int) -> tuple[list[float], list[float], dict[int, Any]]:
    import results.services as services
    from results.models import DeckArchetype

    times, cpu, labels = [], [], {}
    for _ in range(repeat):
        DeckArchetype.objects.filter(player__tournament=event).delete()
        start, start_cpu = time.perf_counter(), time.process_time()
        labels = services.archetypes_classify(tournament=event)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return times, cpu, labels


def _report(shape: str, players: int, times: list[float], cpu: list[float], labels: dict[int, Any]) -> None:
    import os

    ms = lambda xs, f: f(xs) * 1000  # noqa: E731
    print(
        f"{shape}, {players} players: wall p50 {ms(times, statistics.median):.0f} ms, worst "
        f"{ms(times, max):.0f} ms; CPU p50 {ms(cpu, statistics.median):.0f} ms, worst {ms(cpu, max):.0f} ms "
        f"(target < 1000 ms; load average {os.getloadavg()[0]:.1f})"
    )
    names = Counter(a.name or ("(two rules)" if a.candidates else "(no rule)") for a in labels.values())
    print(
        "  "
        + ", ".join(f"{name}: {n}" for name, n in names.most_common(8))
        + (", …" if len(names) > 8 else "")
    )


def _ydk_decks() -> list[Counter[int]]:
    decks = []
    for path in sorted((SHARED / "ygo" / "ydk").glob("*.ydk")):
        counts: Counter[int] = Counter()
        section = "main"
        for line in path.read_text().splitlines():
            line = line.strip()
            section = "extra" if line.startswith("#extra") else "side" if line.startswith("!") else section
            if line.isdecimal() and section == "main":
                counts[int(line)] += 1
        decks.append(counts)
    return decks


def ygo(args: argparse.Namespace) -> None:
    from cards.games import games_sync
    from cards.models import Card, Game
    from tournaments import services
    from tournaments.models import Player

    games_sync()
    game = Game.objects.get(slug="yugioh")
    decks = _ydk_decks()
    wanted = {card for deck in decks for card in deck}
    db = sqlite3.connect(SHARED / "ygo" / "cdb" / "cards-2020-03-30.cdb")
    rows = db.execute("SELECT d.id, d.setcode, t.name FROM datas d JOIN texts t ON t.id = d.id").fetchall()
    Card.objects.bulk_create([
        Card(game=game, external_id=str(cid), name=name, card_type="monster",
             attributes={"setcode": [c for c in ((sc >> s) & 0xFFFF for s in (0, 16, 32, 48)) if c]})
        for cid, sc, name in rows if cid in wanted
    ])  # fmt: skip
    by_passcode = {int(c.external_id): c.pk for c in Card.objects.filter(game=game)}
    event = services.tournament_create(created_by=_organizer(), name="Regional", game=game,
                                       format_slug="advanced", seed=2026)  # fmt: skip
    snapshots = [
        {"sections": {"main": [{"card_id": by_passcode.get(card), "external_id": str(card), "name": "", "count": n}
                               for card, n in deck.items()]}}
        for deck in decks
    ]  # fmt: skip
    Player.objects.bulk_create([
        Player(tournament=event, name=f"Player {i:05d}", deck=snapshots[i % len(snapshots)])
        for i in range(args.players)
    ])  # fmt: skip
    times, cpu, labels = _time(event, args.repeat)
    _report("ygo (set codes, windbot decks)", args.players, times, cpu, labels)


# --- Magic with MTGOFormatData's rules ---------------------------------------------------------------


def _mtgo_files(path: Path, rev: str) -> dict[str, Any]:
    """The Modern archetypes and fallbacks as parsed JSON, for the generator and the peer."""
    from results.management.commands.import_archetypes import read_format
    from results.mtgoformatdata import read_json

    files, _origin = read_format(path, "Modern", rev)
    out = {}
    for name, text in files.items():
        try:
            # Card names as the cards are named (one file has " Bottled Cloister"; the importer trims too).
            out[name] = json.loads(json.dumps(read_json(text)).replace('" ', '"').replace(' "', '"'))
        except ValueError:
            continue
    return out


def _generate(
    files: dict[str, Any], players: int, seed: int = 2026
) -> list[tuple[Counter[str], Counter[str]]]:
    from results.mtgoformatdata import CONDITIONS

    rng = random.Random(seed)
    archetypes = [raw for name, raw in files.items() if "/Archetypes/" in name]
    pool = sorted({c for raw in files.values() for cond in raw.get("Conditions") or [] for c in cond.get("Cards", [])}
                  | {c for raw in files.values() for c in raw.get("CommonCards") or []})  # fmt: skip
    decks = []
    for _ in range(players):
        raw = rng.choice(archetypes)
        main: Counter[str] = Counter()
        banned = set()
        for cond in raw.get("Conditions") or []:
            kind, _section, low = CONDITIONS.get(cond.get("Type"), ("none", "any", 0))
            cards = cond.get("Cards") or []
            if kind == "each":
                for card in cards:
                    main[card] = 4
            elif kind == "some":
                for card in rng.sample(cards, min(len(cards), low + rng.randint(0, 1))):
                    main[card] = rng.randint(2, 4)
            else:
                banned.update(cards)
        while sum(main.values()) < 40:
            card = rng.choice(pool)
            if card not in banned or rng.random() < 0.05:  # now and then a deck breaks a "none of"
                main[card] = main.get(card, 0) + rng.randint(1, 4)
        while sum(main.values()) < 60:
            main[rng.choice(BASICS)] += 1
        side: Counter[str] = Counter()
        while sum(side.values()) < 15:
            side[rng.choice(pool)] += 1
        decks.append((main, side))
    return decks


def _peer(files: dict[str, Any], decks: list[tuple[Counter[str], Counter[str]]]) -> tuple[float, list[str]]:
    """MTGOArchetypeParser's ArchetypeAnalyzer.Detect, ported line by line (names only, no colours)."""
    archetypes = [raw for name, raw in files.items() if "/Archetypes/" in name]
    fallbacks = [raw for name, raw in files.items() if "/Fallbacks/" in name]

    def test(main: list[str], side: list[str], raw: dict[str, Any]) -> bool:
        for cond in raw.get("Conditions") or []:
            kind, cards = cond["Type"], cond["Cards"]
            if kind == "InMainboard" and not all(c in main for c in cards):
                return False
            if kind == "InSideboard" and not all(c in side for c in cards):
                return False
            if kind == "InMainOrSideboard" and not all(c in main or c in side for c in cards):
                return False
            if kind.startswith(("OneOrMore", "TwoOrMore")):
                need = 1 if kind.startswith("One") else 2
                where = (
                    main
                    if kind.endswith("InMainboard")
                    else side
                    if kind.endswith("InSideboard")
                    else main + side
                )
                if len([c for c in where if c in cards]) < need:
                    return False
            if kind == "DoesNotContain" and any(c in main or c in side for c in cards):
                return False
            if kind == "DoesNotContainMainboard" and any(c in main for c in cards):
                return False
            if kind == "DoesNotContainSideboard" and any(c in side for c in cards):
                return False
        return True

    out = []
    start = time.process_time()
    for main_counts, side_counts in decks:
        main, side = list(main_counts), list(side_counts)
        names = []
        for raw in archetypes:
            if test(main, side, raw):
                variant = next((v for v in raw.get("Variants") or [] if test(main, side, v)), None)
                names.append((variant or raw)["Name"])
        if len(set(names)) == 1:
            out.append(names[0])
        elif names:
            out.append("")
        else:
            weights = [(sum(n for c, n in (main_counts + side_counts).items() if c in fb["CommonCards"]),
                        -len(fb["CommonCards"]), fb["Name"]) for fb in fallbacks]  # fmt: skip
            best = max(weights, default=(0, 0, ""))
            lines = len(main_counts) + len(side_counts)  # the parser's similarity: weight per card line
            out.append(best[2] if best[0] and best[0] / lines > 0.1 else "")
    return time.process_time() - start, out


def mtg(args: argparse.Namespace) -> None:
    from django.conf import settings
    from django.core.management import call_command

    from cards.games import games_sync
    from cards.models import Card, Game
    from tournaments import services
    from tournaments.models import Player

    games_sync()
    game = Game.objects.get(slug="mtg")
    store = Path(tempfile.mkdtemp(prefix="deckhall-archetypes-"))
    settings.DECKHALL_ARCHETYPE_DIRS = [str(store)]
    call_command("import_archetypes", "mtgoformatdata", args.mtgoformatdata, "--format", "Modern",
                 "--rev", args.rev, stdout=io.StringIO())  # fmt: skip
    files = _mtgo_files(Path(args.mtgoformatdata), args.rev)
    decks = _generate(files, args.players)
    names = sorted({c for main, side in decks for c in (*main, *side)})
    Card.objects.bulk_create(
        [Card(game=game, external_id=name, name=name, card_type="card") for name in names]
    )
    ids = dict(Card.objects.filter(game=game).values_list("name", "pk"))
    event = services.tournament_create(created_by=_organizer(), name="Modern Open", game=game,
                                       format_slug="constructed", seed=2026)  # fmt: skip
    Player.objects.bulk_create([
        Player(tournament=event, name=f"Player {i:05d}", deck={"sections": {
            "main": [{"card_id": ids[c], "name": c, "count": n} for c, n in main.items()],
            "side": [{"card_id": ids[c], "name": c, "count": n} for c, n in side.items()]}})
        for i, (main, side) in enumerate(decks)
    ])  # fmt: skip
    times, cpu, labels = _time(event, args.repeat)
    commit = ""
    if (Path(args.mtgoformatdata) / "objects").is_dir():
        commit = subprocess.run(["git", f"--git-dir={args.mtgoformatdata}", "rev-parse", "--short", args.rev],
                                capture_output=True, text=True, check=False).stdout.strip()  # fmt: skip
    _report(f"mtg (MTGOFormatData Modern {commit}, generated decks)", args.players, times, cpu, labels)
    peer_cpu, peer = _peer(files, decks)
    players = list(Player.objects.filter(tournament=event).order_by("pk").values_list("pk", flat=True))
    agree = sum(1 for pk, name in zip(players, peer, strict=True) if labels[pk].name == name)
    for pk, name in [(pk, name) for pk, name in zip(players, peer, strict=True) if labels[pk].name != name][
        :3
    ]:
        print(
            f"  differs: peer {name!r}, Deckhall {labels[pk].name!r} ({labels[pk].rule or labels[pk].candidates})"
        )
    print(f"  peer (Python port of MTGOArchetypeParser's Detect loop, labels only, in memory): CPU "
          f"{peer_cpu * 1000:.0f} ms; same name for {agree} of {len(peer)} decks")  # fmt: skip
    from results.rules_engine import Classifier
    from results.services import rulebook_for

    book = rulebook_for("mtg")
    from games.cards import CardInfo

    start = time.process_time()
    classifier = Classifier(book, {pk: CardInfo(key=name, name=name) for name, pk in ids.items()})
    for main, side in decks:
        classifier.label(
            [(ids[c], n, "main") for c, n in main.items()] + [(ids[c], n, "side") for c, n in side.items()]
        )
    print(
        f"  Deckhall's classifier alone, labels only, in memory: CPU {(time.process_time() - start) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    sys.exit(main())
