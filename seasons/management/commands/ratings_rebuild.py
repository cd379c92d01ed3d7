"""Rate a game's finished events again from scratch (after a result in a finished event was corrected).

manage.py ratings_rebuild <game slug>
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.models import Game
from seasons.services import ratings_rebuild


class Command(BaseCommand):
    help = "Rate every finished event of a game again, in the order they were first rated."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game")

    def handle(self, *args: Any, game: str, **options: Any) -> None:
        found = Game.objects.filter(slug=game).first()
        if found is None:
            raise CommandError(f"no game {game!r}")
        count = ratings_rebuild(game=found)
        self.stdout.write(f"{found.name}: {count} events rated again")
