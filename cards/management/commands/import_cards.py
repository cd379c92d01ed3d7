"""python manage.py import_cards --game SLUG [FILE] [--format F] [--pictures PICS.zip]"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.importers import FORMATS
from cards.models import Game
from cards.services import cards_import


class Command(BaseCommand):
    help = "Import a card database file (.cdb, Cockatrice XML, MTGJSON, Scryfall bulk JSON, Deckhall JSON/CSV, Vale JSON) into a game."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", required=True, help="game slug, e.g. yugioh")
        parser.add_argument("--format", choices=list(FORMATS), help="file format (detected when omitted)")
        parser.add_argument("file", nargs="?", help="path to the card database file")
        parser.add_argument(
            "--pictures",
            help="a ZIP of card pictures named by external id or card name (EDOPro pics/<passcode>.jpg, "
            "Cockatrice pics/CUSTOM/<name>.jpg); without FILE they go to the cards already imported",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        game = Game.objects.filter(slug=options["game"]).first()
        if game is None:
            known = ", ".join(Game.objects.values_list("slug", flat=True)) or "none"
            raise CommandError(
                f"unknown game {options['game']!r}; known games: {known}. Games come from the rule sets in "
                "games/rulesets/ (migrate creates them); after adding one run `python manage.py sync_games`"
            )
        if not options["file"] and not options["pictures"]:
            raise CommandError("give a card database FILE, --pictures PICS.zip, or both")
        source, name = None, ""
        if options["file"]:
            # Read by the import itself: MTGJSON and Scryfall files (hundreds of MB) are streamed from disk.
            source = Path(options["file"])
            if not source.is_file():
                raise CommandError(f"cannot read {source}: no such file")
            name = source.name
        pictures = None
        if options["pictures"]:
            pictures_path = Path(options["pictures"])
            pictures = _read(pictures_path)
            name = name or pictures_path.name
        try:
            result = cards_import(
                game=game, data=b"", source=source, filename=name, fmt=options["format"], pictures=pictures
            )
        except OSError as exc:
            raise CommandError(f"cannot read {source}: {exc.strerror}") from exc
        for issue in result.warnings:
            self.stderr.write(f"{name}: {issue}")
        if not result.ok:
            for issue in result.errors:
                self.stderr.write(f"{name}: {issue}")
            raise CommandError(f"{len(result.errors)} error(s); nothing was imported")
        summary = (
            f"{game.slug}: {result.total} cards from {name} ({result.fmt}): "
            f"{result.created} created, {result.updated} updated, {result.unchanged} unchanged"
            if source is not None
            else f"{game.slug}: pictures from {name}"
        )
        if pictures is not None:
            summary += f", {result.pictures} picture(s)"
        if result.warnings:
            summary += f", {len(result.warnings)} warning(s)"
        self.stdout.write(self.style.SUCCESS(summary))


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror}") from exc
