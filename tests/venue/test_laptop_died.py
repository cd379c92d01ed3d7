"""The venue laptop dies mid-round (SIGKILL); the newest snapshot brings the event back and it finishes."""

from __future__ import annotations

import time
from typing import Any

from tests.deploy.event_driver import (
    Site,
    event_create,
    round_pair,
    round_report,
    rounds_list,
    standings,
)
from tests.venue.conftest import snapshot_names


def _wait_for_snapshot(venue: Any, after: set[str], reason: str, timeout: float = 30) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        fresh = [name for name in snapshot_names(venue) if name not in after and reason in name]
        if fresh:
            return fresh[-1]
        time.sleep(0.5)
    raise AssertionError(f"no new {reason!r} snapshot within {timeout} s: {snapshot_names(venue)}")


def test_it_finishes_the_event_from_the_newest_snapshot_after_a_sigkill(venue: Any) -> None:
    venue.start()
    site = Site(venue.base)
    site.log_in_token("organizer", venue.organizer_password())
    event = event_create(site, name="Friday Swiss", players=8, rounds=3)

    seen = set(snapshot_names(venue))
    round_pair(site, event)
    assert _wait_for_snapshot(venue, seen, f"event-{event}-round-1", timeout=1), (
        "the pairing's copy lands within a second of the pairing"
    )
    round_report(site, rounds_list(site, event)[-1])
    round_pair(site, event)
    seen = set(snapshot_names(venue))
    assert round_report(site, rounds_list(site, event)[-1], limit=2) == 2
    _wait_for_snapshot(venue, seen, "results")  # coalesced: a second or so after the burst

    refused = venue.manage("restore_snapshot", snapshot_names(venue)[-1], check=False)
    assert refused.returncode != 0 and "is running" in refused.stderr

    venue.kill()
    newest = snapshot_names(venue)[-1]
    restored = venue.manage("restore_snapshot", newest)
    assert "restored" in restored.stdout and "before-restore" in restored.stdout

    venue.start()
    site = Site(venue.base)
    site.log_in_token("organizer", venue.organizer_password())
    rounds = rounds_list(site, event)
    assert [r["number"] for r in rounds] == [1, 2]
    assert sum(m["status"] == "final" and not m["bye"] for m in rounds[1]["matches"]) == 2
    assert round_report(site, rounds[1]) == 2  # only what the crash interrupted is entered again
    round_pair(site, event)
    round_report(site, rounds_list(site, event)[-1])
    site.post(f"/api/tournaments/{event}/finish/")
    table = standings(site, event)
    # 8 players, 3 rounds, no draws: every match gave its winner 3 points (byes too).
    assert len(table) == 8 and sum(row["wins"] for row in table) == 12
    assert sum(row["points"] for row in table) == 36
