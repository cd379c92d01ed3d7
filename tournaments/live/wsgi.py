"""The unchanged live poll, answered before Django's request machinery.

A room of 2,000 phones polls every few seconds, and almost every poll asks "has anything of mine changed?"
to hear "no" (304). Through Django that "no" costs the whole middleware stack (sessions, locale, CSRF,
CSP…), about a millisecond of a 2-core laptop each time; here it costs a signature check and one
primary-key read (~0.1 ms), so the laptop keeps its CPU for the pages that did change.

Only conditional GETs of the live fragments (My event, pairings, standings, bracket, projector) are looked
at, and besides a 304 only two short notices are answered here: the decision is the very one the views make
(``polls.poll_decide``), and anything else — a changed page, a bad token, an unknown URL, any error — goes on
to Django untouched. A 304 reveals nothing the client does not already hold. The notices: a player's short
new-round notice (``notice.my_event_notice``: their table and opponents, as the public pairings page shows
them) — the seconds after a round is posted are when every phone in the room asks at once — and the clock
notice (``clock``: the round clock, public on the projector) after the clock is started, paused or
extended, when every phone asks at once too.
"""

from __future__ import annotations

import gzip
import logging
import re
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from http.cookies import CookieError, SimpleCookie
from importlib import import_module
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.db import connection

from .clock import CLOCK_HEADER
from .etags import VARY, etags_parse, known_language
from .notice import REFRESH_HEADER, Notice
from .polls import Decision, my_event_token_read, poll_decide
from .standings import page_name

logger = logging.getLogger(__name__)

_MY_EVENT = re.compile(r"^/tournaments/(\d+)/me/live/$")
_SHARED = re.compile(
    r"^/tournaments/(\d+)/(pairings|standings|bracket|projector/(?:pairings|standings|timer))/$"
)

StartResponse = Callable[..., Any]


def _small_number(value: str) -> int | None:
    """``value`` as a number when it is up to six ASCII digits ("²".isdigit() is true but int("²") raises,
    and a traceback per poll filled the log), else None."""
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 6 else None


def shared_page_name(path_kind: str, query: dict[str, list[str]]) -> str | None:
    """The cache/ETag name of a shared page from its URL (as the projector and standings views name them)."""
    if path_kind == "standings":
        if (query.get("all") or [""])[0]:
            return page_name(number=0, mine=None)
        number = _small_number((query.get("page") or ["1"])[0])
        mine = _small_number((query.get("me") or ["0"])[0])
        if number is None or mine is None:
            return None
        return page_name(number=max(number, 1), mine=mine)
    if path_kind == "bracket":
        return "bracket"
    if path_kind == "pairings":
        number = (query.get("round") or [""])[0]
        # ASCII digits only: "²".isdigit() is true but int("²") raises, and a traceback per poll filled the log.
        if number and not (number.isascii() and number.isdigit() and len(number) <= 6):
            return None
        return f"pairings-{int(number) if number and int(number) else 'latest'}"
    return "projector-" + path_kind.split("/", 1)[1]


def connection_close_if_obsolete() -> None:
    """What Django does at the end of a request, minus the health-check ping it arms for the next one: a
    ping before every poll would double the database round trips of the busiest request there is. A
    connection that broke is closed by the error path instead; one past CONN_MAX_AGE (0: every request)
    is closed here."""
    if (
        connection.connection is not None
        and connection.close_at is not None
        and time.monotonic() >= connection.close_at
    ):
        connection.close()


@contextmanager
def fast_path_connection() -> Iterator[None]:
    """The database connection as a fast path before Django leaves it: a broken one closed on an error
    (Django's path, which answers then, reconnects), one past CONN_MAX_AGE closed at the end."""
    try:
        yield
    except Exception:
        connection.close()
        raise
    finally:
        connection_close_if_obsolete()


