"""python manage.py snapshots [--take]: list the venue database snapshots (newest last)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from venue import snapshots


class Command(BaseCommand):
    help = "List the venue's database snapshots, newest last (--take: take one now)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--take", action="store_true", help="take a snapshot now, then list")

    def handle(self, *args: Any, **options: Any) -> None:
        if not snapshots.supported():
            raise CommandError(
                "this site runs on PostgreSQL: Deckhall takes no snapshots there, backups are the database "
                "administrator's job (pg_dump, point-in-time recovery)"
            )
        if options["take"]:
            try:
                snapshots.snapshot_take(reason="manual")
            except snapshots.SnapshotError as exc:
                raise CommandError(str(exc)) from exc
        found = snapshots.snapshot_list()
        self.stdout.write(f"{len(found)} snapshot(s) in {snapshots.snapshot_dir()}")
        for snapshot in found:
            taken = timezone.localtime(snapshot.started_at).strftime("%Y-%m-%d %H:%M:%S")
            self.stdout.write(
                f"{snapshot.name}  {taken}  {snapshot.size / 1_048_576:6.1f} MB  {snapshot.reason}"
            )
