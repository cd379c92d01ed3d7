"""python manage.py export_cards --game SLUG --format json|csv FILE"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.models import Game
from cards.selectors import EXPORT_FORMATS, cards_export


class Command(BaseCommand):
    help = "Export a game's card database as Deckhall JSON or CSV (re-importable with import_cards)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", required=True)
        parser.add_argument("--format", choices=list(EXPORT_FORMATS), default="json")
        parser.add_argument("file", help="output path ('-' for standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        game = Game.objects.filter(slug=options["game"]).first()
        if game is None:
            raise CommandError(f"unknown game {options['game']!r}")
        body = cards_export(game=game, fmt=options["format"])
        if options["file"] == "-":
            text = body.decode("utf-8")
            # The terminal's prompt must not follow the closing brace of the JSON on the same line.
            self.stdout.write(text, ending="" if text.endswith("\n") else "\n")
            return
        try:
            Path(options["file"]).write_bytes(body)
        except OSError as exc:
            raise CommandError(f"cannot write {options['file']}: {exc.strerror}") from exc
        self.stdout.write(self.style.SUCCESS(f"wrote {options['file']}"))
