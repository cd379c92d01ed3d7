"""The organizer's live pages (round dashboard, check-in, event page): what needs them now, and their polls.

These pages carry forms (CSRF tokens are per browser), and only a handful of people watch them, so their
fragment is rendered per request rather than shared through the cache. A poll is still answered 304 while
nothing changed: the tag names the event's change counter and the number of tables whose time is up (a
clock running out changes no counter, yet the organizer must see it), so an unchanged dashboard costs two
small queries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone

from ..models import JudgeCall, Match, MatchSeat, Round
from .etags import digest
from .sql import poll_fetch
from .versions import page_version

_LATE_SQL = """
SELECT m.extra_minutes, r.timer_ends_at FROM tournaments_match m
  JOIN tournaments_round r ON r.id = m.round_id
 WHERE r.id = (SELECT r2.id FROM tournaments_round r2 WHERE r2.tournament_id = %s ORDER BY r2.number DESC LIMIT 1)
   AND r.timer_ends_at IS NOT NULL AND m.bye = %s AND m.status IN ('pending', 'reported', 'disputed')"""


def _late_tables(tournament_id: int, now: datetime) -> int:
    """How many tables of the latest round are out of time (their extension included)."""
    count = 0
    for extra, ends in poll_fetch(_LATE_SQL, [tournament_id, False]):
        if isinstance(ends, str):  # SQLite through a raw cursor: an ISO string
            ends = datetime.fromisoformat(ends)
        if timezone.is_naive(ends):
            ends = timezone.make_aware(ends, UTC)
        if ends + timedelta(minutes=extra or 0) <= now:
            count += 1
    return count


def organizer_etag(
    *, tournament_id: int, page: str, language: str, now: datetime | None = None
) -> str | None:
    """The tag of what an organizer's live ``page`` shows now; None when there is no such event."""
    version = page_version(tournament_id, "organizer")
    if version is None:
        return None
    late = _late_tables(tournament_id, now or timezone.now())
    return f'"org-{digest(page)}-{tournament_id}-{version}-{late}-{language}"'


@dataclass
class Alerts:
    """What needs the organizer, most urgent first: judge calls, disputes, tables out of time, results
    waiting for the opponent's confirmation."""

    calls: list[JudgeCall] = field(default_factory=list)
    disputes: list[Match] = field(default_factory=list)
    late: list[Match] = field(default_factory=list)
    unconfirmed: list[Match] = field(default_factory=list)

    @property
    def urgent(self) -> int:
        """Calls and disputes: what the page title counts and the sound announces."""
        return len(self.calls) + len(self.disputes)

    @property
    def keys(self) -> str:
        """One word per urgent item; a word the page has not seen before rings (a dispute raised again after a
        decision is a new word: the match's version changed)."""
        words = [f"call-{c.pk}" for c in self.calls] + [f"dispute-{m.pk}-{m.version}" for m in self.disputes]
        return " ".join(words)

    @property
    def any(self) -> bool:
        return bool(self.calls or self.disputes or self.late or self.unconfirmed)


def organizer_alerts(tournament_id: int, now: datetime | None = None) -> Alerts:
    now = now or timezone.now()
    seats = Prefetch("seats", MatchSeat.objects.select_related("player").order_by("seat"))
    calls = list(
        JudgeCall.objects.filter(match__round__tournament_id=tournament_id, answered_at__isnull=True)
        .select_related("match__round", "player")
        .order_by("created_at", "id")
    )
    latest = Round.objects.filter(tournament_id=tournament_id).order_by("-number").first()
    open_matches = list(
        Match.objects.filter(round__tournament_id=tournament_id, bye=False)
        .filter(status__in=[Match.Status.DISPUTED, Match.Status.REPORTED, Match.Status.PENDING])
        .filter(round=latest)
        .select_related("round")
        .prefetch_related(seats)
        .order_by("table")
    ) if latest is not None else []  # fmt: skip
    # Disputes and unconfirmed results of earlier rounds too (they hold up the next pairing).
    earlier = list(
        Match.objects.filter(round__tournament_id=tournament_id, bye=False)
        .filter(status__in=[Match.Status.DISPUTED, Match.Status.REPORTED])
        .exclude(round=latest)
        .select_related("round")
        .prefetch_related(seats)
        .order_by("round__number", "table")
    )
    alerts = Alerts(calls=calls)
    for m in earlier + open_matches:
        ends = m.round.timer_ends_at
        if m.status == Match.Status.DISPUTED:
            alerts.disputes.append(m)
        elif m.status == Match.Status.REPORTED:
            alerts.unconfirmed.append(m)
        elif ends is not None and ends + timedelta(minutes=m.extra_minutes) <= now:
            alerts.late.append(m)
    return alerts


def organizer_context(tournament_id: int) -> dict[str, Any]:
    """What every organizer fragment shows on top."""
    return {"alerts": organizer_alerts(tournament_id)}
