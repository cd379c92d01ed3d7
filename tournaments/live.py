"""Live pages: short polling with ETag/304 over a per-event change counter kept in the database.

Why this and not server-sent events: the venue runs gunicorn (sync workers) + SQLite on one laptop, the
cluster runs several web nodes on PostgreSQL. A counter column (``Tournament.live_version``) is shared by
every worker and node without any pub/sub, and a poll of an unchanged page costs one indexed primary-key
read before answering 304. The counter is bumped with an F() update by the receiver of
``signals.tournament_changed`` (sent after commit), so concurrent bumps never lose one. A second counter,
``pairings_version``, skips the changes the pairings and timer pages do not show (results, swaps,
check-ins), so those big shared pages are not re-rendered for every result of a round.

Unchanged polls are answered before Django's middleware by ``live_wsgi.LivePolls`` with the same
decisions (``shared_etag_current`` / ``personal_poll``); what changed is answered by the views.

Pages everyone shares (pairings, standings, projector) are rendered once per change and language, kept in
the cache gzipped, and served with an ETag. A player's own page ("My event") is small and per person; its
ETag carries a digest of what that player sees (``my_event.my_event_fingerprint``, one query), so a change
elsewhere in a big event still ends in 304 for that phone; what it shows is read by ``my_event``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core import signing
from django.core.cache import cache
from django.db.models import F
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.translation import get_language

from . import signals
from .models import Tournament
from .my_event import FINGERPRINT_ROUND, my_event_fingerprint
from .pollsql import poll_fetch

# How often the pages' script asks again (milliseconds); the bench uses the same figure.
POLL_MS = 4000
# Shared renders are kept this long; a new version makes a new key, so this only bounds memory.
SHARED_TTL = 15 * 60
# Another worker renders the same page: wait this long for its result before rendering ourselves.
RENDER_WAIT_S = 3.0
_MY_EVENT_SALT = "tournaments.live.my-event"


@receiver(signals.tournament_changed, dispatch_uid="tournaments.live.bump")
def _bump_on_change(sender: Any, *, tournament_id: int, **kwargs: Any) -> None:
    live_version_bump(tournament_id=tournament_id, what=kwargs.get("what", ""))


# Changes that the pairings and timer pages do not show: a result comes in every few seconds during a
# round, and re-rendering a 2,000-name pairings page for each would be most of the laptop's work.
NOT_ON_PAIRINGS = frozenset({"result", "sideboard", "check_in", "decks"})
# Shared pages keyed by Tournament.pairings_version; every other page by live_version.
_PAIRINGS_PAGES = ("pairings-", "projector-pairings", "projector-timer")


def live_version_bump(*, tournament_id: int, what: str = "") -> None:
    # F(): two workers bumping at once both count, with no read-modify-write race.
    counters = {"live_version": F("live_version") + 1}
    if what not in NOT_ON_PAIRINGS:
        counters["pairings_version"] = F("pairings_version") + 1
    Tournament.objects.filter(pk=tournament_id).update(**counters)


_VERSION_SQL = "SELECT live_version, pairings_version FROM tournaments_tournament WHERE id = %s"


def _versions(tournament_id: int) -> tuple[int, int] | None:
    """The event's change counters (one primary-key read), or None when there is no such event. Plain SQL:
    this runs on every poll of every phone, and building the ORM query would cost more than running it."""
    rows = poll_fetch(_VERSION_SQL, [tournament_id])
    return None if not rows else (int(rows[0][0]), int(rows[0][1]))


def page_version(tournament_id: int, page: str) -> int | None:
    """The counter a shared page's content follows: the pairings and timer pages ignore results."""
    versions = _versions(tournament_id)
    if versions is None:
        return None
    return versions[1] if page.startswith(_PAIRINGS_PAGES) else versions[0]


# --- ETags and responses --------------------------------------------------------------------------------

VARY = "Accept-Encoding, Cookie, Accept-Language"


def etags_parse(header: str) -> set[str]:
    """The entity tags of an If-None-Match header (weak or strong: a 304 compares them weakly)."""
    return {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}


def _client_etags(request: HttpRequest) -> set[str]:
    return etags_parse(request.headers.get("If-None-Match", ""))


