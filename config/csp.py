"""Content-Security-Policy on every response.

Scripts only from our own origin — no 'unsafe-inline', no eval — so injected markup cannot run
script even if escaping ever failed somewhere. Page behaviour lives in static files (handlers are
attached from them, data is passed with json_script); Swagger UI is served in its "split" form whose
start-up script is a separate URL. Inline styles stay allowed: the printables carry their print CSS
inline and Swagger UI and htmx set style attributes; styles cannot run code.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = settings.CONTENT_SECURITY_POLICY
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        return response
