"""Snapshots: coalesced under bursts, rotated, restorable, refused where they do not belong."""

from __future__ import annotations

import io
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from venue import lan, snapshots


def _names(reason: str) -> list[str]:
    return [s.name for s in snapshots.snapshot_list() if s.reason == reason]


def test_a_pairing_is_snapshotted_right_after_it_is_paired(live_db: Path) -> None:
    snapshots.on_round_paired(tournament_id=4, round_number=2)
    assert snapshots.drain(timeout=10)
    assert len(_names("event-4-round-2")) == 1


def test_the_pair_request_does_not_wait_for_the_copy_but_leaves_it_owed(live_db: Path) -> None:
    """The copy runs off the request: while another copy holds the lock the pairing answers at once, and a
    kill at that moment leaves a mark the next start turns into the snapshot."""
    with snapshots._exclusive():  # a copy in progress elsewhere (another worker's results copy)
        # Waiting for the lock would wait for this block to end, which it does only after the call returns.
        pairing = threading.Thread(
            target=snapshots.on_round_paired, kwargs={"tournament_id": 5, "round_number": 1}
        )
        pairing.start()
        pairing.join(timeout=10)
        assert not pairing.is_alive()
        assert not _names("event-5-round-1")
        assert (snapshots.snapshot_dir() / ".changed").exists()  # owed if the server dies now
    assert snapshots.drain(timeout=10)
    assert len(_names("event-5-round-1")) == 1
    assert not (snapshots.snapshot_dir() / ".changed").exists()


def test_a_burst_of_a_thousand_results_takes_one_snapshot_and_misses_none(live_db: Path) -> None:
    snapshots.snapshot_take(reason="manual")

    def confirm_many() -> None:
        for _ in range(250):
            snapshots.on_result_settled(tournament_id=1, match_id=1)

    workers = [threading.Thread(target=confirm_many) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    time.sleep(2.5)
    assert len(_names("results")) == 1
    # A later change is never dropped: it gets its own snapshot once the interval has passed.
    conn = sqlite3.connect(live_db)
    conn.execute("UPDATE tournaments_tournament SET name = 'late result'")
    conn.commit()
    conn.close()
    snapshots.on_result_settled(tournament_id=1, match_id=2)
    time.sleep(2.5)
    newest = snapshots.snapshot_list()[-1]
    assert newest.reason == "results" and len(_names("results")) == 2
    copy = sqlite3.connect(f"file:{newest.path}?mode=ro&immutable=1", uri=True)
    assert copy.execute("SELECT name FROM tournaments_tournament").fetchone() == ("late result",)
    copy.close()


def test_it_keeps_only_the_newest_snapshots(live_db: Path, settings: Any) -> None:
    settings.VENUE_SNAPSHOT_KEEP = 3
    taken = [snapshots.snapshot_take(reason=f"round-{n}").name for n in range(5)]
    assert [s.name for s in snapshots.snapshot_list()] == taken[-3:]


def test_restore_brings_the_state_back_and_keeps_the_state_it_replaced(live_db: Path) -> None:
    good = snapshots.snapshot_take(reason="round-1")
    conn = sqlite3.connect(live_db)
    conn.execute("DELETE FROM tournaments_tournament")
    conn.commit()
    conn.close()
    call_command("restore_snapshot", good.name, stdout=(out := io.StringIO()))
    assert "before-restore" in out.getvalue()
    conn = sqlite3.connect(live_db)
    assert conn.execute("SELECT name FROM tournaments_tournament").fetchall() == [("Friday Swiss",)]
    conn.close()
    assert _names("before-restore")


def test_restore_refuses_while_the_venue_server_runs_unless_forced(live_db: Path, tmp_path: Path) -> None:
    good = snapshots.snapshot_take(reason="round-1")
    # A stand-in whose command line names gunicorn, as the real server's does.
    server = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "gunicorn"])
    try:
        cmdline = Path(f"/proc/{server.pid}/cmdline")
        while cmdline.exists() and b"gunicorn" not in cmdline.read_bytes():  # until exec has happened
            time.sleep(0.01)
        (tmp_path / "venue.pid").write_text(str(server.pid))
        with pytest.raises(CommandError, match="is running"):
            call_command("restore_snapshot", good.name)
        call_command("restore_snapshot", good.name, "--force", stdout=io.StringIO())
    finally:
        server.kill()
        server.wait()
    # A pid file left by a killed server does not block the restore.
    call_command("restore_snapshot", good.name, stdout=io.StringIO())


def test_restore_refuses_a_file_that_is_not_a_deckhall_database(live_db: Path, tmp_path: Path) -> None:
    other = tmp_path / "cards.cdb"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE datas (id INTEGER)")
    conn.close()
    with pytest.raises(CommandError, match="not a Deckhall database"):
        call_command("restore_snapshot", str(other))
    with pytest.raises(CommandError, match="no snapshot"):
        call_command("restore_snapshot", "deckhall-nothing.sqlite3")


def test_on_postgresql_snapshots_are_the_dbas_job(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    settings.VENUE_SNAPSHOTS = True
    monkeypatch.setattr(snapshots, "supported", lambda: False)
    with pytest.raises(CommandError, match="database administrator"):
        call_command("snapshots")
    with pytest.raises(CommandError, match="administrator's backups"):
        call_command("restore_snapshot", "x")
    snapshots.on_round_paired(tournament_id=1, round_number=1)  # does nothing, raises nothing


def test_it_finds_lan_addresses_in_ip_and_ifconfig_output() -> None:
    ip_output = (
        "1: lo    inet 127.0.0.1/8 scope host lo\n"
        "3: wlan0    inet 192.168.1.10/24 brd 192.168.1.255 scope global dynamic wlan0\n"
        "3: wlan0    inet6 fe80::1/64 scope link\n"
        "3: wlan0    inet6 fd00::5/64 scope global\n"
    )
    assert lan.parse_interface_addresses(ip_output) == ["192.168.1.10", "fd00::5"]
    ifconfig = "en0: flags=8863<UP>\n\tinet6 fe80::1%en0 prefixlen 64\n\tinet 10.0.0.7 netmask 0xffffff00\n"
    assert lan.parse_interface_addresses(ifconfig) == ["10.0.0.7"]


def test_venue_hosts_cover_the_machine_name_and_localhost(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lan.socket, "gethostname", lambda: "tolaptop")
    monkeypatch.setattr(lan, "_interface_addresses", lambda: ["192.168.1.10", "fd00::5"])
    hosts = lan.venue_hosts()
    assert {"localhost", "127.0.0.1", "tolaptop", "tolaptop.local", "192.168.1.10", "[fd00::5]"} <= set(hosts)


def test_the_secret_key_is_generated_once_and_private(tmp_path: Path) -> None:
    path = tmp_path / "var" / "secret_key"
    first = lan.secret_key_file(path)
    assert len(first) >= 50 and lan.secret_key_file(path) == first
    assert path.stat().st_mode & 0o077 == 0
