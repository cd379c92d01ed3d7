"""manage.py export_deck 12 --format ydk [--output deck.ydk]"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from decks.models import Deck
from decks.services import EXPORT_TYPES, deck_export

# Libraries that log progress or font notes while rendering a PDF; the command's own messages are enough.
QUIET_LOGGERS = ("weasyprint", "fontTools")


@contextlib.contextmanager
def _quiet_libraries() -> Iterator[None]:
    loggers = [logging.getLogger(name) for name in QUIET_LOGGERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


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
            with _quiet_libraries():
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
            text = exported.content.decode("utf-8")
            # A ydke:// link is one line without a newline of its own; a terminal's prompt must not follow it.
            self.stdout.write(text, ending="" if text.endswith(("\n", "\r")) else "\n")
