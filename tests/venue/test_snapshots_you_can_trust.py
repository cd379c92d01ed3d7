"""Snapshots you can trust: verified on write, owed snapshots taken at the next start after a
kill, a restore that works on a damaged or missing database and picks the newest good snapshot by itself,
a venue that says what to do when its database is damaged, and private files."""

from __future__ import annotations

import io
import os
import sqlite3
import stat
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from venue import snapshots


def _tournaments(path: Path) -> list[tuple[str]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT name FROM tournaments_tournament").fetchall()
    finally:
        conn.close()


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_snapshot_is_verified_private_and_clears_the_change_mark(live_db: Path) -> None:
    snapshots.mark_changed()
    taken = snapshots.snapshot_take(reason="round-1")
    assert _mode(taken.path) == 0o600 and _mode(taken.path.parent) == 0o700
    assert not (taken.path.parent / ".changed").exists()
    conn = sqlite3.connect(taken.path)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()


def test_a_copy_that_fails_its_check_is_not_kept(live_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshots, "_integrity", lambda conn: "row 3 missing from index")
    with pytest.raises(snapshots.SnapshotError, match="integrity"):
        snapshots.snapshot_take(reason="round-2")
    assert snapshots.snapshot_list() == []
    assert not list(snapshots.snapshot_dir().glob(".*.partial"))


def test_a_change_committed_before_a_kill_gets_its_snapshot_at_the_next_start(live_db: Path) -> None:
    snapshots.snapshot_take(reason="round-1")
    assert snapshots.snapshot_if_behind() is None  # nothing owed
    snapshots.mark_changed()  # a result committed; the server was killed before its delayed copy
    owed = snapshots.snapshot_if_behind()
    assert owed is not None and owed.reason == "after-restart"
    assert snapshots.snapshot_if_behind() is None


@pytest.mark.parametrize("damage", ["header", "truncated", "missing"])
def test_restore_with_no_name_repairs_a_damaged_or_missing_database(live_db: Path, damage: str) -> None:
    good = snapshots.snapshot_take(reason="round-1")
    older = snapshots.snapshot_list()[0]
    assert older == good
    # The newest snapshot is itself damaged: the restore falls back to the older good one.
    newest = snapshots.snapshot_take(reason="round-2")
    newest.path.write_bytes(b"not a database at all" * 100)
    if damage == "header":
        with open(live_db, "r+b") as handle:
            handle.write(b"\0" * 100)
    elif damage == "truncated":
        with open(live_db, "r+b") as handle:
            handle.truncate(1000)
    else:
        live_db.unlink()
    assert snapshots.database_damage() is not None or damage == "missing"
    call_command("restore_snapshot", stdout=(out := io.StringIO()))
    assert good.name in out.getvalue()
    assert _tournaments(live_db) == [("Friday Swiss",)]
    assert snapshots.database_damage() is None
    assert _mode(live_db) == 0o600
    if damage != "missing":
        assert list(live_db.parent.glob("db.sqlite3.damaged-*"))


def test_the_venue_command_says_what_to_do_when_the_database_is_damaged(
    live_db: Path, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.VENUE_MODE = True
    with open(live_db, "r+b") as handle:
        handle.write(b"\0" * 100)
    with pytest.raises(CommandError) as refused:
        call_command("venue", "--no-serve", stdout=io.StringIO())
    message = str(refused.value)
    assert "damaged" in message and "restore_snapshot" in message and "make venue" in message


def test_the_venue_makes_old_world_readable_files_private(tmp_path: Path, live_db: Path) -> None:
    from venue.management.commands.venue import _private_files

    var = tmp_path / "var"
    (var / "cache").mkdir(parents=True)
    (var / "cache" / "x.djcache").write_text("x")
    os.chmod(var, 0o755)
    os.chmod(live_db, 0o644)
    _private_files(var)
    assert _mode(var) == 0o700 and _mode(var / "cache" / "x.djcache") == 0o600
    assert _mode(live_db) == 0o600


@pytest.mark.django_db
def test_the_owed_snapshot_is_marked_inside_the_transaction_before_it_commits(live_db: Path) -> None:
    """A kill between a pairing's commit and its copy must still leave the next start owing a snapshot."""
    from django.db import transaction

    from tournaments import signals

    snapshots.snapshot_take(reason="round-1")
    mark = snapshots.snapshot_dir() / ".changed"
    assert not mark.exists()
    with transaction.atomic():
        signals.send_on_commit(signals.round_paired, tournament_id=1, round_number=2)
        # Written before the commit: the write-ahead mark (a pending one, which no snapshot clears).
        assert list(snapshots.snapshot_dir().glob(".pending-*"))
