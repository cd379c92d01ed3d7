"""manage.py import_deck --game yugioh --owner alice deck.ydk [--format advanced] [--allow-unknown]"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from cards.models import Game
from decks.formats import FORMATS, MAX_BYTES
from decks.services import DeckImportError, deck_import


class Command(BaseCommand):
    help = "Import a deck list file (.ydk, ydke, text, JSON, CSV, .cod) as a deck owned by a user."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="path to the deck file, or - for standard input")
        parser.add_argument("--game", required=True)
        parser.add_argument("--owner", required=True, help="username")
        parser.add_argument("--format", dest="format_slug", default="", help="the game's format slug")
        parser.add_argument("--fmt", choices=FORMATS, default=None, help="file format (default: detect)")
        parser.add_argument("--name", default=None)
        parser.add_argument("--visibility", default="private", choices=["private", "unlisted", "public"])
        parser.add_argument("--allow-unknown", action="store_true", help="import without unknown cards")

    def handle(self, *args: Any, **options: Any) -> None:
        game = Game.objects.filter(slug=options["game"]).first()
        if game is None:
            raise CommandError(f"unknown game {options['game']!r}")
        owner = User.objects.filter(username=options["owner"]).first()
        if owner is None:
            raise CommandError(f"unknown user {options['owner']!r}")
        path = options["file"]
        if path == "-":
            import sys

            data, filename = sys.stdin.buffer.read(MAX_BYTES + 1), None
        else:
            file = Path(path)
            if not file.is_file():
                raise CommandError(f"no such file: {path}")
            data, filename = file.read_bytes()[: MAX_BYTES + 1], file.name
        try:
            result = deck_import(
                owner=owner,
                game=game,
                data=data,
                fmt=options["fmt"],
                filename=filename,
                format_slug=options["format_slug"] or None,
                name=options["name"],
                visibility=options["visibility"],
                allow_unknown=options["allow_unknown"],
            )
        except DeckImportError as error:
            for message in error.result.errors:
                self.stderr.write(f"error: {message}")
            for line in error.result.unknown:
                self.stderr.write(f"line {line.line} [{line.section}]: {line.message}")
            raise CommandError(
                "the deck was not imported (use --allow-unknown to skip unknown cards)"
            ) from None
        assert result.deck is not None
        for line in result.unknown:
            self.stderr.write(f"skipped line {line.line} [{line.section}]: {line.message}")
        self.stdout.write(f"imported deck {result.deck.pk}: {result.deck.name}")