def _security_headers() -> list[tuple[str, str]]:
    """What Django's middleware adds to every page (this answer skips it): the CSP, no framing."""
    headers = [
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", settings.SECURE_REFERRER_POLICY or "same-origin"),
        ("Cross-Origin-Opener-Policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY or "same-origin"),
    ]
    if settings.CONTENT_SECURITY_POLICY:
        headers.append(("Content-Security-Policy", settings.CONTENT_SECURITY_POLICY))
    return headers


def cookie_value(environ: dict[str, Any], name: str) -> str | None:
    """The request's cookie ``name``, or None (absent, or a Cookie header the parser refuses)."""
    raw = environ.get("HTTP_COOKIE")
    if not raw or name not in raw:
        return None
    try:
        morsel = SimpleCookie(raw).get(name)
    except CookieError:
        return None
    return morsel.value if morsel is not None else None


def not_modified(start_response: StartResponse, etag: str) -> list[bytes]:
    """The fast paths' 304: the tag the phone holds is still current."""
    start_response("304 Not Modified", [("ETag", etag), ("Cache-Control", "no-cache"), ("Vary", VARY)])
    return []


def session_user_id(environ: dict[str, Any]) -> int | None:
    """The signed-in user of the request's session, checked as Django's auth checks it (the session's
    password hash must still match), or None."""
    from types import SimpleNamespace

    from django.contrib.auth import get_user

    key = cookie_value(environ, settings.SESSION_COOKIE_NAME)
    if key is None:
        return None
    store = import_module(settings.SESSION_ENGINE).SessionStore(key)
    user = get_user(SimpleNamespace(session=store))  # type: ignore[arg-type]
    return user.pk if user.is_authenticated else None


def small_answer(
    environ: dict[str, Any],
    start_response: StartResponse,
    body: bytes,
    etag: str,
    extra: list[tuple[str, str]],
) -> list[bytes]:
    """A polled 200 answered before Django (a live notice, a drafting phone's new box): HTML with its tag,
    to be asked again before it is shown from a cache (``answer_before_django`` adds the rest)."""
    headers = [("Content-Type", "text/html; charset=utf-8"), ("ETag", etag), ("Cache-Control", "no-cache"),
               *extra]  # fmt: skip
    return answer_before_django(environ, start_response, "200 OK", body, headers)


def answer_before_django(
    environ: dict[str, Any],
    start_response: StartResponse,
    status: str,
    body: bytes,
    headers: list[tuple[str, str]],
) -> list[bytes]:
    """An answer made before Django, with the headers the site's middleware gives every page (no sniffing,
    no framing, the CSP, the referrer and opener policies, what it varies by), gzipped when the phone accepts
    it and that is smaller (a clock notice of 200 bytes may not be; a new-round notice of 400 is): every
    text answer of the site goes compressed, and in the seconds after a round is posted or a pod passes
    these are most of what crosses the venue's Wi-Fi."""
    headers = [*headers, ("Vary", VARY), ("X-Content-Type-Options", "nosniff"), *_security_headers()]
    if "gzip" in environ.get("HTTP_ACCEPT_ENCODING", "").lower():
        packed = gzip.compress(body, compresslevel=6, mtime=0)
        if len(packed) < len(body):
            body = packed
            headers.append(("Content-Encoding", "gzip"))
    headers.append(("Content-Length", str(len(body))))
    start_response(status, headers)
    return [body]


class LivePolls:
    """WSGI wrapper: 304 for unchanged live polls, everything else to ``app``."""

    def __init__(self, app: Callable[[dict[str, Any], StartResponse], Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET" and environ.get("HTTP_IF_NONE_MATCH"):
            try:
                decision = self.decide(environ)
            except Exception:  # the full path answers (and reports) whatever went wrong here
                logger.exception("live poll fast path failed; answered by Django")
                decision = None
            if decision is not None and decision.etag is not None:
                return not_modified(start_response, decision.etag)
            if decision is not None and decision.clock is not None:
                clock = decision.clock
                return small_answer(environ, start_response, clock.body, clock.etag, [(CLOCK_HEADER, "1")])
            if decision is not None and decision.notice is not None:
                notice: Notice = decision.notice
                return small_answer(
                    environ,
                    start_response,
                    notice.body,
                    notice.etag,
                    [(REFRESH_HEADER, str(notice.refresh_ms))],
                )
        return self.app(environ, start_response)

    def decide(self, environ: dict[str, Any]) -> Decision | None:
        """The poll's decision when the URL is a live fragment of ours, else None (Django answers)."""
        path = environ.get("PATH_INFO", "")
        mine = _MY_EVENT.match(path)
        shared = None if mine else _SHARED.match(path)
        if mine is None and shared is None:
            return None
        query = parse_qs(environ.get("QUERY_STRING", ""))
        tags = etags_parse(environ["HTTP_IF_NONE_MATCH"])
        language = self._language_cookie(environ)
        with fast_path_connection():
            if mine is not None:
                ids = my_event_token_read((query.get("k") or [""])[0])
                if ids is None:
                    return None
                decision = poll_decide(
                    tags, tournament_id=int(mine.group(1)), player_id=ids[0], language=language
                )
                # The notice names a table and opponents: only to the signed-in player the link was made
                # for, never to a bare (7-day) link without that session.
                if decision.notice is not None and session_user_id(environ) != ids[1]:
                    return None
                return decision
            if "fragment" not in query:
                return None
            page = shared_page_name(shared.group(2), query)
            if page is None:
                return None
            return poll_decide(tags, tournament_id=int(shared.group(1)), page=page, language=language)

    @staticmethod
    def _language_cookie(environ: dict[str, Any]) -> str | None:
        """The language the person picked, if any: a poll under another language must not get a 304 for
        the old one. Without the cookie the page's language came from Accept-Language, which a browser
        does not change between polls, so the ETag's own language stands."""
        raw = environ.get("HTTP_COOKIE")
        if not raw or settings.LANGUAGE_COOKIE_NAME not in raw:
            return None
        try:
            morsel = SimpleCookie(raw).get(settings.LANGUAGE_COOKIE_NAME)
        except CookieError:
            return None
        # An unknown language is as good as none: the tag's own (always one of ours) stands.
        return known_language(morsel.value) if morsel is not None else None
