"""Create or update the games and formats described by games/rulesets/*.toml (safe to re-run)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from cards.games import games_sync
from games.registry import default_registry


class Command(BaseCommand):
    help = "Create Game and Format rows from the rule-set files; edited display names are kept."

    def handle(self, *args: Any, **options: Any) -> None:
        for game in games_sync():
            formats = ", ".join(game.formats.values_list("slug", flat=True))
            self.stdout.write(f"{game.slug}: {game.name} ({formats})")
        # The other games are synced; a broken rule-set file is named (file, key, line) and fails the command.
        errors = default_registry().errors
        if errors:
            raise CommandError("rule set(s) not loaded:\n" + "\n".join(errors))
