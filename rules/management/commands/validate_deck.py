"""python manage.py validate_deck --game SLUG --format SLUG [--banlist NAME | --date YYYY-MM-DD] [--pool FILE]
[--json] [--lang ru] FILE

Exit code 0: legal, 1: illegal, 2: unusable input (the reason on stderr). FILE may be '-' for stdin.
"""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand
from django.utils import translation
from django.utils.translation import gettext as _

from cards.models import Game
from rules.deckinput import DeckInputError, deck_from_text, pool_from_text
from rules.services import deck_validate


class Command(BaseCommand):
    help = "Validate a deck file (.ydk, ydke://, plain text, Deckhall JSON) against a game format."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file")
        parser.add_argument("--game", required=True)
        parser.add_argument("--format", dest="format_slug", required=True)
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--banlist", help="ban list name")
        group.add_argument(
            "--date", help="judge by the rules and ban list in force on this date (YYYY-MM-DD; default today)"
        )
        parser.add_argument(
            "--pool",
            help="the registered card pool of a limited event, in any deck format (replaces a 'pool' section "
            "of FILE)",
        )
        parser.add_argument("--json", action="store_true", help="print the report as JSON")
        parser.add_argument(
            "--lang",
            default="en",
            choices=[code for code, _name in settings.LANGUAGES],
            help="the language of the report and of the reasons for unusable input",
        )

    def _fail(self, message: str) -> None:
        self.stderr.write(f"error: {message}")
        sys.exit(2)

    def _read(self, path: str) -> bytes:
        try:
            data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
        except OSError as exc:
            self._fail(_("cannot read %(path)s: %(reason)s") % {"path": path, "reason": exc.strerror})
        if not data.strip():
            self._fail(
                _("%(path)s is empty: there is no deck to validate")
                % {"path": "stdin" if path == "-" else path}
            )
        return data

    def handle(self, *args: Any, **opts: Any) -> None:
        # Everything the command says, the reasons for unusable input included, in the asked language.
        with translation.override(opts["lang"]):
            self._validate(opts)

    def _validate(self, opts: dict[str, Any]) -> None:
        game = Game.objects.filter(slug=opts["game"]).first()
        if game is None:
            self._fail(_("unknown game “%(game)s”") % {"game": opts["game"]})
        on_date = None
        if opts["date"]:
            try:
                on_date = date.fromisoformat(opts["date"])
            except ValueError:
                self._fail(_("--date must be YYYY-MM-DD, got “%(date)s”") % {"date": opts["date"]})
        path = opts["file"]
        data = self._read(path)
        pool_data = self._read(opts["pool"]) if opts["pool"] else None
        try:
            deck = deck_from_text(game=game, format_slug=opts["format_slug"], data=data,
                                  filename=None if path == "-" else path)  # fmt: skip
            pool, warnings = deck.pool, deck.warnings
            if pool_data is not None:
                pool, warnings = pool_from_text(
                    game=game, format_slug=opts["format_slug"], data=pool_data, filename=opts["pool"]
                )
            report = deck_validate(
                game=game, format_slug=opts["format_slug"], sections=deck.sections, hero=deck.hero, pool=pool,
                banlist=opts["banlist"], on_date=on_date, unknown=deck.unknown, extra_violations=deck.violations,
                extra_heroes=deck.extra_heroes,
            )  # fmt: skip
        except (DeckInputError, ValidationError) as exc:
            messages = exc.messages if isinstance(exc, ValidationError) else [str(exc)]
            self._fail("; ".join(messages))
        report.warnings.extend(warnings)
        lang = opts["lang"]
        body = report.to_dict(lang)
        if opts["json"]:
            self.stdout.write(json.dumps(body, ensure_ascii=False, indent=2))
        else:
            self.stdout.write("LEGAL" if report.legal else "ILLEGAL")
            rules = body.get("rules")
            if rules:
                words = _("rules: %(game)s/%(format)s %(version)s (in force from %(since)s)") % {
                    "game": rules["game"], "format": rules["format"], "version": rules["version"],
                    "since": rules["effective_date"] or "—",
                }  # fmt: skip
                self.stdout.write(f"  {words}")
            for v in body["violations"]:
                self.stdout.write(f"  [{v['code']}] {v['message']}")
            for w in body["warnings"]:
                self.stdout.write("  " + _("warning [%(code)s] %(message)s") % w)
        sys.exit(0 if report.legal else 1)
