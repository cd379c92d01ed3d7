"""Demo card databases for `manage.py load_demo` (idempotent: imports upsert by external id).

Real data from settings.SHARED_DATA_DIR is used when present (Caster Chronicles XML, Vale list, and —
for `load_demo`, which passes ``full_database`` — the whole 10,628-card Yu-Gi-Oh! .cdb); otherwise the
small samples in cards/samples/. Tests load the Yu-Gi-Oh! sample: it is enough for them and a second
instead of several. Everseal and the twin-deck game have no public card list: they always get the
samples shipped here.

Magic: The Gathering gets every Cockatrice set file of the shared data (`mtg/cockatrice/*.xml`, one set a
file, 1,200 cards in about 4 s) — the files build one database, a reprint gaining a printing. Without the
shared data Magic stays empty, and the card browser and the builder say who can import its cards.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from django.conf import settings

from .models import Game
from .services import cards_import

SAMPLES = Path(__file__).resolve().parent / "samples"


def full_ygo_database() -> Path | None:
    """The shared real Yu-Gi-Oh! card database, when the shared data is there."""
    cdb = Path(settings.SHARED_DATA_DIR) / "ygo" / "cdb" / "cards-2020-03-30.cdb"
    return cdb if cdb.is_file() else None


def mtg_set_files() -> list[Path]:
    """The shared Magic set files (Cockatrice XML, one set each), oldest first by name for a stable order."""
    folder = Path(settings.SHARED_DATA_DIR) / "mtg" / "cockatrice"
    return sorted(folder.glob("*.xml")) if folder.is_dir() else []


def _sources(full_database: bool) -> list[tuple[str, Path]]:
    shared = Path(settings.SHARED_DATA_DIR)
    caster = shared / "caster" / "caster-chronicles.cockatrice.xml"
    vale = shared / "vale" / "cards.json"
    cdb = full_ygo_database() if full_database else None
    return [
        ("yugioh", cdb or SAMPLES / "yugioh-sample.json"),
        ("everseal", SAMPLES / "everseal-sample.json"),
        ("twindeck", SAMPLES / "twindeck-sample.json"),
        ("caster", caster if caster.is_file() else SAMPLES / "caster-sample.cockatrice.xml"),
        ("vale", vale if vale.is_file() else SAMPLES / "vale-sample.json"),
        # Four set files, a second each: only `load_demo` pays for them (tests need no Magic cards).
        *(("mtg", path) for path in (mtg_set_files() if full_database else [])),
    ]


def load(stdout: TextIO, *, full_database: bool = False) -> None:
    for slug, path in _sources(full_database):
        game = Game.objects.filter(slug=slug).first()
        if game is None:
            stdout.write(f"cards: no game {slug!r} (rule set missing?), skipped {path.name}\n")
            continue
        result = cards_import(game=game, data=path.read_bytes(), filename=path.name)
        if not result.ok:
            # A shipped sample that fails to import is a bug; say which and keep loading the rest.
            stdout.write(f"cards: {path.name} failed to import:\n")
            for issue in result.errors[:20]:
                stdout.write(f"  {issue}\n")
            continue
        stdout.write(
            f"cards: {slug}: {result.total} cards from {path.name} "
            f"({result.created} new, {result.updated} updated)\n"
        )
