"""Create or update the games and formats described by rules/rulesets/*.toml (safe to re-run)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from cards.games import games_sync


class Command(BaseCommand):
    help = "Create Game and Format rows from the rule-set files; edited display names are kept."

    def handle(self, *args: Any, **options: Any) -> None:
        for game in games_sync():
            formats = ", ".join(game.formats.values_list("slug", flat=True))
            self.stdout.write(f"{game.slug}: {game.name} ({formats})")
