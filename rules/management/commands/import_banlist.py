"""python manage.py import_banlist --game yugioh FILE [--date YYYY-MM-DD] [--list-date "LIST=YYYY-MM-DD"]
[--region tcg] [--name LIST]

FILE is an EDOPro lflist.conf or a name-keyed list (``Card Name: banned | restricted | limited N``), detected
from its first entry line. Lines EDOPro would skip are skipped too and listed as warnings.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from cards.models import Game
from rules.messages import render_key
from rules.services import banlist_import


class Command(BaseCommand):
    help = (
        "Import the ban lists of an EDOPro lflist.conf or a name-keyed list file (atomic; re-importing the "
        "same list is a no-op)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--game", required=True)
        parser.add_argument(
            "--date",
            type=date.fromisoformat,
            help="effective date of every list in the file (default: its '#date' line, else its name; a list "
            "with neither, like '!JTP (Original)', is dated by the file's order: the first today, each next "
            "one a day earlier)",
        )
        parser.add_argument(
            "--list-date",
            action="append",
            default=[],
            metavar="LIST=YYYY-MM-DD",
            help="effective date of one list, by its name (repeatable; wins over the list's own date)",
        )
        parser.add_argument(
            "--region",
            help="region of every list (default: its '#region' line, else the rule set's banlist_regions "
            "found in its name)",
        )
        parser.add_argument("--name", action="append", help="import only this list (repeatable)")

    def handle(self, *args: Any, **opts: Any) -> None:
        game = Game.objects.filter(slug=opts["game"]).first()
        if game is None:
            raise CommandError(f"unknown game {opts['game']!r} (run load_demo or games_sync first)")
        path: Path = opts["file"]
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {path}: {exc}") from None
        dates = {}
        for item in opts["list_date"]:
            name, _, when = item.rpartition("=")
            try:
                dates[name.strip()] = date.fromisoformat(when.strip())
            except ValueError:
                raise CommandError(f"--list-date {item!r}: expected LIST=YYYY-MM-DD") from None
            if not name.strip():
                raise CommandError(f"--list-date {item!r}: expected LIST=YYYY-MM-DD")
        try:
            results = banlist_import(
                game=game, text=text, source=path.name, effective_date=opts["date"], region=opts["region"],
                names=opts["name"], dates=dates,
            )  # fmt: skip
        except ValidationError as exc:
            raise CommandError(f"{path}: {'; '.join(exc.messages)}") from None
        for item in results:
            b = item.banlist
            state = "imported" if item.created else "already present"
            self.stdout.write(f"{b.name} ({b.effective_date}, region {b.region or '-'}): {state}")
            for warning in item.warnings:
                self.stdout.write(f"  warning: {render_key(warning.key, warning.params)}")
