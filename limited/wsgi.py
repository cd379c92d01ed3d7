"""The unchanged draft poll, answered before Django's request machinery.

2,000 phones drafting poll every second or two, and nearly every poll hears "your pack has not come yet"
(304). Through Django and DRF that answer costs several milliseconds of a 2-core laptop; here it costs the
sign-in check (the session with its password-hash check, or the API token, as the API checks them) and one
query (limited/polls.py).

Only conditional GETs of ``/api/tournaments/<id>/draft/me/`` and ``/tournaments/<id>/draft/?fragment=1`` are
looked at, and the only answer given here is a 304 for a tag that is current, minted for a seat of the
signed-in player (the tag is keyed with the secret and names the player, so a tag for another seat never
matches). Everything else goes on to Django untouched: a changed seat, a pick timer that ran out (the poll
runs it, so a sleeping phone never stalls its pod), a finished pod whose pool is not registered yet, no or
another sign-in, another language, any error.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.db import connection

from accounts.models import ApiToken
from accounts.tokens import token_digest
from tournaments.live.etags import VARY, etags_parse, known_language
from tournaments.live.wsgi import _close_if_obsolete, _session_user_id

from .polls import API, NO_LANGUAGE, PAGE, TagParts, draft_etag, due, poll_state, tag_parts

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


def _language_cookie(environ: dict[str, Any]) -> str | None:
    raw = environ.get("HTTP_COOKIE")
    if not raw or settings.LANGUAGE_COOKIE_NAME not in raw:
        return None
    try:
        morsel = SimpleCookie(raw).get(settings.LANGUAGE_COOKIE_NAME)
    except CookieError:
        return None
    return known_language(morsel.value) if morsel is not None else None


class DraftPolls:
    """WSGI wrapper: 304 for unchanged draft polls, everything else to ``app``."""

    def __init__(self, app: Callable[[dict[str, Any], StartResponse], Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET" and environ.get("HTTP_IF_NONE_MATCH"):
            try:
                etag = self.current(environ)
            except Exception:  # Django answers (and reports) whatever went wrong here
                logger.exception("draft poll fast path failed; answered by Django")
                etag = None
            if etag is not None:
                start_response(
                    "304 Not Modified", [("ETag", etag), ("Cache-Control", "no-cache"), ("Vary", VARY)]
                )
                return []
        return self.app(environ, start_response)

    def current(self, environ: dict[str, Any]) -> str | None:
        """The phone's tag when it is still current for the signed-in player, else None (Django answers)."""
        path = environ.get("PATH_INFO", "")
        found, kind = _API.match(path), API
        if found is None:
            found, kind = _PAGE.match(path), PAGE
            if found is None or not (parse_qs(environ.get("QUERY_STRING", "")).get("fragment") or [""])[0]:
                return None
        tournament_id = int(found.group(1))
        tags = [
            (tag, parts)
            for tag in etags_parse(environ["HTTP_IF_NONE_MATCH"])
            if (parts := tag_parts(tag)) is not None
            and parts.kind == kind
            and parts.tournament_id == tournament_id
        ]
        if not tags:
            return None
        chosen = _language_cookie(environ) if kind == PAGE else None
        try:
            user_id = self._user_id(environ, kind)
            if user_id is None:
                return None
            for tag, parts in tags:
                if chosen is not None and parts.language != chosen:
                    continue  # the person switched language: the copy in the old one is not current
                if self._still(tag, parts, user_id):
                    return tag
            return None
        except Exception:
            connection.close()  # a broken connection: Django's path reconnects
            raise
        finally:
            _close_if_obsolete()

    @staticmethod
    def _user_id(environ: dict[str, Any], kind: str) -> int | None:
        """The signed-in account as the view finds it: the session (DRF checks it first), then for the API
        an API token."""
        user_id = _session_user_id(environ)
        if user_id is None and kind == API and environ.get("HTTP_AUTHORIZATION"):
            user_id = _token_user_id(environ)
        return user_id

    @staticmethod
    def _still(tag: str, parts: TagParts, user_id: int) -> bool:
        state = poll_state(
            tournament_id=parts.tournament_id, player_id=parts.player_id, pod_id=parts.pod_id, seat=parts.seat
        )
        if state is None or state.user_id != user_id or due(state):
            return False
        if state.finished and state.pool_missing:
            return False  # Django registers the pod's pools (a worker killed right after the last pick)
        language = NO_LANGUAGE if parts.kind == API else parts.language
        current = draft_etag(
            kind=parts.kind, tournament_id=parts.tournament_id, player_id=parts.player_id,
            pod_id=parts.pod_id, seat=parts.seat, language=language, state=state,
        )  # fmt: skip
        return current == tag
