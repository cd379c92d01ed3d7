"""Live pages: short polling with ETag/304 over a per-event change counter kept in the database.

Why this and not server-sent events: the venue runs gunicorn (sync workers) + SQLite on one laptop, the
cluster runs several web nodes on PostgreSQL. A counter column (``Tournament.live_version``) is shared by
every worker and node without any pub/sub, and a poll of an unchanged page costs one indexed primary-key
read before answering 304. The counter is bumped with an F() update by the receiver of
``signals.tournament_changed`` (sent after commit), so concurrent bumps never lose one.

Pages everyone shares (pairings, standings, projector) are rendered once per change and language, kept in
the cache gzipped, and served with an ETag. A player's own page ("My event") is small and per person; its
ETag carries the event version plus a digest of what that player sees, so a change elsewhere in a big event
costs that phone a handful of constant queries and still ends in 304 when nothing of theirs changed.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import time
from collections.abc import Callable
from typing import Any

from django.core import signing
from django.core.cache import cache
from django.db.models import F
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.translation import get_language

from . import signals
from .models import Tournament

# How often the pages' script asks again (milliseconds); the bench uses the same figure.
POLL_MS = 4000
# Shared renders are kept this long; a new version makes a new key, so this only bounds memory.
SHARED_TTL = 15 * 60
# Another worker renders the same page: wait this long for its result before rendering ourselves.
RENDER_WAIT_S = 3.0
_MY_EVENT_SALT = "tournaments.live.my-event"


@receiver(signals.tournament_changed, dispatch_uid="tournaments.live.bump")
def _bump_on_change(sender: Any, *, tournament_id: int, **kwargs: Any) -> None:
    live_version_bump(tournament_id=tournament_id)


def live_version_bump(*, tournament_id: int) -> None:
    # F(): two workers bumping at once both count, with no read-modify-write race.
    Tournament.objects.filter(pk=tournament_id).update(live_version=F("live_version") + 1)


_VERSION_SQL = "SELECT live_version FROM tournaments_tournament WHERE id = %s"


def live_version(tournament_id: int) -> int | None:
    """The event's change counter (one primary-key read), or None when there is no such event. Plain SQL:
    this runs on every poll of every phone, and building the ORM query would cost more than running it."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(_VERSION_SQL, [tournament_id])
        row = cursor.fetchone()
    return None if row is None else int(row[0])


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
    version = live_version(tournament_id)
    if version is None:
        return None
    prefix = f'"{page}-{tournament_id}-{version}-'
    for tag in tags:
        if tag.startswith(prefix) and (language is None or tag == f'{prefix}{language}"'):
            return tag
    return None


def personal_etag(*, scope: str, tournament_id: int, version: int, language: str, mark: str) -> str:
    return f'"{scope}-{tournament_id}-{version}-{language}-{mark}"'


def personal_etag_current(
    tags: set[str], *, tournament_id: int, player_id: int, language: str | None, scope: str = "me"
) -> str | None:
    """The one of ``tags`` whose digest still matches what the player sees, else None. The event's version
    in the tag does not matter: results at other tables change it, not this player's page."""
    candidates = [tag for tag in tags if tag.startswith(f'"{scope}-{tournament_id}-')]
    if not candidates:
        return None
    fingerprint = my_event_fingerprint(tournament_id=tournament_id, player_id=player_id)
    if fingerprint is None:
        return None
    mark = digest(fingerprint)
    for tag in candidates:
        head, _sep, tag_mark = tag.strip('"').rpartition("-")
        tag_language = head.split("-", 3)[-1] if head.count("-") >= 3 else ""
        if tag_mark == mark and (language is None or tag_language == language):
            return tag
    return None


def _not_modified(etag: str) -> HttpResponse:
    response = HttpResponseNotModified()
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    response["Vary"] = VARY
    return response


def _accepts_gzip(request: HttpRequest) -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "").lower()


def _page_response(request: HttpRequest, body: bytes, gz: bytes | None, etag: str) -> HttpResponse:
    use_gzip = gz is not None and _accepts_gzip(request)
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

# Counts real renders of shared pages per cache key; tests read it to prove "once per change".
render_count: dict[str, int] = {}


def shared_entry(
    *, tournament_id: int, page: str, render: Callable[[], str]
) -> tuple[str, bytes, bytes | None] | None:
    """(ETag, HTML, gzipped HTML) of a page that looks the same to everyone (per language), rendered at
    most once per change of the event; None when there is no such event."""
    version = live_version(tournament_id)
    if version is None:
        return None
    language = get_language() or "en"
    key = f"live:{tournament_id}:{version}:{language}:{page}"
    entry = cache.get(key)
    if entry is None:
        entry = _render_once(key, render)
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


def _render_once(key: str, render: Callable[[], str]) -> tuple[bytes, bytes | None]:
    """Render under a short cache lock so a burst of phones after a change causes one render, not one each
    (per cache: with the local-memory cache that is once per worker process, with Redis once overall)."""
    lock = key + ":lock"
    deadline = time.monotonic() + RENDER_WAIT_S
    while not cache.add(lock, 1, timeout=30):
        if time.monotonic() > deadline:
            break
        time.sleep(0.02)
        entry = cache.get(key)
        if entry is not None:
            return entry
    try:
        entry = compressed(render())
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
    request: HttpRequest,
    *,
    tournament_id: int,
    player_id: int,
    scope: str,
    render: Callable[[], str],
) -> HttpResponse | None:
    """A player's own page: 304 while the player's fingerprint (one small query) is unchanged, whatever
    happened elsewhere in the event; otherwise ``render()``. None when there is no such player."""
    language = get_language() or "en"
    seen = _client_etags(request)
    current = personal_etag_current(
        seen, tournament_id=tournament_id, player_id=player_id, language=language, scope=scope
    )
    if current is not None:
        return _not_modified(current)
    etag = my_event_etag(tournament_id=tournament_id, player_id=player_id, language=language, scope=scope)
    if etag is None:
        return None
    body, gz = compressed(render())
    return _page_response(request, body, gz, etag)


