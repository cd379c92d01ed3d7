"""The draft poll, answered before Django's request machinery.

2,000 phones drafting poll every second or two, and nearly every poll hears "your pack has not come yet"
(304). Through Django and DRF that answer costs several milliseconds of a 2-core laptop; here it costs the
sign-in check (the session with its password-hash check, or the API token, as the API checks them) and one
query (limited/polls.py). When the pod passes, every phone of it asks again within a second and this time the
box has changed: the page's poll gets its new box here too, rendered by the code the view uses
(limited/phone_box.py), in the language Django's LocaleMiddleware would pick, with the headers the site's
middleware gives a page (tournaments/live/wsgi.py ``small_answer``) — without the middleware stack, URL
resolving and Django's session and user loading, which were a third of that answer's cost.

Only conditional GETs of ``/api/tournaments/<id>/draft/me/`` and ``/tournaments/<id>/draft/?fragment=1`` are
looked at, for a tag minted for a seat of the signed-in player (the tag is keyed with the secret and names the
player, so a tag for another seat never matches). Everything else goes on to Django untouched: the API's
changed answer, a pick timer that ran out (the poll runs it, so a sleeping phone never stalls its pod), a
finished pod whose pool is not registered yet, no or another sign-in, a player without a seat, any error.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.http import HttpRequest, parse_cookie
from django.utils import timezone, translation
from django.utils.crypto import constant_time_compare

from accounts.backends import LockoutModelBackend
from accounts.models import ApiToken
from accounts.tokens import token_digest
from config.sessions import SESSION_SQL
from tournaments.live.etags import etags_parse, known_language
from tournaments.live.sql import poll_fetch
from tournaments.live.wsgi import (
    connection_close_if_obsolete,
    cookie_value,
    not_modified,
    session_user_id,
    small_answer,
)

from . import services
from .lookups import EVENT, PLAYER
from .phone_box import phone_box
from .polls import API, NO_LANGUAGE, PAGE, PollState, TagParts, draft_etag, due, poll_state, tag_parts

logger = logging.getLogger(__name__)

_API = re.compile(r"^/api/tournaments/(\d{1,12})/draft/me/$")
_PAGE = re.compile(r"^/tournaments/(\d{1,12})/draft/$")

StartResponse = Callable[..., Any]


def _token_user_id(environ: dict[str, Any]) -> int | None:
    """The active account of an ``Authorization: Token <key>`` header, as accounts.tokens checks it."""
    words = environ.get("HTTP_AUTHORIZATION", "").split()
    if len(words) != 2 or words[0].lower() != "token":
        return None
    found = (
        ApiToken.objects.filter(digest=token_digest(words[1]), user__is_active=True)
        .values_list("user_id", flat=True)
        .first()
    )
    return found


_DB_SESSIONS = ("django.contrib.sessions.backends.db", "config.sessions")


@dataclass(frozen=True, slots=True)
class SessionClaim:
    """A database session naming a user signed in through a backend that finds users as Django's
    ModelBackend does: the user and the password hash the session was made under, checked against the
    account in the poll's own query (``_still``), as ``django.contrib.auth.get_user`` checks them."""

    user_id: int
    auth_hash: str


@lru_cache(maxsize=8)
def _model_backend(path: str) -> bool:
    """Whether the backend named in a session finds its users as ModelBackend does (by primary key, active
    accounts only) — the only ones checked here; any other goes through Django's own get_user."""
    if path not in settings.AUTHENTICATION_BACKENDS:
        return False
    return getattr(load_backend(path).get_user, "__func__", None) in (
        ModelBackend.get_user,
        LockoutModelBackend.get_user,
    )


