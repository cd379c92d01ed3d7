"""python manage.py import_cards --game SLUG FILE [--format F]"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.importers import FORMATS
from cards.models import Game
from cards.services import cards_import


class Command(BaseCommand):
    help = "Import a card database file (.cdb, Cockatrice XML, Deckhall JSON/CSV, Vale JSON) into a game."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", required=True, help="game slug, e.g. yugioh")
        parser.add_argument("--format", choices=list(FORMATS), help="file format (detected when omitted)")
        parser.add_argument("file", help="path to the file")

    def handle(self, *args: Any, **options: Any) -> None:
        game = Game.objects.filter(slug=options["game"]).first()
        if game is None:
            known = ", ".join(Game.objects.values_list("slug", flat=True)) or "none"
            raise CommandError(
                f"unknown game {options['game']!r}; known games: {known}. Games come from the rule sets in "
                "rules/rulesets/ (migrate creates them); after adding one run `python manage.py sync_games`"
            )
        path = Path(options["file"])
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}") from exc
        result = cards_import(game=game, data=data, filename=path.name, fmt=options["format"])
        for issue in result.warnings:
            self.stderr.write(f"{path.name}: {issue}")
        if not result.ok:
            for issue in result.errors:
                self.stderr.write(f"{path.name}: {issue}")
            raise CommandError(f"{len(result.errors)} error(s); nothing was imported")
        self.stdout.write(
            self.style.SUCCESS(
                f"{game.slug}: {result.total} cards from {path.name} ({result.fmt}): "
                f"{result.created} created, {result.updated} updated, {result.unchanged} unchanged"
                + (f", {len(result.warnings)} warning(s)" if result.warnings else "")
            )
        )
