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
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, parse_cookie
from django.utils import translation

from tournaments.live.etags import etags_parse, known_language
from tournaments.live.wsgi import (
    cookie_value,
    fast_path_connection,
    not_modified,
    small_answer,
)

from . import services
from .fast_signin import SessionClaim, claim_holds, session_claim, token_user_id
from .lookups import EVENT, PLAYER
from .phone_box import phone_box
from .polls import API, NO_LANGUAGE, PAGE, PollState, TagParts, draft_etag, due, poll_state, tag_parts

logger = logging.getLogger(__name__)

_API = re.compile(r"^/api/tournaments/(\d{1,12})/draft/me/$")
_PAGE = re.compile(r"^/tournaments/(\d{1,12})/draft/$")

StartResponse = Callable[..., Any]


def _language_cookie(environ: dict[str, Any]) -> str | None:
    value = cookie_value(environ, settings.LANGUAGE_COOKIE_NAME)
    return known_language(value) if value is not None else None


def _language_request(environ: dict[str, Any]) -> HttpRequest:
    """What Django's host check and language choice read of a request (its headers and cookies), parsed as
    Django parses them: ``get_host`` (ALLOWED_HOSTS) and ``get_language_from_request`` (the cookie the
    person chose, else Accept-Language, else the site's language — the LocaleMiddleware's order)."""
    request = HttpRequest()
    request.META = environ
    request.COOKIES = parse_cookie(environ.get("HTTP_COOKIE", ""))
    return request


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

    def decide(self, environ: dict[str, Any]) -> Answer | None:
        """A 304 when the phone's tag is still current for the signed-in player; a page's poll whose seat
        moved on gets its new box (``_changed``); else None (Django answers)."""
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
        with fast_path_connection():
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
            if kind == PAGE and settled:
                return self._changed(environ, tournament_id, who, frozenset(held))
            return None

    @staticmethod
    def _changed(
        environ: dict[str, Any], tournament_id: int, who: SessionClaim | int, held: frozenset[str]
    ) -> Answer | None:
        """The page's box for the seat as it is now, as the view renders it (limited/phone_box.py), in the
        language Django's LocaleMiddleware would pick. A timer that ran out or a pool to register (the two writes
        a poll can make) were left to Django by the caller; one that comes due in between is run by the service
        called here, as the view would run it (the same call, idempotent)."""
        user_id = who.user_id if isinstance(who, SessionClaim) else who
        event = EVENT.first(tournament_id)
        player = PLAYER.first(tournament_id, user_id) if event is not None else None
        if event is None or player is None:
            return None
        request = _language_request(environ)
        try:
            request.get_host()
        except DisallowedHost:
            return None  # a Host not in ALLOWED_HOSTS: Django answers it (400), as it would
        language = translation.get_language_from_request(request)
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
        return (
            state
            if claim_holds(who, user_id=state.user_id, active=state.active, password=state.password)
            else None
        )

    @staticmethod
    def _signed_in(environ: dict[str, Any], kind: str) -> SessionClaim | int | None:
        """The signed-in account as the view finds it: the session (DRF checks it first), then for the API
        an API token."""
        who = session_claim(environ)
        if who is None and kind == API and environ.get("HTTP_AUTHORIZATION"):
            who = token_user_id(environ)
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
