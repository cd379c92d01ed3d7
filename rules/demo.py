"""Demo ban lists: the real EDOPro lists from the shared data when present, else a small sample."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from django.conf import settings
from django.core.exceptions import ValidationError

from cards.models import Game

from .services import banlist_import

SAMPLES = Path(__file__).resolve().parent / "samples"


def load(stdout: TextIO) -> None:
    game = Game.objects.filter(slug="yugioh").first()
    if game is None:
        stdout.write("rules: no yugioh game yet, no ban lists loaded\n")
        return
    shared = Path(settings.SHARED_DATA_DIR) / "ygo" / "lflist"
    files = sorted(shared.glob("*.lflist.conf")) if shared.is_dir() else []
    if not files:
        files = sorted(SAMPLES.glob("*.lflist.conf"))
    for path in files:
        try:
            results = banlist_import(game=game, text=path.read_text(encoding="utf-8"), source=path.name)
        except ValidationError as exc:
            stdout.write(f"rules: skipped {path.name}: {'; '.join(exc.messages)}\n")
            continue
        for item in results:
            state = "imported" if item.created else "already present"
            stdout.write(f"rules: ban list {item.banlist.name}: {state}\n")