def shared_etag(*, page: str, tournament_id: int, version: int, language: str) -> str:
    return f'"{page}-{tournament_id}-{version}-{language}"'


def shared_etag_current(tags: set[str], *, tournament_id: int, page: str, language: str | None) -> str | None:
    """The one of ``tags`` that still names the current version of a shared page, else None.
    ``language`` None accepts the tag's own language (the fast path, when no cookie picks one)."""
    version = page_version(tournament_id, page)
    if version is None:
        return None
    prefix = f'"{page}-{tournament_id}-{version}-'
    for tag in tags:
        if tag.startswith(prefix) and (language is None or tag == f'{prefix}{language}"'):
            return tag
    return None


# A player's page ETag: "me-<event>-<latest round id>-<language>-<digest of what they see>". Its digest is
# NOTICE while the phone shows the short new-round notice (see my_event_notice).
NOTICE = "notice"


@dataclass(frozen=True, slots=True)
class PersonalPoll:
    """What a conditional poll of a player's page gets: ``current`` (304 with ``etag``), ``new_round`` (the
    phone last saw an earlier round: the short notice answers), or ``changed`` (a full render)."""

    outcome: str
    etag: str = ""
    round_id: int = 0
    language: str = ""  # the language of the phone's copy (its tag's)


def personal_etag(*, tournament_id: int, round_id: int, language: str, mark: str) -> str:
    return f'"me-{tournament_id}-{round_id}-{language}-{mark}"'


def _personal_tag_parts(tag: str, tournament_id: int) -> tuple[int, str, str] | None:
    """(round id, language, digest) of one of our player-page tags for this event, else None."""
    prefix = f'"me-{tournament_id}-'
    if not tag.startswith(prefix) or not tag.endswith('"'):
        return None
    round_part, _sep, rest = tag[len(prefix) : -1].partition("-")
    language, _sep, mark = rest.rpartition("-")
    if not round_part.isdigit() or not language or not mark:
        return None
    return int(round_part), language, mark


def personal_poll(
    tags: set[str], *, tournament_id: int, player_id: int, language: str | None
) -> PersonalPoll:
    """Decide a player's poll with one query (their fingerprint). A result at another table leaves it
    ``current``; a phone still showing an earlier round gets ``new_round``. ``language`` None accepts the
    tag's own language (the fast path, when no cookie picks one)."""
    parts = [(tag, p) for tag in tags if (p := _personal_tag_parts(tag, tournament_id)) is not None]
    if not parts:
        return PersonalPoll("changed")
    fingerprint = my_event_fingerprint(tournament_id=tournament_id, player_id=player_id)
    if fingerprint is None:
        return PersonalPoll("changed")
    mark, round_id = digest(fingerprint), int(fingerprint[FINGERPRINT_ROUND] or 0)
    for tag, (tag_round, tag_language, tag_mark) in parts:
        if language is not None and tag_language != language:
            continue
        if tag_mark == mark or (tag_mark == NOTICE and tag_round == round_id):
            # A phone showing the notice fetches its full page by itself, spread over a few seconds.
            return PersonalPoll("current", tag, round_id)
        if tag_round != round_id and round_id:
            notice = personal_etag(
                tournament_id=tournament_id, round_id=round_id, language=tag_language, mark=NOTICE
            )
            return PersonalPoll("new_round", notice, round_id, tag_language)
    return PersonalPoll("changed", round_id=round_id)


def _not_modified(etag: str) -> HttpResponse:
    response = HttpResponseNotModified()
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    response["Vary"] = VARY
    return response


def _accepts_gzip(request: HttpRequest) -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "").lower()


def _page_response(request: HttpRequest, body: bytes | None, gz: bytes | None, etag: str) -> HttpResponse:
    use_gzip = gz is not None and _accepts_gzip(request)
    if not use_gzip and body is None:
        body = gzip.decompress(gz or b"")
    response = HttpResponse(gz if use_gzip else body, content_type="text/html; charset=utf-8")
    if use_gzip:
        response["Content-Encoding"] = "gzip"
    response["ETag"] = etag
    # Always revalidate: the ETag makes that cheap, and a phone never shows a stale round from its cache.
    response["Cache-Control"] = "no-cache"
    response["Vary"] = VARY
    return response