def my_event_etag(*, tournament_id: int, player_id: int, language: str, scope: str = "me") -> str | None:
    """The ETag of what the player sees now (None when there is no such player in the event)."""
    version = live_version(tournament_id)
    fingerprint = my_event_fingerprint(tournament_id=tournament_id, player_id=player_id)
    if version is None or fingerprint is None:
        return None
    return personal_etag(scope=scope, tournament_id=tournament_id, version=version, language=language,
                         mark=digest(fingerprint))  # fmt: skip


# --- "My event": what one player needs, in a constant number of queries ---------------------------------


_MY_EVENT_FINGERPRINT = """
SELECT p.name, p.dropped_at_round, p.checked_in_at, p.deck_submitted_at, p.no_show,
       t.status, t.check_in_opened_at, t.rounds,
       (SELECT r.id FROM tournaments_round r WHERE r.tournament_id = t.id ORDER BY r.number DESC LIMIT 1),
       (SELECT r.timer_ends_at FROM tournaments_round r WHERE r.tournament_id = t.id ORDER BY r.number DESC LIMIT 1),
       (SELECT SUM(m.version) FROM tournaments_matchseat s JOIN tournaments_match m ON m.id = s.match_id
         WHERE s.player_id = p.id),
       (SELECT COUNT(*) FROM tournaments_matchseat s WHERE s.player_id = p.id),
       (SELECT COUNT(*) FROM tournaments_sideboardchange c WHERE c.player_id = p.id)
  FROM tournaments_player p JOIN tournaments_tournament t ON t.id = p.tournament_id
 WHERE p.id = %s AND p.tournament_id = %s
"""


def my_event_fingerprint(*, tournament_id: int, player_id: int) -> list[Any] | None:
    """What decides whether a player's page changed, in one small query: their entry, the event's state, the
    latest round and its clock, the versions of all their matches (each result change bumps one) and their
    swaps. Changes elsewhere in a big event leave it alone, so those polls still end in 304."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(_MY_EVENT_FINGERPRINT, [player_id, tournament_id])
        row = cursor.fetchone()
    return None if row is None else list(row)


def my_event_state(*, tournament_id: int, player_id: int) -> dict[str, Any] | None:
    """Everything the player's page shows, read with a fixed number of small queries whatever the size of
    the event: the player with the event, the latest round, the seats of their match in it (with the
    players and the match), its games, their own swaps, their record. After a round is posted every phone
    asks for this at once, so each query here is one a 2,000-phone room pays 2,000 times."""
    from .models import Game, Match, MatchSeat, Player, Round, SideboardChange

    player = (
        Player.objects.select_related("tournament__game", "source_deck")
        .filter(pk=player_id, tournament_id=tournament_id)
        .first()
    )
    if player is None:
        return None
    tournament = player.tournament
    round_ = Round.objects.filter(tournament_id=tournament_id).order_by("-number").first()
    match = None
    seats: list[Any] = []
    games: list[Any] = []
    swaps: list[Any] = []
    if round_ is not None:
        # The seats of this player's match in the latest round, in one query (a bye has only theirs).
        seats = list(
            MatchSeat.objects.filter(match__round=round_, match__seats__player=player)
            .select_related("player", "match__reported_by")
            .order_by("seat")
        )
        if seats:
            match = seats[0].match
            for seat in seats:
                seat.match = match  # one Match instance shared by the seats, as the template expects
            if not match.bye:
                games = list(Game.objects.filter(match=match).order_by("number"))
                swaps = list(
                    SideboardChange.objects.filter(match=match, player=player).order_by("game_number", "id")
                )
        if round_.kind == Round.Kind.TOP_CUT:
            round_.match_count = Match.objects.filter(round=round_).count()
    return {
        "tournament": tournament,
        "player": player,
        "round": round_,
        "match": match,
        "seats": seats,
        "games": games,
        "swaps": swaps,
        "record": _record(player),
    }


def _record(player: Any) -> dict[str, int]:
    """Wins, losses and draws of the player's settled matches (pods: placement points are in standings)."""
    from .models import MatchSeat
    from .records import RESULT_STATUSES

    rows = list(
        MatchSeat.objects.filter(match__seats__player=player, match__status__in=RESULT_STATUSES)
        .values_list("match_id", "player_id", "wins", "place", "match__bye")
        .order_by("match_id", "seat")
    )
    by_match: dict[int, list[tuple[int, int, int | None, bool]]] = {}
    for match_id, player_id, wins, place, bye in rows:
        by_match.setdefault(match_id, []).append((player_id, wins, place, bye))
    record = {"wins": 0, "losses": 0, "draws": 0}
    for seats in by_match.values():
        mine = next(s for s in seats if s[0] == player.pk)
        others = [s for s in seats if s[0] != player.pk]
        if mine[3] or not others:
            record["wins"] += 1
        elif mine[2] is not None:  # a pod: first place (shared or not) counts as a win
            record["wins" if mine[2] == 1 else "losses"] += 1
        elif mine[1] > max(o[1] for o in others):
            record["wins"] += 1
        elif mine[1] < max(o[1] for o in others):
            record["losses"] += 1
        else:
            record["draws"] += 1
    return record