def _session_claim(environ: dict[str, Any]) -> SessionClaim | int | None:
    """The session's sign-in: a SessionClaim to check in the poll's query (the venue's database sessions,
    two short statements), else the user id as Django's get_user finds it (other session engines or
    backends), else None (no session, or nobody signed in)."""
    if settings.SESSION_ENGINE not in _DB_SESSIONS or settings.SECRET_KEY_FALLBACKS:
        return session_user_id(environ)  # not the plain case: Django's own check, whatever it costs
    key = cookie_value(environ, settings.SESSION_COOKIE_NAME)
    if not key or len(key) < 8:
        return None
    rows = poll_fetch(SESSION_SQL, [key, connection.ops.adapt_datetimefield_value(timezone.now())])
    if not rows:
        return None
    user_id, backend, auth_hash = _session_fields(rows[0][0])
    if user_id is None or backend is None:
        return None
    if not auth_hash or not _model_backend(backend):
        return session_user_id(environ)
    try:
        return SessionClaim(int(user_id), str(auth_hash))
    except (TypeError, ValueError):
        return None


@lru_cache(maxsize=4096)
def _session_fields(session_data: str) -> tuple[Any, Any, Any]:
    """The sign-in a session's stored data names. A pure function of the data and the secret (a signature
    that does not hold decodes to nothing), so each phone's session is checked and unpacked once per worker,
    not on every poll; expiry is the query's, the password and the account's state the poll's own check."""
    data = SessionStore().decode(session_data)  # {} when the signature does not hold
    return data.get(SESSION_KEY), data.get(BACKEND_SESSION_KEY), data.get(HASH_SESSION_KEY)


def _language_cookie(environ: dict[str, Any]) -> str | None:
    value = cookie_value(environ, settings.LANGUAGE_COOKIE_NAME)
    return known_language(value) if value is not None else None


def _language_request(environ: dict[str, Any]) -> HttpRequest:
    """What Django's language choice reads of a request (its cookies and headers), parsed as Django parses
    them, for ``get_language_from_request``: the cookie the person chose, else Accept-Language, else the
    site's language — the LocaleMiddleware's order."""
    request = HttpRequest()
    request.META = environ
    request.COOKIES = parse_cookie(environ.get("HTTP_COOKIE", ""))
    return request


@lru_cache(maxsize=4096)
def _auth_hash(password: str) -> str:
    """The session hash of a password (an HMAC of the stored hash): the same stored hash gives the same one."""
    return get_user_model()(password=password).get_session_auth_hash()


@dataclass(frozen=True, slots=True)
class Answer:
    """What the fast path answers: a 304 for ``etag`` (no ``body``), or the changed box with its tag."""

    etag: str
    body: bytes | None = None
    language: str = ""


