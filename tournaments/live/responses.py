"""The live pages' HTTP answers for the views: 304 when the poll is decided current, the new-round notice,
or the page itself (gzipped when the client takes it) with its ETag."""

from __future__ import annotations

import gzip
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.translation import get_language

from .clock import CLOCK_HEADER, ClockNotice
from .etags import VARY, etags_parse
from .notice import REFRESH_HEADER
from .polls import my_event_etag, poll_decide
from .shared import Entry, compressed, shared_entry

# How often the pages' script asks again (milliseconds); the bench uses the same figure.
POLL_MS = 4000


def _client_etags(request: HttpRequest) -> set[str]:
    return etags_parse(request.headers.get("If-None-Match", ""))


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


def _clock_response(request: HttpRequest, clock: ClockNotice) -> HttpResponse:
    """Only the round clock changed: its fragment, which live.js swaps into the page's clock element."""
    response = _page_response(request, clock.body, None, clock.etag)
    response[CLOCK_HEADER] = "1"
    return response


def shared_page(
    request: HttpRequest, *, tournament_id: int, page: str, render: Callable[[], str]
) -> HttpResponse | None:
    """Serve a shared page: 304 on an unchanged event (one query), else from the cache, gzipped."""
    return fragment_page(
        request, tournament_id=tournament_id, page=page,
        entry=lambda: shared_entry(tournament_id=tournament_id, page=page, render=render),
    )  # fmt: skip


def fragment_page(
    request: HttpRequest, *, tournament_id: int, page: str, entry: Callable[[], Entry | None]
) -> HttpResponse | None:
    """Serve a fragment named ``page`` (its tags follow that page's counter): 304 while current, else
    ``entry()`` — (ETag, HTML, gzipped HTML) — and 304 still when that is the copy the client holds (the
    previous version, served while another worker renders the new one). None when ``entry()`` is."""
    tags = _client_etags(request)
    decision = poll_decide(tags, tournament_id=tournament_id, page=page, language=get_language() or "en")
    if decision.etag is not None:
        return _not_modified(decision.etag)
    if decision.clock is not None:
        return _clock_response(request, decision.clock)
    found = entry()
    if found is None:
        return None
    if found[0] in tags:
        return _not_modified(found[0])
    return _page_response(request, found[1], found[2], found[0])


def personal_page(
    request: HttpRequest, *, tournament_id: int, player_id: int, render: Callable[[], str],
    may_see: Callable[[], bool] = lambda: True,
) -> HttpResponse | None:  # fmt: skip
    """A player's own page: 304 while the player's fingerprint (one small query) is unchanged, whatever
    happened elsewhere in the event; the clock notice when only the round clock moved; the short notice
    when a new round was posted since the phone's copy, to its own signed-in player only (``may_see``: the link alone is not enough); otherwise
    ``render()``. None when there is no such player."""
    language = get_language() or "en"
    decision = poll_decide(
        _client_etags(request), tournament_id=tournament_id, player_id=player_id, language=language
    )
    if decision.etag is not None:
        return _not_modified(decision.etag)
    if decision.clock is not None:
        return _clock_response(request, decision.clock)
    if decision.notice is not None and may_see():
        response = _page_response(request, decision.notice.body, None, decision.notice.etag)
        response[REFRESH_HEADER] = str(decision.notice.refresh_ms)
        return response
    etag = my_event_etag(tournament_id=tournament_id, player_id=player_id, language=language)
    if etag is None:
        return None
    body, gz = compressed(render())
    return _page_response(request, body, gz, etag)
