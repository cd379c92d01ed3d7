"""The clock notice of a player's page: when only the round clock changed (started, paused, resumed, time
added), a phone gets the few hundred bytes of its clock instead of its whole page.

Starting the clock changes what every phone in the room shows within one poll: as full renders that was
2,000 renders in four seconds (p95 3.5 s on the laptop). The clock is therefore kept out of the page's mark
(``my_event.fingerprint_marks``) and a poll whose page is otherwise current is answered with this notice:
the clock's own fragment (the very template the full page includes) and a new ETag. ``live.js`` swaps it
into the page's ``[data-live-clock]`` element; ``timer.js`` counts from the new end time.

What it shows — the round's clock and the extra minutes of the player's own table — is what the public
pairings page and the projector show, so it needs no session check. The pairings pages (players' and
projector's) get the same treatment: their tags carry the clock (``versions.page_state``), and a copy that
is current but for the clock gets ``shared_clock_notice``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime

from .sql import poll_fetch

# The header that tells live.js "this body is the clock, not the page".
CLOCK_HEADER = "X-Live-Clock"

_CLOCK_SQL = """
SELECT r.timer_ends_at, r.timer_paused_left, t.status,
       (SELECT MAX((SELECT m.extra_minutes FROM tournaments_match m WHERE m.id = s.match_id AND m.round_id = r.id))
          FROM tournaments_matchseat s WHERE s.player_id = %s)
  FROM tournaments_tournament t
  JOIN tournaments_round r ON r.id = (
       SELECT r2.id FROM tournaments_round r2 WHERE r2.tournament_id = t.id AND NOT r2.draft
        ORDER BY r2.number DESC LIMIT 1)
 WHERE t.id = %s"""


@dataclass(frozen=True, slots=True)
class ClockNotice:
    etag: str
    body: bytes


def _aware(value: Any) -> dt.datetime | None:
    """A datetime column read by hand: SQLite gives text in UTC, PostgreSQL an aware datetime."""
    if value is None:
        return None
    if isinstance(value, str):
        value = parse_datetime(value)
        if value is None:
            return None
    if timezone.is_naive(value):
        value = timezone.make_aware(value, dt.UTC)
    return value


def clock_context(*, tournament_id: int, player_id: int) -> dict[str, Any] | None:
    """What the clock fragment needs, in one small query; None before round 1."""
    rows = poll_fetch(_CLOCK_SQL, [player_id, tournament_id])
    if not rows:
        return None
    ends_at, paused_left, status, extra = rows[0]
    ends_at = _aware(ends_at)
    if ends_at is not None and extra:
        ends_at += timedelta(minutes=int(extra))  # a judge's extension for this table
    return {"table_ends_at": ends_at, "paused_left": paused_left, "status": status}


def clock_notice(*, tournament_id: int, player_id: int, language: str, etag: str) -> ClockNotice | None:
    """The player's clock fragment in ``language`` under ``etag`` (the page's current tag)."""
    context = clock_context(tournament_id=tournament_id, player_id=player_id)
    if context is None:
        return None
    with translation.override(language):
        body = render_to_string("tournaments/_my_event_clock.html", context).encode()
    return ClockNotice(etag=etag, body=body)


_ROUND_CLOCK_SQL = """
SELECT timer_ends_at FROM tournaments_round
 WHERE tournament_id = %s AND NOT draft AND (number = %s OR %s = 0) ORDER BY number DESC LIMIT 1"""


def shared_clock_notice(*, tournament_id: int, page: str, language: str, etag: str) -> ClockNotice:
    """The clock fragment of a pairings page (players' or projector's) in ``language`` under ``etag``: after
    a clock change every phone on the 2,000-name pairings page gets this instead of the whole list again."""
    from .versions import page_round_number

    number = page_round_number(page)
    rows = poll_fetch(_ROUND_CLOCK_SQL, [tournament_id, number, number])
    context = {"ends_at": _aware(rows[0][0]) if rows else None, "projector": page.startswith("projector-")}
    with translation.override(language):
        body = render_to_string("tournaments/_live_pairings_clock.html", context).encode()
    return ClockNotice(etag=etag, body=body)
