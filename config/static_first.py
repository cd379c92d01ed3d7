"""Static files answered before anything else: before Django's request machinery and the live polls.

While results pour in, Django's path (request object, signals closing old database connections, eleven
middleware) is what every CSS, JavaScript and icon request paid ahead of WhiteNoise, which sits in the
middleware list. Here the very same WhiteNoise files (collected, compressed, hashed names cached for ever as
immutable, the others revalidated by ETag) are looked up in one dict and handed to the server's
``wsgi.file_wrapper`` (gunicorn: sendfile), so a static request never touches the database, the session
or a template. WhiteNoise stays in MIDDLEWARE for `manage.py runserver` and the test client, which do not
go through this WSGI entry point.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from whitenoise.base import WhiteNoise
from whitenoise.middleware import WhiteNoiseMiddleware
from whitenoise.string_utils import decode_path_info

StartResponse = Callable[..., Any]

# What Django's SecurityMiddleware adds to every answer, static files included.
_SECURITY = [("X-Content-Type-Options", "nosniff")]


class StaticFirst:
    """WSGI wrapper: a known static file is served from WhiteNoise's table, anything else goes to ``app``."""

    def __init__(self, app: Callable[[dict[str, Any], StartResponse], Iterable[bytes]]) -> None:
        self.app = app
        # Built from the same settings as the middleware (STATIC_ROOT, max-age, immutable test).
        self.files = WhiteNoiseMiddleware(get_response=None)
        self.prefix = self.files.static_prefix
        referrer = settings.SECURE_REFERRER_POLICY
        self.extra = [*_SECURITY, *([("Referrer-Policy", referrer)] if isinstance(referrer, str) else [])]

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if path.startswith(self.prefix) and environ.get("REQUEST_METHOD") in ("GET", "HEAD"):
            path = decode_path_info(path)
            found = self.files.find_file(path) if self.files.autorefresh else self.files.files.get(path)
            if found is not None:
                extra = self.extra

                def start(status: str, headers: list[tuple[str, str]], *exc: Any) -> Any:
                    return start_response(status, [*headers, *extra], *exc)

                return WhiteNoise.serve(found, environ, start)  # the WSGI serve, not the middleware's
        return self.app(environ, start_response)
