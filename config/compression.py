"""gzip for every text answer Django makes (pages, API JSON, organizer fragments, exports as text).

What is compressed where:
- static files: WhiteNoise serves the .gz copies `collectstatic` wrote (CompressedManifestStaticFilesStorage);
  it answers before this middleware, which therefore never touches them;
- the live layer's pages (shared pages, a player's page): gzipped by tournaments/live itself, once per
  change; they arrive here with Content-Encoding set and are left alone;
- everything else Django renders: here, when the client sent ``Accept-Encoding: gzip``.

Only text is compressed (HTML, JSON, CSS, JS, SVG, XML, plain text, CSV): PDFs, PNGs and other binary
downloads are compressed already, and gzipping them again costs CPU for nothing.

BREACH (compression ratio as an oracle for a secret in a body that also reflects attacker input, e.g.
``request.get_full_path`` in every page's language form) is answered by three things: Django masks the CSRF
token with a fresh random mask in every response, so it never repeats from one response to the next; the
session id lives only in a cookie (headers are not compressed); and Django's GZipMiddleware (>= 4.2) adds
a random-length filler to each gzip header ("Heal the BREACH"), so lengths vary from answer to answer
anyway. API tokens are shown once, in the answer to a POST that needs the password (no reflected input a
third party could vary). The venue serves plain HTTP on its Wi-Fi, where compression hides nothing
anyway.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

TEXT_TYPES = (
    "text/",
    "application/json",
    "application/problem+json",
    "application/javascript",
    "application/manifest+json",
    "application/xml",
    "application/vnd.oai.openapi",
    "application/x-yaml",
    "application/yaml",
    "image/svg+xml",
)


def is_text(content_type: str) -> bool:
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind.startswith(TEXT_TYPES) or kind.endswith(("+json", "+xml"))


class TextGZipMiddleware(GZipMiddleware):
    """Django's GZipMiddleware (HTB padding, Vary, weak ETags, streaming), for text answers only."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if not is_text(response.get("Content-Type", "")):
            return response
        return super().process_response(request, response)