class DraftPolls:
    """WSGI wrapper: 304 for unchanged draft polls, the new box for a page's changed poll, everything else to
    ``app``."""

    def __init__(self, app: Callable[[dict[str, Any], StartResponse], Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET" and environ.get("HTTP_IF_NONE_MATCH"):
            try:
                answer = self.decide(environ)
            except Exception:  # Django answers (and reports) whatever went wrong here
                logger.exception("draft poll fast path failed; answered by Django")
                answer = None
            if answer is not None and answer.body is None:
                return not_modified(start_response, answer.etag)
            if answer is not None and answer.body is not None:
                return small_answer(
                    environ, start_response, answer.body, answer.etag, [("Content-Language", answer.language)]
                )
        return self.app(environ, start_response)

    def current(self, environ: dict[str, Any]) -> str | None:
        """The phone's tag when it is still current for the signed-in player, else None."""
        answer = self.decide(environ, changed=False)
        return answer.etag if answer is not None and answer.body is None else None

    def decide(self, environ: dict[str, Any], *, changed: bool = True) -> Answer | None:
        """A 304 when the phone's tag is still current for the signed-in player; with ``changed``, a page's
        poll whose seat moved on gets its new box (``_changed``); else None (Django answers)."""
        path = environ.get("PATH_INFO", "")
        found, kind = _API.match(path), API
        if found is None:
            found, kind = _PAGE.match(path), PAGE
            if found is None or not (parse_qs(environ.get("QUERY_STRING", "")).get("fragment") or [""])[0]:
                return None
        tournament_id = int(found.group(1))
        held = etags_parse(environ["HTTP_IF_NONE_MATCH"])
        tags = [
            (tag, parts)
            for tag in held
            if (parts := tag_parts(tag)) is not None
            and parts.kind == kind
            and parts.tournament_id == tournament_id
        ]
        if not tags:
            return None
        chosen = _language_cookie(environ) if kind == PAGE else None
        try:
            who = self._signed_in(environ, kind)
            if who is None:
                return None
            mine: PollState | None = None
            for tag, parts in tags:
                state = self._owned(parts, who)
                if state is None:
                    continue
                mine = state
                if chosen is not None and parts.language != chosen:
                    continue  # the person switched language: the copy in the old one is not current
                if self._still(tag, parts, state):
                    return Answer(tag)
            settled = mine is not None and not due(mine) and not (mine.finished and mine.pool_missing)
            if changed and kind == PAGE and settled:
                return self._changed(environ, tournament_id, who, frozenset(held))
            return None
        except Exception:
            connection.close()  # a broken connection: Django's path reconnects
            raise
        finally:
            connection_close_if_obsolete()

    @staticmethod
    def _changed(
        environ: dict[str, Any], tournament_id: int, who: SessionClaim | int, held: frozenset[str]
    ) -> Answer | None:
        """The page's box for the seat as it is now, as the view renders it (limited/phone_box.py), in the
        language Django's LocaleMiddleware would pick. Read only: a timer that ran out or a pool to register
        (the two writes a poll can make) were left to Django by the caller."""
        user_id = who.user_id if isinstance(who, SessionClaim) else who
        event = EVENT.first(tournament_id)
        player = PLAYER.first(tournament_id, user_id) if event is not None else None
        if event is None or player is None:
            return None
        language = translation.get_language_from_request(_language_request(environ))
        with translation.override(language):
            polled = services.draft_me_polled(
                event=event, player=player, kind=PAGE, language=language, tags=held
            )
            if polled.tag is None or polled.current:
                return Answer(polled.tag) if polled.tag else None
            if polled.state is None:
                return None
            return Answer(polled.tag, phone_box(event, player, polled).encode(), language)

    @staticmethod
    def _owned(parts: TagParts, who: SessionClaim | int) -> PollState | None:
        """The state the tag names when its player is the signed-in account (as get_user checks a session:
        active, and the password hash the session was made under), else None."""
        state = poll_state(
            tournament_id=parts.tournament_id, player_id=parts.player_id, pod_id=parts.pod_id, seat=parts.seat
        )
        if state is None:
            return None
        if isinstance(who, SessionClaim):
            # A mismatch goes to Django, which flushes the session (a password change signs every other
            # session out).
            if state.user_id != who.user_id or not state.active:
                return None
            if not constant_time_compare(who.auth_hash, _auth_hash(state.password)):
                return None
        elif state.user_id != who:
            return None
        return state

    @staticmethod
    def _signed_in(environ: dict[str, Any], kind: str) -> SessionClaim | int | None:
        """The signed-in account as the view finds it: the session (DRF checks it first), then for the API
        an API token."""
        who = _session_claim(environ)
        if who is None and kind == API and environ.get("HTTP_AUTHORIZATION"):
            who = _token_user_id(environ)
        return who

    @staticmethod
    def _still(tag: str, parts: TagParts, state: PollState) -> bool:
        if due(state):
            return False
        if state.finished and state.pool_missing:
            return False  # Django registers the pod's pools (a worker killed right after the last pick)
        language = NO_LANGUAGE if parts.kind == API else parts.language
        current = draft_etag(
            kind=parts.kind, tournament_id=parts.tournament_id, player_id=parts.player_id,
            pod_id=parts.pod_id, seat=parts.seat, language=language, state=state,
        )  # fmt: skip
        return current == tag
