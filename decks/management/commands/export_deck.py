"""manage.py export_deck 12 --format ydk [--output deck.ydk]"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from decks.models import Deck
from decks.services import EXPORT_TYPES, deck_export


class Command(BaseCommand):
    help = "Write a deck in one of the export formats to standard output or a file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("deck_id", type=int)
        parser.add_argument("--format", dest="fmt", choices=list(EXPORT_TYPES), default="text")
        parser.add_argument("--output", "-o", default=None, help="file to write (required for pdf)")
        parser.add_argument("--player", default="")
        parser.add_argument("--event", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        deck = Deck.objects.select_related("game", "owner", "hero").filter(pk=options["deck_id"]).first()
        if deck is None:
            raise CommandError(f"no deck with id {options['deck_id']}")
        try:
            exported = deck_export(
                deck=deck, fmt=options["fmt"], player_name=options["player"], event=options["event"]
            )
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        if options["output"]:
            Path(options["output"]).write_bytes(exported.content)
            self.stderr.write(f"wrote {options['output']}")
        elif options["fmt"] == "pdf":
            raise CommandError("a PDF needs --output FILE")
        else:
            self.stdout.write(exported.content.decode("utf-8"), ending="")
