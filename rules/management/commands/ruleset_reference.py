"""python manage.py ruleset_reference [--write]: the rule-set reference generated from the schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand

from games.schema import readme_with_reference, schema_reference

README = Path(__file__).resolve().parents[2] / "README.md"


class Command(BaseCommand):
    help = (
        "Print the rule-set file reference generated from games/schema.py; with --write, put it "
        "into rules/README.md between its generated-reference markers."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--write", action="store_true", help="update rules/README.md in place")

    def handle(self, *args: Any, **opts: Any) -> None:
        if not opts["write"]:
            self.stdout.write(schema_reference(), ending="")
            return
        README.write_text(readme_with_reference(README.read_text(encoding="utf-8")), encoding="utf-8")
        self.stdout.write(f"wrote the rule-set reference into {README}")
