"""The organizer's live pages (round dashboard, check-in, event page): what needs them now, and their polls.

A poll is answered 304 while nothing changed: the tag names the page (with its search and page of the list),
the event's change counter and the number of tables whose time is up (a clock running out changes no
counter, yet the organizer must see it), so an unchanged dashboard costs three small queries.

The polled fragments carry no CSRF token (the page around them carries it once, and ``organizer.js`` adds it
to whichever form is sent), so a fragment is the same for every organizer of the event: it is rendered once
per tag and kept in the cache. A full page load renders them with a token in each form, so a page opened with
JavaScript off still works. What they show is read with counts by state and only the rows that need someone —
never a loop over every player or match of a 2,000-player event.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Prefetch
from django.utils import timezone

from ..models import JudgeCall, Match, MatchSeat, Round
from .etags import digest
from .sql import poll_fetch
from .versions import page_version

UNSETTLED = (Match.Status.DISPUTED, Match.Status.PENDING, Match.Status.REPORTED)
# Alerts that can run into the hundreds at a big event (results waiting for the opponent, tables out of time)
# list this many and count the rest; judge calls and disputes are always listed whole.
ALERT_ROWS = 20
# Rendered fragments are kept this long; a new tag makes a new key, so this only bounds memory.
FRAGMENT_TTL = 10 * 60

_LATEST_SQL = (
    "SELECT id, timer_ends_at FROM tournaments_round WHERE tournament_id = %s ORDER BY number DESC LIMIT 1"
)
_LATE_COUNT_SQL = """
SELECT COUNT(*) FROM tournaments_match
 WHERE round_id = %s AND bye = %s AND status IN ('pending', 'reported', 'disputed') AND extra_minutes <= %s"""


def _aware(value: Any) -> datetime:
    if isinstance(value, str):  # SQLite through a raw cursor: an ISO string
        value = datetime.fromisoformat(value)
    return timezone.make_aware(value, UTC) if timezone.is_naive(value) else value


def minutes_over(ends: datetime | None, now: datetime) -> int | None:
    """Whole minutes since the round clock ran out (None while it runs): a table with ``extra_minutes`` up to
    this is out of time too, so "late" is one indexed comparison instead of a loop over every table."""
    if ends is None or ends > now:
        return None
    return int((now - ends).total_seconds() // 60)


def _late_tables(tournament_id: int, now: datetime) -> int:
    """How many tables of the latest round are out of time (their extension included)."""
    rows = poll_fetch(_LATEST_SQL, [tournament_id])
    if not rows or rows[0][1] is None:
        return 0
    over = minutes_over(_aware(rows[0][1]), now)
    if over is None:
        return 0
    return int(poll_fetch(_LATE_COUNT_SQL, [rows[0][0], False, over])[0][0])


def organizer_etag(
    *, tournament_id: int, page: str, language: str, now: datetime | None = None
) -> str | None:
    """The tag of what an organizer's live ``page`` shows now; None when there is no such event."""
    version = page_version(tournament_id, "organizer")
    if version is None:
        return None
    late = _late_tables(tournament_id, now or timezone.now())
    return f'"org-{digest(page)}-{tournament_id}-{version}-{late}-{language}"'


def fragment_cached(etag: str, render: Callable[[], str]) -> str:
    """The fragment of this tag: rendered by the first organizer (or judge) who asks, read by the others."""
    key = f"org-fragment:{etag}"
    html = cache.get(key)
    if html is None:
        html = render()
        cache.set(key, html, FRAGMENT_TTL)
    return html


@dataclass
class Alerts:
    """What needs the organizer, most urgent first: judge calls, disputes, tables out of time, results
    waiting for the opponent's confirmation (the last two listed up to ALERT_ROWS, with their full count)."""

    calls: list[JudgeCall] = field(default_factory=list)
    disputes: list[Match] = field(default_factory=list)
    late: list[Match] = field(default_factory=list)
    unconfirmed: list[Match] = field(default_factory=list)
    late_count: int = 0
    unconfirmed_count: int = 0

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
        return bool(self.calls or self.disputes or self.late_count or self.unconfirmed_count)

    @property
    def late_more(self) -> int:
        return self.late_count - len(self.late)

    @property
    def unconfirmed_more(self) -> int:
        return self.unconfirmed_count - len(self.unconfirmed)


