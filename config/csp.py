"""Content-Security-Policy on every response.

Scripts only from our own origin — no 'unsafe-inline', no eval — so injected markup cannot run
script even if escaping ever failed somewhere. Page behaviour lives in static files (handlers are
attached from them, data is passed with json_script); Swagger UI is served in its "split" form whose
start-up script is a separate URL. Inline styles stay allowed: the printables carry their print CSS
inline and Swagger UI and htmx set style attributes; styles cannot run code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = settings.CONTENT_SECURITY_POLICY
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = with_image_hosts(
                policy, getattr(settings, "CARD_IMAGE_HOSTS", ())
            )
        return response


def with_image_hosts(policy: str, hosts: Iterable[str]) -> str:
    """The policy with the card-picture hosts (settings.CARD_IMAGE_HOSTS) added to its img-src: pictures
    load from exactly the hosts cards/images.py shows them from."""
    hosts = [host for host in hosts if host and not any(ch in host for ch in " ;,'\"")]
    if not hosts:
        return policy
    parts = [part.strip() for part in policy.split(";")]
    for index, part in enumerate(parts):
        if part.split(" ", 1)[0] == "img-src":
            parts[index] = " ".join([part, *hosts])
            break
    else:
        parts.append(" ".join(["img-src 'self'", *hosts]))
    return "; ".join(part for part in parts if part)
