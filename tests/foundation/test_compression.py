"""Every text answer reaches a client that sends ``Accept-Encoding: gzip`` gzipped: a page, an API answer, an
organizer fragment, the live fragments (Django's path and the WSGI fast path), and the static CSS/JS as
collectstatic writes them for production. Binary answers are not compressed twice; a client that does not
take gzip gets the plain bytes."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core.management import call_command
from django.http import HttpResponse
from django.test import RequestFactory, override_settings
from django.urls import reverse

from config.compression import TextGZipMiddleware, is_text
from tests.tournaments.test_live import _event, _my_event_live
from tournaments import services

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


def gunzipped(response: Any) -> bytes:
    assert response["Content-Encoding"] == "gzip", response.headers
    assert "Accept-Encoding" in response["Vary"]
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return gzip.decompress(body)


@pytest.fixture
def event_day(client, games, organizer, make_user):  # type: ignore[no-untyped-def]
    event, users, entries, _cards = _event(games, organizer, make_user, 12)
    return {"event": event, "users": users, "entries": entries, "organizer": organizer}


@pytest.mark.django_db
def test_a_page_comes_gzipped_and_plain_to_a_client_without_gzip(client, games):
    page = client.get(reverse("tournaments:list"), **GZIP)
    assert page.status_code == 200
    assert b"</html>" in gunzipped(page)
    plain = client.get(reverse("tournaments:list"))
    assert "Content-Encoding" not in plain and b"</html>" in plain.content


@pytest.mark.django_db
def test_an_api_answer_comes_gzipped(client, event_day):
    event = event_day["event"]
    response = client.get(f"/api/tournaments/{event.pk}/rounds/", **GZIP)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert b'"matches"' in gunzipped(response)


@pytest.mark.django_db
def test_the_organizer_dashboard_and_its_live_fragment_come_gzipped_and_keep_answering_304(client, event_day):
    event = event_day["event"]
    client.force_login(event_day["organizer"])
    dashboard = client.get(reverse("tournaments:round", args=[event.pk, 1]), **GZIP)
    assert dashboard.status_code == 200 and b"</html>" in gunzipped(dashboard)
    url = reverse("tournaments:organizer_live", args=[event.pk]) + "?page=round&round=1"
    fragment = client.get(url, **GZIP)
    assert fragment.status_code == 200 and gunzipped(fragment)
    # gzip turns the tag weak (W/"…"): the browser sends it back so, and it must still match.
    assert fragment["ETag"].startswith('W/"')
    assert client.get(url, HTTP_IF_NONE_MATCH=fragment["ETag"], **GZIP).status_code == 304


@pytest.mark.django_db
def test_the_live_fragments_come_gzipped(client, event_day):
    event = event_day["event"]
    pairings = client.get(reverse("tournaments:pairings", args=[event.pk]) + "?fragment=1", **GZIP)
    assert pairings.status_code == 200 and b"Guest" in gunzipped(pairings)
    mine = client.get(_my_event_live(client, event, event_day["users"][0]), **GZIP)
    assert mine.status_code == 200 and b'data-round="1"' in gunzipped(mine)


def _wsgi_get(url: str, **headers: str) -> tuple[str, dict[str, str], bytes]:
    """A request through the site's real WSGI entry (config.wsgi: the live fast path, then Django)."""
    from config.wsgi import application

    parts = urlsplit(url)
    environ = RequestFactory().get(parts.path, **headers).environ
    environ["QUERY_STRING"] = parts.query
    seen: dict[str, Any] = {}

    def start_response(status: str, response_headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        seen["status"], seen["headers"] = status, dict(response_headers)

    result = application(environ, start_response)
    try:
        body = b"".join(result)
    finally:
        getattr(result, "close", lambda: None)()
    return seen["status"], seen["headers"], body


@pytest.mark.django_db(transaction=True)
def test_the_new_round_notice_from_the_wsgi_fast_path_comes_gzipped(client, event_day):
    event, organizer = event_day["event"], event_day["organizer"]
    user = event_day["users"][0]
    url = _my_event_live(client, event, user)
    etag = client.get(url)["ETag"]
    round_ = event.round_set.get(number=1)
    for match in round_.matches.filter(bye=False):
        services.match_report_result(match=match, by=organizer, wins=[2, 0])
    services.round_pair_next(tournament=event, by=organizer)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    status, headers, body = _wsgi_get(url, HTTP_IF_NONE_MATCH=etag, HTTP_COOKIE=cookie, **GZIP)
    assert status.startswith("200") and "X-Live-Refresh" in headers  # the fast path's notice
    assert headers.get("Content-Encoding") == "gzip"
    assert b'data-round="2"' in gzip.decompress(body)


def test_only_text_is_compressed_by_django():
    factory = RequestFactory()
    middleware = TextGZipMiddleware(
        lambda request: HttpResponse(b"%PDF-1.7 " * 200, content_type="application/pdf")
    )
    pdf = middleware(factory.get("/x", **GZIP))
    assert "Content-Encoding" not in pdf and pdf.content.startswith(b"%PDF")
    assert is_text("text/html; charset=utf-8") and is_text("application/json") and is_text("image/svg+xml")
    assert is_text("application/problem+json") and is_text("text/css") and is_text("text/javascript")
    assert not is_text("image/png") and not is_text("application/pdf") and not is_text("application/zip")


def test_static_css_and_js_come_gzipped_as_collectstatic_writes_them(tmp_path: Path):
    """As production serves them: collectstatic with WhiteNoise's compressed manifest storage (the project's
    own files only, to keep the test fast), then WhiteNoise answering from STATIC_ROOT."""
    from whitenoise.middleware import WhiteNoiseMiddleware

    root = Path(settings.BASE_DIR)
    storages = {**settings.STORAGES, "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}}  # fmt: skip
    with override_settings(
        STATIC_ROOT=tmp_path,
        STORAGES=storages,
        STATICFILES_DIRS=[root / "static", root / "tournaments" / "static"],
        STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder"],
        WHITENOISE_USE_FINDERS=False,
        WHITENOISE_AUTOREFRESH=False,
        DEBUG=False,
    ):
        call_command("collectstatic", interactive=False, verbosity=0)
        from django.contrib.staticfiles.storage import staticfiles_storage

        middleware = WhiteNoiseMiddleware(lambda request: HttpResponse(status=404))
        for name in ("css/site.css", "js/site.js", "tournaments/live.js", "img/favicon.svg"):
            url = staticfiles_storage.url(name)
            response = middleware(RequestFactory().get(url, **{"HTTP_ACCEPT_ENCODING": "gzip"}))
            assert response.status_code == 200, name
            assert gunzipped(response) == (tmp_path / name).read_bytes(), name