def compressed(body: str) -> tuple[bytes, bytes | None]:
    raw = body.encode()
    # Tiny bodies gain nothing from gzip; mtime=0 keeps the bytes (and so caches) reproducible.
    return raw, gzip.compress(raw, compresslevel=6, mtime=0) if len(raw) > 512 else None


# --- pages everyone shares ------------------------------------------------------------------------------


def entry_html(entry: tuple[str, bytes | None, bytes | None]) -> str:
    """The HTML of a shared entry (ETag, HTML or None, gzipped HTML or None)."""
    raw = entry[1] if entry[1] is not None else gzip.decompress(entry[2] or b"")
    return raw.decode()


# Counts real renders of shared pages per cache key; tests read it to prove "once per change".
render_count: dict[str, int] = {}


def shared_entry(
    *, tournament_id: int, page: str, render: Callable[[], str]
) -> tuple[str, bytes, bytes | None] | None:
    """(ETag, HTML, gzipped HTML) of a page that looks the same to everyone (per language), rendered at
    most once per change it shows; None when there is no such event.

    While another worker renders a new version, the previous one is served at once with its own (older)
    ETag rather than waited for: after a round is posted a 2,000-name page takes a while to render, and
    workers waiting on it would stall every phone in the room. Its next poll gets the new version."""
    version = page_version(tournament_id, page)
    if version is None:
        return None
    language = get_language() or "en"
    key = f"live:{tournament_id}:{version}:{language}:{page}"
    latest = f"live:{tournament_id}:{language}:{page}:latest"
    entry = cache.get(key)
    if entry is None:
        entry = _render_once(key, render, wait=False)
        if entry is None:
            stale = cache.get(latest)
            if stale is not None:
                return shared_etag(
                    page=page, tournament_id=tournament_id, version=stale[0], language=language
                ), *stale[1:]
            entry = _render_once(key, render, wait=True)
        cache.set(latest, (version, *entry), SHARED_TTL)
    return shared_etag(page=page, tournament_id=tournament_id, version=version, language=language), *entry


def shared_page(
    request: HttpRequest, *, tournament_id: int, page: str, render: Callable[[], str]
) -> HttpResponse | None:
    """Serve a shared page: 304 on an unchanged event (one query), else from the cache, gzipped."""
    current = shared_etag_current(
        _client_etags(request), tournament_id=tournament_id, page=page, language=get_language() or "en"
    )
    if current is not None:
        return _not_modified(current)
    entry = shared_entry(tournament_id=tournament_id, page=page, render=render)
    if entry is None:
        return None
    return _page_response(request, entry[1], entry[2], entry[0])


def _render_once(key: str, render: Callable[[], str], *, wait: bool) -> tuple[bytes, bytes | None] | None:
    """Render under a short cache lock so a burst of phones after a change causes one render, not one each
    (per cache: once overall with the venue's file cache or Redis; once per process with local memory).
    When another worker holds the lock: None at once, or (``wait``) its result, waited for up to
    RENDER_WAIT_S before rendering anyway."""
    lock = key + ":lock"
    deadline = time.monotonic() + RENDER_WAIT_S
    while not cache.add(lock, 1, timeout=30):
        if not wait:
            return None
        if time.monotonic() > deadline:
            break
        time.sleep(0.02)
        entry = cache.get(key)
        if entry is not None:
            return entry
    try:
        raw, gz = compressed(render())
        # Kept gzipped only (a tenth of the size): every phone of a 2,000-player room fetches the
        # 2,000-name page from the cache after each round, Redis sends it over the network each time.
        entry = (None, gz) if gz is not None else (raw, None)
        render_count[key] = render_count.get(key, 0) + 1
        cache.set(key, entry, SHARED_TTL)
    finally:
        cache.delete(lock)
    return entry


# --- a player's own page --------------------------------------------------------------------------------


def my_event_token(*, player_id: int, user_id: int) -> str:
    """A signed handle for the player's live fragment: an unchanged poll is answered without touching the
    session (no session or user query), and the token alone never shows anything (a 200 checks the user)."""
    return signing.dumps([player_id, user_id], salt=_MY_EVENT_SALT, compress=False)


