"""A round committed while its answer was lost gets its snapshot at the next start, even when another
worker's snapshot started between the round's write-ahead mark and its commit (that copy does not hold the
round, and it used to clear the only mark, so nothing was owed and a later restore lost the round)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import transaction

from tournaments import signals
from venue import snapshots

pytestmark = pytest.mark.django_db(transaction=True)


class _Killed(Exception):
    """The worker dies after its transaction committed and before its on-commit work ran."""


def test_a_snapshot_taken_before_the_round_commits_does_not_cancel_the_owed_one(live_db: Path) -> None:
    snapshots.snapshot_take(reason="round-1")
    with pytest.raises(_Killed), transaction.atomic():
        # round_pair_next's write-ahead: the pending mark exists before the commit.
        snapshots.on_change_pending(pending=signals.round_paired)
        # A result snapshot of another worker starts now: its copy predates the round.
        snapshots.snapshot_take(reason="results")
        # The commit happened (the round is in the database) but the answer, the on-commit hooks and the
        # round's own snapshot were lost with the worker: the hooks never run.
        raise _Killed
    owed = snapshots.snapshot_if_behind()  # the next start
    assert owed is not None and owed.reason == "after-restart"
    assert snapshots.snapshot_if_behind() is None  # owed once


def test_a_committed_change_turns_its_pending_mark_into_the_change_mark(live_db: Path) -> None:
    snapshots.snapshot_take(reason="round-1")
    with transaction.atomic():
        snapshots.on_change_pending(pending=signals.round_paired)
        assert list(snapshots.snapshot_dir().glob(".pending-*"))
    assert not list(snapshots.snapshot_dir().glob(".pending-*"))
    assert (snapshots.snapshot_dir() / ".changed").exists()
    snapshots.snapshot_take(reason="round-2")  # the round's own snapshot: nothing left owed
    assert snapshots.snapshot_if_behind() is None
