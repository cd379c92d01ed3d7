"""Middleware of the site itself."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


class HealthCheckMiddleware:
    """Answer /healthz before host validation and the HTTPS redirect.

    Load balancers probe each node by its IP address over plain HTTP; ALLOWED_HOSTS would
    reject that Host header (400) and SECURE_SSL_REDIRECT would answer 301, so the node would
    look down while it is healthy. The check reveals nothing but up/down states.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path == "/healthz" and request.method in {"GET", "HEAD"}:
            from .views import healthz

            return healthz(request)
        return self.get_response(request)
