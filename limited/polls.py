"""The draft poll's entity tag: what a phone's "My draft" answer depends on, read with one query.

Every phone of a draft polls every second or two, and almost every poll asks "has my pack come?" to hear
"no". What a seat is shown is a function of few things: the pod's pick (``step``), whether this seat has
made it, the pod's deadline, pause and end, the event's start and end of the draft (the deck-building
clock), whether the player's pool is registered, and the page's language. A pick by another seat of the
pod changes none of them, so it leaves this seat's tag current.

Both ways in compute the tag here: the WSGI fast path (``limited.wsgi.DraftPolls``) for the unchanged
polls, and the services for the answers rendered by Django (``services.draft_me_tagged``), so the two
never disagree. The tag names the player, pod and seat it was made for and is keyed with the site's secret:
a phone cannot make a tag for another seat, so a 304 never tells anything about anyone else's picks.

    "draft-<kind>-<event>-<player>.<pod>.<seat>-<language>-<mark>"

``kind`` is ``api`` (the JSON of draft/me, no language) or ``page`` (the HTML fragment of My draft);
``pod`` and ``seat`` are 0 before the player has a seat.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from tournaments.live.etags import known_language
from tournaments.live.sql import poll_fetch

from .engine.draft import timer_run_out

API, PAGE = "api", "page"
NO_LANGUAGE = "xx"  # the API's JSON names no text in any language

# One statement: the player (and their account), their event, and their pod's row with "has this seat
# made the pod's pick" — all by primary key or unique index.
_STATE_SQL = """
SELECT p.step, p.deadline, p.paused_left, p.finished_at,
       EXISTS(SELECT 1 FROM limited_draftpick k WHERE k.pod_id = p.id AND k.seat = %s AND k.pick_number = p.step),
       e.kind, e.physical, e.draft_started_at, e.draft_finished_at, e.deck_building_minutes,
       pl.user_id, pl.pool IS NULL, p.id, u.password, u.is_active
  FROM tournaments_player pl
  JOIN limited_limitedevent e ON e.tournament_id = pl.tournament_id
  LEFT JOIN limited_draftpod p ON p.id = %s AND p.event_id = e.id
  LEFT JOIN {users} u ON u.id = pl.user_id
 WHERE pl.id = %s AND pl.tournament_id = %s"""


@lru_cache(maxsize=1)
def _state_sql() -> str:
    from django.contrib.auth import get_user_model

    return _STATE_SQL.format(users=connection.ops.quote_name(get_user_model()._meta.db_table))


@dataclass(frozen=True, slots=True)
class PollState:
    """What a seat's draft answer depends on (``pod_found`` False: no pod with that id in the event)."""

    step: int
    deadline: datetime | None
    paused: bool
    finished: bool
    picked: bool
    physical: bool
    user_id: int | None
    pool_missing: bool
    pod_found: bool
    mark_source: tuple[Any, ...]
    # The player's account, for the fast path's sign-in check (never part of the tag).
    password: str = ""
    active: bool = False


def moment(value: Any) -> datetime | None:
    """A timestamp as the database gives it back to plain SQL (SQLite: text in UTC), as an aware datetime."""
    if value is None or isinstance(value, datetime):
        return value if value is None or value.tzinfo else value.replace(tzinfo=UTC)
    parsed = datetime.fromisoformat(str(value))
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def poll_state(*, tournament_id: int, player_id: int, pod_id: int, seat: int) -> PollState | None:
    """The seat's state with one query, or None when the player or the limited event does not exist."""
    rows = poll_fetch(_state_sql(), [seat, pod_id, player_id, tournament_id])
    if not rows:
        return None
    (step, deadline, paused_left, finished_at, picked, kind, physical, started, ended, minutes,
     user_id, pool_missing, found, password, active) = rows[0]  # fmt: skip
    return PollState(
        step=int(step or 0),
        deadline=moment(deadline),
        paused=paused_left is not None,
        finished=finished_at is not None,
        picked=bool(picked),
        physical=bool(physical),
        user_id=user_id,
        pool_missing=bool(pool_missing),
        pod_found=found is not None,
        password=password or "",
        active=bool(active),
        # Exactly what the answer shows, as text: the same row gives the same mark in every process.
        mark_source=(
            step,
            str(moment(deadline)),
            paused_left is not None,
            finished_at is not None,
            bool(picked),
            kind,
            bool(physical),
            str(moment(started)),
            str(moment(ended)),
            minutes,
            bool(pool_missing),
            found is not None,
        ),
    )


def due(state: PollState) -> bool:
    """The pod's pick timer has run out (its grace included: limited/engine/draft.py): the poll must run it
    (auto-picks), so it is never a 304."""
    return (
        state.pod_found
        and not state.physical
        and not state.finished
        and not state.paused
        and timer_run_out(state.deadline, timezone.now())
    )


@lru_cache(maxsize=4)
def _key(secret: str) -> bytes:
    return hashlib.sha256(b"limited.polls.draft-etag:" + secret.encode()).digest()


def draft_etag(
    *, kind: str, tournament_id: int, player_id: int, pod_id: int, seat: int, language: str, state: PollState
) -> str:
    """The tag of what this seat is shown now, keyed with the secret (nobody mints one for another seat)."""
    head = f"{kind}-{tournament_id}-{player_id}.{pod_id}.{seat}-{language}"
    mark = hashlib.blake2b(
        repr((head, state.mark_source)).encode(), key=_key(settings.SECRET_KEY), digest_size=9
    ).hexdigest()
    return f'"draft-{head}-{mark}"'


@dataclass(frozen=True, slots=True)
class TagParts:
    kind: str
    tournament_id: int
    player_id: int
    pod_id: int
    seat: int
    language: str


def _number(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else None


def tag_parts(tag: str) -> TagParts | None:
    """The parts of one of our draft tags (not yet checked: ``draft_etag`` recomputes it), else None."""
    if not (tag.startswith('"draft-') and tag.endswith('"')):
        return None
    pieces = tag[7:-1].split("-", 3)
    if len(pieces) != 4 or pieces[0] not in (API, PAGE) or "-" not in pieces[3]:
        return None
    pieces[3:] = pieces[3].rsplit("-", 1)  # a language may hold a dash ("pt-br"); the mark never does
    ids = [_number(x) for x in pieces[2].split(".")]
    tournament_id = _number(pieces[1])
    if len(ids) != 3 or None in ids or tournament_id is None:
        return None
    language = pieces[3]
    if pieces[0] == API and language != NO_LANGUAGE:
        return None
    if pieces[0] == PAGE and known_language(language) is None:
        return None
    player_id, pod_id, seat = ids
    return TagParts(pieces[0], tournament_id, player_id, pod_id, seat, language)  # type: ignore[arg-type]
