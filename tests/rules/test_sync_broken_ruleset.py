"""One broken rule-set file is reported and the other games still sync (cards.games.games_sync,
manage.py sync_games)."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from rules.engine import load_registry

from .helpers import MINI_GAME

pytestmark = pytest.mark.django_db

FORMAT = (
    '\n[[formats]]\nslug = "std"\nname = "Standard"\n\n[[formats.sections]]\nslug = "main"\nname = "Deck"\n'
)


def test_sync_games_syncs_the_good_files_and_names_the_broken_one(tmp_path: Path, monkeypatch):
    from cards import games as cards_games
    from cards.management.commands import sync_games
    from cards.models import Game

    (tmp_path / "mini.toml").write_text(MINI_GAME + FORMAT, encoding="utf-8")
    broken = MINI_GAME.replace('"mini"', '"other"').replace('version = "1"', "version = 1") + FORMAT
    (tmp_path / "other.toml").write_text(broken, encoding="utf-8")
    registry = load_registry(tmp_path, strict=False)
    monkeypatch.setattr(cards_games, "default_registry", lambda: registry)
    monkeypatch.setattr(sync_games, "default_registry", lambda: registry)
    out = StringIO()
    with pytest.raises(CommandError, match=r"other.toml\[game\].version: expected string, got 1 \(line 9\)"):
        call_command("sync_games", stdout=out)
    assert "mini: Mini (std)" in out.getvalue()
    assert Game.objects.filter(slug="mini").exists() and not Game.objects.filter(slug="other").exists()