def my_event_token_read(token: str) -> tuple[int, int] | None:
    try:
        player_id, user_id = signing.loads(token, salt=_MY_EVENT_SALT, max_age=7 * 24 * 3600)
        return int(player_id), int(user_id)
    except (signing.BadSignature, TypeError, ValueError):
        return None


def digest(data: Any) -> str:
    """A short stable hash of what a page shows (JSON of plain values)."""
    raw = json.dumps(data, sort_keys=True, default=str, separators=(",", ":")).encode()
    return hashlib.blake2b(raw, digest_size=8).hexdigest()


def personal_page(
    request: HttpRequest, *, tournament_id: int, player_id: int, render: Callable[[], str]
) -> HttpResponse | None:
    """A player's own page: 304 while the player's fingerprint (one small query) is unchanged, whatever
    happened elsewhere in the event; the short notice when a new round was posted since the phone's
    copy; otherwise ``render()``. None when there is no such player."""
    language = get_language() or "en"
    poll = personal_poll(
        _client_etags(request), tournament_id=tournament_id, player_id=player_id, language=language
    )
    if poll.outcome == "current":
        return _not_modified(poll.etag)
    if poll.outcome == "new_round":
        notice = my_event_notice(tournament_id=tournament_id, player_id=player_id, language=language)
        if notice is not None:
            response = _page_response(request, notice.body, None, notice.etag)
            response[REFRESH_HEADER] = str(notice.refresh_ms)
            return response
    etag = my_event_etag(tournament_id=tournament_id, player_id=player_id, language=language)
    if etag is None:
        return None
    body, gz = compressed(render())
    return _page_response(request, body, gz, etag)


def my_event_etag(*, tournament_id: int, player_id: int, language: str) -> str | None:
    """The ETag of what the player sees now (None when there is no such player in the event)."""
    fingerprint = my_event_fingerprint(tournament_id=tournament_id, player_id=player_id)
    if fingerprint is None:
        return None
    return personal_etag(tournament_id=tournament_id, round_id=int(fingerprint[FINGERPRINT_ROUND] or 0),
                         language=language, mark=digest(fingerprint))  # fmt: skip


# --- the new-round notice -------------------------------------------------------------------------------

# The phone fetches its full page this many milliseconds after the notice (header read by live.js).
REFRESH_HEADER = "X-Live-Refresh"
# A round's full pages are spread over up to this long: 2,000 full renders (~10 ms of a laptop core each
# through gunicorn) in the seconds after a round is posted would take a 2-core laptop well past the 5 s in
# which every phone must show its new table. Nobody reports a game in a round's first minute, so a
# 1,000-table round spreads over a minute (a third of a core), a 16-table one over a second.
REFRESH_SPREAD_MAX_MS = 60_000
REFRESH_MS_PER_MATCH = 60


@dataclass(frozen=True, slots=True)
class Notice:
    etag: str
    body: bytes
    refresh_ms: int


def my_event_notice(*, tournament_id: int, player_id: int, language: str) -> Notice | None:
    """The short "new round" notice of a player's page: the round, their table and opponents (what the
    public pairings page shows), rendered with two small queries and a tiny template — what a phone needs
    within seconds of a round being posted. The full page (result forms, deck …) follows after a delay
    spread by the round's size, so a 2,000-phone room does not ask for 2,000 full renders at once."""
    from django.template.loader import render_to_string
    from django.utils import translation

    from .my_event import my_event_pairing

    pairing = my_event_pairing(tournament_id=tournament_id, player_id=player_id)
    if pairing is None:
        return None
    with translation.override(language):
        body = render_to_string("tournaments/_my_event_notice.html", pairing).encode()
    spread = min(REFRESH_SPREAD_MAX_MS, REFRESH_MS_PER_MATCH * pairing["round"].match_count)
    etag = personal_etag(
        tournament_id=tournament_id, round_id=pairing["round"].pk, language=language, mark=NOTICE
    )
    return Notice(etag=etag, body=body, refresh_ms=random.randint(0, spread))
