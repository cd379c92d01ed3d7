"""The installable web app around My event: its manifest and its service worker (static/pwa/sw.js).

The worker is served from the site root rather than /static/ because a worker only controls pages under its
own path, and the pages to keep offline live under /tournaments/. It is never cached by the browser's HTTP
cache (a new version must take over at the next visit).
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

WORKER = Path(settings.BASE_DIR) / "static" / "pwa" / "sw.js"


@require_GET
@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(WORKER.read_bytes(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    data = {
        "name": "Deckhall",
        "short_name": "Deckhall",
        "description": _("Your table, opponent, clock and results on event day."),
        "start_url": reverse("tournaments:list"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1d3557",
        "lang": request.LANGUAGE_CODE,
        "icons": [
            {"src": static("pwa/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("pwa/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("pwa/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


def cache_key(request: HttpRequest) -> str:
    """An opaque name for this log-in session's offline copies ("" when nobody is logged in): a new session
    (another user, or after a log-out) gets another name, and the worker drops the old copies."""
    session_key = request.session.session_key if request.user.is_authenticated else None
    return salted_hmac("deckhall.pwa.cache", session_key).hexdigest()[:24] if session_key else ""
