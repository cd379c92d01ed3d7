"""python manage.py restore_snapshot NAME|PATH [--force]: put a snapshot back as the venue database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from venue import snapshots


class Command(BaseCommand):
    help = (
        "Replace the venue database with a snapshot (a name from `manage.py snapshots`, or the path of a "
        "snapshot copied from another machine). The current state is snapshotted first."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("snapshot", help="snapshot name, or path to a snapshot file")
        parser.add_argument(
            "--force",
            action="store_true",
            help="restore even though a venue server seems to be running (its open pages then show the "
            "restored state; anything they submit meanwhile is lost)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not snapshots.supported():
            raise CommandError(
                "this site runs on PostgreSQL: restore from the database administrator's backups instead"
            )
        pid = snapshots.server_pid()
        if pid is not None and not options["force"]:
            # Restoring under a live server would silently undo results being entered right now.
            raise CommandError(
                f"the venue server (pid {pid}) is running: stop it (Ctrl+C in its terminal) and run this "
                "again, or pass --force"
            )
        try:
            source = snapshots.snapshot_find(options["snapshot"])
            before = snapshots.snapshot_restore(source=Path(source))
        except snapshots.SnapshotError as exc:
            raise CommandError(str(exc)) from exc
        if before is not None:
            self.stdout.write(f"the state before restoring is kept as {before.name}")
        self.stdout.write(self.style.SUCCESS(f"restored {source.name}; start the server with `make venue`"))
