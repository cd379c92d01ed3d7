"""Errors from bad input that reach Django rather than a view's own validation.

* ``BadInputMiddleware``: values no database column can hold — an integer beyond 64 bits (SQLite's
  driver raises OverflowError while binding it) or text PostgreSQL refuses (NUL characters, numbers out
  of a column's range: DataError) — are the client's mistake, so they answer 400 instead of 500.
  Views validate the fields they know about first, with messages naming the field; this is the backstop.
* ``not_found``: the site's 404 handler, a JSON object under /api/ so API clients always get the
  documented error shape (an unknown path, an id that does not match a route); elsewhere the styled,
  translated page (templates/404.html) with the view's own reason ("No such card.") when it gave one.
  403 pages are Django's default handler rendering templates/403.html with the refusal's reason.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from django.db import DataError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import render

log = logging.getLogger(__name__)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


class BadInputMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, (OverflowError, DataError)):
            return None
        log.warning("bad input refused on %s %s: %s", request.method, request.path, exception)
        message = (
            "a value in the request cannot be stored or looked up (a number too large, or a NUL character)"
        )
        if _is_api(request):
            return JsonResponse({"detail": message}, status=400)
        return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


def not_found(request: HttpRequest, exception: Any) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"detail": "not found"}, status=404)
    # A view's Http404("No such card.") says what was missing; the resolver's own (a dict) says nothing useful.
    first = exception.args[0] if exception is not None and exception.args else None
    reason = first if isinstance(first, str) else ""
    context = {"request_path": quote(request.path), "reason": reason}
    return render(request, "404.html", context, status=404)
