"""python manage.py restore_snapshot [NAME|PATH] [--force]: put a snapshot back as the venue database.

With no name, the newest snapshot that passes SQLite's check is used. Works when the live database is
missing or damaged (the damaged file is moved aside, not overwritten)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from venue import snapshots


class Command(BaseCommand):
    help = (
        "Replace the venue database with a snapshot (a name from `manage.py snapshots`, or the path of a "
        "snapshot copied from another machine; none: the newest good one). The current state is "
        "snapshotted first; a damaged database is moved aside."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "snapshot", nargs="?", default="",
            help="snapshot name, or path to a snapshot file (default: the newest good snapshot)",
        )  # fmt: skip
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
            damage = snapshots.database_damage()
            if damage is not None:
                self.stdout.write(
                    f"the venue database is damaged ({damage}); it is moved aside, not overwritten"
                )
            name = options["snapshot"]
            source = snapshots.snapshot_find(name) if name else snapshots.snapshot_newest_good()
            before = snapshots.snapshot_restore(source=Path(source))
        except snapshots.SnapshotError as exc:
            raise CommandError(str(exc)) from exc
        if before is not None:
            self.stdout.write(f"the state before restoring is kept as {before.name}")
        self.stdout.write(self.style.SUCCESS(f"restored {source.name}; start the server with `make venue`"))
