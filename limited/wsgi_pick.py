"""The pick from a drafting phone's queue, answered before Django's middleware.

At the end of a pack 2,000 phones pick every few seconds, and a pick through Django's whole request machinery
(13 middleware, URL resolving, the session and user loaded through the ORM) cost a third more than the pick
itself. Here the queue's pick — a form POST to ``/tournaments/<id>/draft/pick/`` with an ``Idempotency-Key`` —
is given what the pick view uses of that machinery, each made by Django's own code: the signed-in user (the
session checked as ``get_user`` checks it: limited/fast_signin.py), the CSRF check (Django's
``CsrfViewMiddleware``, which refuses here exactly what it refuses there), the language (Django's
``get_language_from_request``), and then the view itself (``limited.views.draft_pick``) answers; the site's
page headers are added as for every answer made before Django (tournaments/live/wsgi.py).

Anything else goes to Django untouched: no key, another URL or method, no plain sign-in, a refused CSRF
check, a body too large or not a form, and any error on the way — the request is then handed on with its
body as it came. That is safe even after the pick was written: the key makes the pick idempotent, so Django
running it again replays the kept answer (idempotency/decorators.py) instead of picking twice.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable, Iterable
from typing import Any

from django.core.exceptions import DisallowedHost, PermissionDenied
from django.core.handlers.wsgi import WSGIRequest
from django.http import Http404, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.utils import translation

from accounts.backends import LockoutModelBackend
from tournaments.live.wsgi import answer_before_django, fast_path_connection

from .fast_signin import claim_holds, session_claim

logger = logging.getLogger(__name__)

_PICK = re.compile(r"^/tournaments/(\d{1,12})/draft/pick/$")
# A pick's form is three short fields; anything larger is not one (Django reads it and answers).
MAX_BODY = 4096

StartResponse = Callable[..., Any]


def _never(request: Any) -> HttpResponse:  # the CSRF middleware's next step, never reached here
    raise AssertionError("only the CSRF check's own steps are called")


class QueuedPicks:
    """WSGI wrapper: the queue's picks answered by the pick view without the middleware; all else to ``app``."""

    def __init__(self, app: Callable[[dict[str, Any], StartResponse], Iterable[bytes]]) -> None:
        self.app = app
        self.csrf = CsrfViewMiddleware(_never)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        found = _PICK.match(environ.get("PATH_INFO", ""))
        if (
            found is None
            or environ.get("REQUEST_METHOD") != "POST"
            or not environ.get("HTTP_IDEMPOTENCY_KEY")
            or not environ.get("CONTENT_TYPE", "").startswith("application/x-www-form-urlencoded")
        ):
            return self.app(environ, start_response)
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = -1
        if not 0 < length <= MAX_BODY:
            return self.app(environ, start_response)
        body = environ["wsgi.input"].read(length)
        try:
            answered = self.answer(environ, body, int(found.group(1)))
        except Exception:  # Django answers (and reports) whatever went wrong here; the key keeps it once
            logger.exception("queued pick fast path failed; answered by Django")
            answered = None
        if answered is not None:
            status, headers, content = answered
            return answer_before_django(environ, start_response, status, content, headers)
        environ["wsgi.input"] = io.BytesIO(body)  # Django reads the body as it came
        return self.app(environ, start_response)

    def answer(
        self, environ: dict[str, Any], body: bytes, pk: int
    ) -> tuple[str, list[tuple[str, str]], bytes] | None:
        """The view's answer as (status, headers, body), or None: Django answers."""
        from . import views  # the view module imports the site's pages: loaded once Django is set up

        with fast_path_connection():
            try:
                user = self._user(environ)
                if user is None:
                    return None
                request = WSGIRequest({**environ, "wsgi.input": io.BytesIO(body)})
                request.get_host()  # a Host not in ALLOWED_HOSTS: Django answers it (400), as it would
                request.user = user
                # Django's own check, step by step as its middleware runs it: the cookie's secret, then the
                # form's token (or the header's) against it, the Origin and, over HTTPS, the Referer.
                self.csrf.process_request(request)
                if self.csrf.process_view(request, views.draft_pick, (), {"pk": pk}) is not None:
                    return None  # refused: Django refuses it again, with its page and its log line
                language = translation.get_language_from_request(request)
                with translation.override(language):
                    request.LANGUAGE_CODE = language
                    response = views.draft_pick(request, pk)
                if response.streaming or request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
                    return None  # not a queue answer (nothing the view makes for a queued pick)
                headers = [
                    (name, value) for name, value in response.items() if name.lower() != "content-length"
                ]
                headers.append(("Content-Language", language))
                return f"{response.status_code} {response.reason_phrase}", headers, bytes(response.content)
            except (Http404, PermissionDenied, DisallowedHost):
                return None  # not this player's event, no event, a foreign Host: Django answers it as it does

    @staticmethod
    def _user(environ: dict[str, Any]) -> Any | None:
        """The signed-in account (as get_user finds it: active, and the session's password hash still its
        own), or None."""
        who = session_claim(environ)
        if who is None:
            return None
        # The account as the site's backend finds it for a session (active accounts only, a prepared query).
        user = LockoutModelBackend().get_user(who if isinstance(who, int) else who.user_id)
        if user is None or not claim_holds(
            who, user_id=user.pk, active=user.is_active, password=user.password
        ):
            return None
        return user
