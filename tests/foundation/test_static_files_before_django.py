"""Static files are answered at the WSGI entry point, before Django and the live polls: a CSS or JS file
never waits on the session, the middleware or the database, and keeps WhiteNoise's headers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config.static_first import StaticFirst
from tests.wsgi_downstream import Downstream


def call(app: StaticFirst, path: str, method: str = "GET", **extra: str) -> tuple[str, dict[str, str], bytes]:
    environ = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "", **extra}
    seen: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], *exc: Any) -> None:
        seen["status"], seen["headers"] = status, dict(headers)

    body = b"".join(app(environ, start_response))
    return seen["status"], seen["headers"], body


@pytest.fixture
def static_root(tmp_path: Path, settings: Any) -> Path:
    root = tmp_path / "staticfiles"
    (root / "css").mkdir(parents=True)
    (root / "css" / "site.css").write_text("body { margin: 0 }\n")
    settings.STATIC_ROOT = root
    settings.WHITENOISE_AUTOREFRESH = False
    settings.WHITENOISE_USE_FINDERS = False
    return root


@pytest.mark.django_db
def test_a_static_file_is_served_without_django_or_a_query(static_root: Path) -> None:
    downstream = Downstream()
    app = StaticFirst(downstream)
    with CaptureQueriesContext(connection) as queries:
        status, headers, body = call(app, "/static/css/site.css")
    assert status == "200 OK" and body == b"body { margin: 0 }\n"
    assert downstream.calls == 0 and len(queries) == 0
    assert headers["Content-Type"].startswith("text/css")
    assert headers["X-Content-Type-Options"] == "nosniff" and "max-age" in headers["Cache-Control"]
    # A browser revalidating its copy gets a 304 from the same table.
    status, _h, body = call(app, "/static/css/site.css", HTTP_IF_NONE_MATCH=headers["ETag"])
    assert status == "304 Not Modified" and body == b"" and downstream.calls == 0


def test_anything_else_goes_on_to_django(static_root: Path) -> None:
    downstream = Downstream()
    app = StaticFirst(downstream)
    assert call(app, "/static/css/missing.css")[2] == b"django"
    assert call(app, "/static/css/site.css", method="POST")[2] == b"django"
    assert call(app, "/tournaments/1/me/")[2] == b"django"
    assert downstream.calls == 3


def test_the_venue_entry_point_puts_static_files_first() -> None:
    from config import wsgi

    assert isinstance(wsgi.application, StaticFirst)
