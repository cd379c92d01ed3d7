"""The WSGI fast path for unchanged live polls: it answers 304 exactly when the views would, with one query
and without Django's middleware, and hands everything else to Django untouched."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import live, services
from tournaments.live_wsgi import LivePolls

from .test_live import _event, _my_event_live

pytestmark = pytest.mark.django_db(transaction=True)


class Downstream:
    """Stands in for Django: records that the request reached it."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        self.calls += 1
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"django"]


def call(app: LivePolls, url: str, etag: str = "", method: str = "GET", cookie: str = "") -> tuple[str, dict]:
    parts = urlsplit(url)
    environ = {"REQUEST_METHOD": method, "PATH_INFO": parts.path, "QUERY_STRING": parts.query}
    if etag:
        environ["HTTP_IF_NONE_MATCH"] = etag
    if cookie:
        environ["HTTP_COOKIE"] = cookie
    seen: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        seen["status"], seen["headers"] = status, dict(headers)

    b"".join(app(environ, start_response))
    return seen["status"], seen["headers"]


@pytest.fixture
def running(client, games, organizer, make_user):  # type: ignore[no-untyped-def]
    event, users, entries, _cards = _event(games, organizer, make_user, 6)
    url = _my_event_live(client, event, users[0])
    first = client.get(url)
    assert first.status_code == 200
    return {"event": event, "url": url, "etag": first["ETag"], "entries": entries, "organizer": organizer}


def test_an_unchanged_my_event_poll_is_a_304_with_one_query_and_no_django(running):
    django = Downstream()
    app = LivePolls(django)
    with CaptureQueriesContext(connection) as queries:
        status, headers = call(app, running["url"], running["etag"])
    assert status.startswith("304") and headers["ETag"] == running["etag"]
    assert django.calls == 0
    assert len(queries) == 1, [q["sql"] for q in queries]


def test_a_result_at_another_table_is_still_a_304_but_the_players_own_change_goes_to_django(running):
    django = Downstream()
    app = LivePolls(django)
    event, entries, organizer = running["event"], running["entries"], running["organizer"]
    round_ = event.round_set.get(number=1)
    other = round_.matches.exclude(seats__player__in=entries[:2]).filter(bye=False).first()
    services.match_report_result(match=other, by=organizer, wins=[2, 0])
    assert call(app, running["url"], running["etag"])[0].startswith("304")
    mine = round_.matches.get(seats__player=entries[0])
    services.match_report_result(match=mine, by=organizer, wins=[2, 1])
    assert call(app, running["url"], running["etag"])[0].startswith("200")
    assert django.calls == 1


@pytest.mark.parametrize(
    "change",
    ["no etag", "post", "bad token", "other event", "other language"],
)
def test_anything_but_a_current_conditional_get_goes_to_django(running, change):
    django = Downstream()
    app = LivePolls(django)
    url, etag, cookie, method = running["url"], running["etag"], "", "GET"
    if change == "no etag":
        etag = ""
    elif change == "post":
        method = "POST"
    elif change == "bad token":
        url = url.split("?k=")[0] + "?k=forged"
    elif change == "other event":
        url = url.replace(f"/{running['event'].pk}/", f"/{running['event'].pk + 1}/")
    elif change == "other language":
        cookie = "django_language=ru"  # the person switched language: the English page is not current
    assert call(app, url, etag, method=method, cookie=cookie)[0].startswith("200")
    assert django.calls == 1


def test_shared_pages_answer_304_until_the_event_changes(running, client):
    django = Downstream()
    app = LivePolls(django)
    event = running["event"]
    url = reverse("tournaments:pairings", args=[event.pk]) + "?fragment=1"
    etag = client.get(url)["ETag"]
    assert call(app, url, etag)[0].startswith("304")
    assert call(app, url.replace("?fragment=1", ""), etag)[0].startswith("200")  # the full page: Django's
    assert call(app, url.replace("fragment=1", "round=1&fragment=1"), etag)[0].startswith("200")  # other page
    projector = reverse("tournaments:projector", args=[event.pk, "standings"]) + "?fragment=1"
    assert call(app, projector, client.get(projector)["ETag"])[0].startswith("304")
    live.live_version_bump(tournament_id=event.pk)
    assert call(app, url, etag)[0].startswith("200")
    assert django.calls == 3


def test_an_error_in_the_fast_path_is_logged_and_django_answers(running, monkeypatch, caplog):
    def broken(**kwargs: Any) -> None:
        raise RuntimeError("database went away")

    monkeypatch.setattr(live, "my_event_fingerprint", broken)
    django = Downstream()
    with caplog.at_level(logging.ERROR, logger="tournaments.live_wsgi"):
        assert call(LivePolls(django), running["url"], running["etag"])[0].startswith("200")
    assert django.calls == 1 and "fast path failed" in caplog.text


def test_the_deployed_application_is_wrapped():
    from config.wsgi import application

    assert isinstance(application, LivePolls)
