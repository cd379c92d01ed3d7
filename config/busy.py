"""A busy database answers 503 with Retry-After, never 500.

SQLite (the venue) has one writer at a time. Writers wait for the lock (the connection's ``timeout``,
20 s in settings) and requests keep their write transactions short (deck lists are parsed and judged
before the transaction opens), so the wait is normally invisible; but when the wait runs out SQLite
raises ``OperationalError: database is locked``. That is the server being busy, not the request being
wrong, and nothing was written (the transaction rolled back), so the client is told to send the same
request again shortly: the page's scripts and the phones' offline queues do so on 503.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 2
_BUSY_MESSAGES = ("database is locked", "database table is locked", "database is busy")


def is_database_busy(error: BaseException) -> bool:
    return isinstance(error, OperationalError) and any(m in str(error).lower() for m in _BUSY_MESSAGES)


def busy_response(request: HttpRequest) -> HttpResponse:
    message = _("The server is busy saving other changes. Nothing was saved; try again in a moment.")
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": message}, status=503)
    else:
        response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


class DatabaseBusyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_database_busy(exception):
            return None
        log.warning("database busy on %s %s: answered 503", request.method, request.path)
        return busy_response(request)


def server_error(request: HttpRequest) -> HttpResponse:
    """The site's 500 handler: a busy database raised outside a view (a session saved by the session
    middleware, a write in another middleware) is still a 503 with Retry-After."""
    import sys

    from django.views.defaults import server_error as default_server_error

    error = sys.exc_info()[1]
    if error is not None and is_database_busy(error):
        log.warning("database busy on %s %s: answered 503", request.method, request.path)
        return busy_response(request)
    return default_server_error(request)
