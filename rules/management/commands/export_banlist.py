"""python manage.py export_banlist --game yugioh [--name LIST ...] [-o FILE]  (``-o -``: standard output)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from rules.lflist import LfEntry, LfList, serialize_lflist
from rules.models import BanList
from rules.namelist import serialize_namelist


class Command(BaseCommand):
    help = (
        "Write ban lists back as an EDOPro lflist.conf (passcode games) or a name-keyed list, with each list's "
        "#date and #region, so a re-import gives the same lists."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--game", required=True)
        parser.add_argument("--name", action="append", help="list name (repeatable; default: all lists)")
        parser.add_argument("-o", "--output", type=Path, help="file to write; '-' or none: standard output")

    def handle(self, *args: Any, **opts: Any) -> None:
        qs = BanList.objects.filter(game__slug=opts["game"]).order_by("-effective_date", "name")
        if opts["name"]:
            qs = qs.filter(name__in=opts["name"])
        lists = [
            LfList(
                name=b.name,
                whitelist=b.is_whitelist,
                entries=[LfEntry(e.external_id, e.limit, e.name) for e in b.entries.all()],
                date=b.effective_date,
                region=b.region,
            )
            for b in qs
        ]
        if not lists:
            raise CommandError(
                f"no ban lists for {opts['game']!r}" + (f" named {opts['name']}" if opts["name"] else "")
            )
        # Passcodes are numbers; a list keyed by anything else was imported from a name-keyed file.
        by_name = any(not e.external_id.isdecimal() for lst in lists for e in lst.entries)
        text = serialize_namelist(lists) if by_name else serialize_lflist(lists)
        if opts["output"] and str(opts["output"]) != "-":
            opts["output"].write_text(text, encoding="utf-8")
        else:
            self.stdout.write(text, ending="")
