"""Domain events of a tournament, sent after the transaction that caused them commits.

Other parts of the product react to them without the services knowing who listens: the venue snapshots
(a copy of the database after every paired round and every settled result) and the live pages (a change
counter per event, so phones re-fetch only when something they show has changed).
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

# kwargs: tournament_id, round_number
round_paired = Signal()
# kwargs: tournament_id, match_id — a result became final (confirmed by the opponent, entered or corrected
# by an organizer)
result_settled = Signal()
# kwargs: tournament_id, what — anything a live page shows changed (pairings, results, timer, drops …)
tournament_changed = Signal()
# kwargs: pending — one of the above is about to be sent, from INSIDE the transaction (before it commits),
# with that signal's own kwargs: a write-ahead mark for listeners that must survive a kill between the commit
# and their work (the venue snapshots mark "a copy is owed" here; a rollback only costs one needless copy at
# the next start; the webhooks' outbox rows are written here, so they commit or roll back with the change).
change_pending = Signal()


def send_on_commit(signal: Signal, **kwargs: object) -> None:
    """Send ``signal`` once the surrounding transaction commits (immediately outside a transaction).

    Listeners must never see a state that is later rolled back, and a failing listener must never undo
    the organizer's action, hence on_commit and send_robust.
    """
    change_pending.send_robust(sender=None, pending=signal, **kwargs)
    transaction.on_commit(lambda: signal.send_robust(sender=None, **kwargs))