# A player's registered deck, pool and check report are JSON documents of kilobytes each: the organizer's
# tables show names, so those columns are never read (nor parsed) for them.
PLAYER_DOCUMENTS = ("deck", "pool", "deck_report")


def seats_prefetch() -> Prefetch:
    """The seats of matches in seat order, with the players' names (not their documents)."""
    seats = MatchSeat.objects.select_related("player").defer(*(f"player__{f}" for f in PLAYER_DOCUMENTS))
    return Prefetch("seats", seats.order_by("seat"))


def _with_seats(matches: Any) -> Any:
    return matches.select_related("round__tournament").prefetch_related(seats_prefetch())


def organizer_alerts(tournament_id: int, now: datetime | None = None) -> Alerts:
    now = now or timezone.now()
    calls = list(
        JudgeCall.objects.filter(match__round__tournament_id=tournament_id, answered_at__isnull=True)
        .select_related("match__round", "player")
        .defer(*(f"player__{f}" for f in PLAYER_DOCUMENTS))
        .order_by("created_at", "id")
    )
    open_ = Match.objects.filter(round__tournament_id=tournament_id, bye=False)
    order = ("round__number", "table")
    # Disputes and unconfirmed results of every round (earlier ones hold up the next pairing).
    disputes = list(_with_seats(open_.filter(status=Match.Status.DISPUTED)).order_by(*order))
    reported = open_.filter(status=Match.Status.REPORTED)
    alerts = Alerts(calls=calls, disputes=disputes, unconfirmed_count=reported.count())
    if alerts.unconfirmed_count:
        alerts.unconfirmed = list(_with_seats(reported).order_by(*order)[:ALERT_ROWS])
    latest = Round.objects.filter(tournament_id=tournament_id).order_by("-number").only("id", "timer_ends_at").first()  # fmt: skip
    over = minutes_over(latest.timer_ends_at, now) if latest is not None else None
    if over is not None:
        late = open_.filter(round=latest, status=Match.Status.PENDING, extra_minutes__lte=over)
        alerts.late_count = late.count()
        if alerts.late_count:
            alerts.late = list(_with_seats(late).order_by("table")[:ALERT_ROWS])
    return alerts


def organizer_context(tournament_id: int) -> dict[str, Any]:
    """What every organizer fragment shows on top (in Two-Headed Giant each seat names its team)."""
    from ..reads.teams import label_two_headed_seats

    alerts = organizer_alerts(tournament_id)
    listed = [*alerts.disputes, *alerts.unconfirmed, *alerts.late]
    if listed:
        label_two_headed_seats(listed[0].round.tournament, listed)
    return {"alerts": alerts}


def round_counts(round_: Round) -> dict[str, int]:
    """Matches of a round by state, in one grouped query (byes apart)."""
    counts = {"bye": 0, **{status: 0 for status in Match.Status.values}}
    for status, bye, n in round_.matches.values_list("status", "bye").annotate(n=Count("id")).order_by():
        counts["bye" if bye else status] += n
    return counts


def round_attention(
    round_: Round, *, overtime: set[int], calls: set[int], limit: int
) -> tuple[list[Match], int]:
    """The unsettled matches of a round in the order the organizer deals with them — judge called, disputed,
    no result (late ones first), waiting for confirmation — the first ``limit`` of them with their seats, and
    how many there are in all. Only ids and states of the unsettled tables are read to sort them."""
    order = {Match.Status.DISPUTED: 0, Match.Status.PENDING: 1, Match.Status.REPORTED: 2}
    rows = round_.matches.filter(bye=False, status__in=UNSETTLED).values_list("id", "status", "table")
    ranked = sorted(rows, key=lambda r: (r[0] not in calls, order[r[1]], r[0] not in overtime, r[2]))
    ids = [r[0] for r in ranked[:limit]]
    found = {m.pk: m for m in round_.matches.filter(pk__in=ids).prefetch_related(seats_prefetch(), "games")}
    return [found[pk] for pk in ids if pk in found], len(ranked)
