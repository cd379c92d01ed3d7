"""The WSGI fast path for unchanged live polls: it answers 304 exactly when the views would, with one query
and without Django's middleware, and hands everything else to Django untouched."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.wsgi_downstream import Downstream
from tournaments import live, services
from tournaments.live.wsgi import LivePolls

from .test_live import _event, _my_event_live

pytestmark = pytest.mark.django_db(transaction=True)


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

    monkeypatch.setattr("tournaments.live.polls.my_event_fingerprint", broken)
    django = Downstream()
    with caplog.at_level(logging.ERROR, logger="tournaments.live.wsgi"):
        assert call(LivePolls(django), running["url"], running["etag"])[0].startswith("200")
    assert django.calls == 1 and "fast path failed" in caplog.text


def test_the_deployed_application_is_wrapped():
    from config.wsgi import application

    # Static files are answered first (config/static_first.py), then the live polls, then Django.
    assert isinstance(application.app, LivePolls)


def test_results_do_not_invalidate_the_pairings_page_but_do_invalidate_standings(running, client):
    """A result comes in every few seconds during a round; the big pairings page does not show results,
    so its ETag survives them (no re-render), while the projector's standings follow them."""
    django = Downstream()
    app = LivePolls(django)
    event, entries, organizer = running["event"], running["entries"], running["organizer"]
    pairings = reverse("tournaments:pairings", args=[event.pk]) + "?fragment=1"
    standings = reverse("tournaments:projector", args=[event.pk, "standings"]) + "?fragment=1"
    pairings_etag, standings_etag = client.get(pairings)["ETag"], client.get(standings)["ETag"]
    match = event.round_set.get(number=1).matches.filter(bye=False).first()
    services.match_report_result(match=match, by=organizer, wins=[2, 0])
    assert call(app, pairings, pairings_etag)[0].startswith("304")
    assert call(app, standings, standings_etag)[0].startswith("200")
    services.player_drop(player=entries[-1], by=organizer)
    assert call(app, pairings, pairings_etag)[0].startswith("200")


def _finish_round(event, organizer):  # type: ignore[no-untyped-def]
    for match in event.round_set.order_by("-number").first().matches.filter(bye=False, status="pending"):
        services.match_report_result(match=match, by=organizer, wins=[2, 0])


def test_a_new_round_reaches_the_phone_as_a_short_notice_then_the_full_page(running, client):
    """The seconds after a round is posted: the phone's poll gets its table and opponent at once (two small
    queries, no full render, still no Django), told when to fetch its full page; meanwhile its polls are
    304s; the full fetch renders the page with forms."""
    event, organizer, entries = running["event"], running["organizer"], running["entries"]
    _finish_round(event, organizer)
    services.round_pair_next(tournament=event, by=organizer)
    django = Downstream()
    app = LivePolls(django)
    parts = urlsplit(running["url"])
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": parts.path, "QUERY_STRING": parts.query,
               "HTTP_IF_NONE_MATCH": running["etag"], "HTTP_COOKIE": _session(client)}  # fmt: skip
    seen: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        seen["status"], seen["headers"] = status, dict(headers)

    with CaptureQueriesContext(connection) as queries:
        body = b"".join(app(environ, start_response)).decode()
    assert seen["status"].startswith("200") and django.calls == 0
    # The notice's two small queries, and the session's check (its row, its user) — the notice is only
    # for the player the link was made for.
    assert len(queries) <= 5, [q["sql"] for q in queries]
    assert "script-src" in seen["headers"]["Content-Security-Policy"]
    round_2 = event.round_set.get(number=2)
    mine = round_2.matches.get(seats__player=entries[0])
    opponent = mine.seats.exclude(player=entries[0]).get().player
    assert 'data-round="2"' in body and f"<strong>{mine.table}</strong>" in body and opponent.name in body
    notice_etag = seen["headers"]["ETag"]
    assert notice_etag.endswith('-notice"')
    refresh = int(seen["headers"][live.REFRESH_HEADER])
    assert 0 <= refresh <= live.REFRESH_SPREAD_MAX_MS
    # Until the phone fetches its full page, its polls are 304s — unless its own match changes.
    assert call(app, running["url"], notice_etag)[0].startswith("304")
    full = client.get(running["url"])  # the script's full fetch: no If-None-Match
    assert full.status_code == 200 and "live-refresh" not in {k.lower() for k in full.headers}
    assert 'name="winner"' in full.content.decode() or "game" in full.content.decode().lower()
    assert call(app, running["url"], full["ETag"])[0].startswith("304")


def _session(client) -> str:  # type: ignore[no-untyped-def]
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}"


def test_a_bare_link_without_its_session_gets_no_notice(running, client):
    """The live link is valid for 7 days: on its own (shared, copied from a phone) it must show nothing."""
    event, organizer = running["event"], running["organizer"]
    _finish_round(event, organizer)
    services.round_pair_next(tournament=event, by=organizer)
    django = Downstream()
    call(LivePolls(django), running["url"], running["etag"])
    assert django.calls == 1  # not answered before Django
    from django.test import Client

    stranger = Client().get(running["url"], HTTP_IF_NONE_MATCH=running["etag"])
    assert stranger.status_code == 403
    assert call(LivePolls(Downstream()), running["url"], running["etag"], cookie=_session(client))[
        0
    ].startswith("200")


def test_the_notice_speaks_the_phones_language(running, client):
    event, organizer = running["event"], running["organizer"]
    client.cookies["django_language"] = "ru"
    russian = client.get(running["url"])
    assert russian.status_code == 200 and "-ru-" in russian["ETag"]
    _finish_round(event, organizer)
    services.round_pair_next(tournament=event, by=organizer)
    status, headers = call(
        LivePolls(Downstream()),
        running["url"],
        russian["ETag"],
        cookie=f"django_language=ru; {_session(client)}",
    )
    assert status.startswith("200") and "-ru-" in headers["ETag"]
    notice = client.get(running["url"], HTTP_IF_NONE_MATCH=russian["ETag"])  # the same through Django
    assert notice.status_code == 200 and "Тур 2" in notice.content.decode()
    assert "Стол" in notice.content.decode()


def test_while_another_worker_renders_a_new_version_the_previous_one_is_served(running, client):
    """Stale-while-revalidate: a worker never stalls on another's render of a big shared page."""
    from django.core.cache import cache

    event, organizer, entries = running["event"], running["organizer"], running["entries"]
    url = reverse("tournaments:pairings", args=[event.pk]) + "?fragment=1"
    old = client.get(url)
    services.player_drop(player=entries[-1], by=organizer)
    version = live.page_version(event.pk, "pairings-latest")
    lock = f"live:{event.pk}:{version}:en:pairings-latest:lock"
    assert cache.add(lock, 1)  # another worker is rendering the new version
    try:
        during = client.get(url)
        assert during.status_code == 200 and during["ETag"] == old["ETag"]
    finally:
        cache.delete(lock)
    after = client.get(url)
    assert after.status_code == 200 and after["ETag"] != old["ETag"] and f"-{version}-" in after["ETag"]


def _prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="prepared statements are PostgreSQL's (the CI's PostgreSQL leg runs this)",
)
def test_on_postgresql_the_polls_statement_is_prepared_and_djangos_own_queries_are_not(running):
    app = LivePolls(Downstream())
    for _ in range(3):
        status, _headers = call(app, running["url"], running["etag"])
        assert status.startswith("304")
    polls = [sql for sql in _prepared_statements() if "tournaments_sideboardchange c" in sql]
    assert len(polls) == 1, "the fingerprint is prepared once per connection and reused"
    # The ORM's queries bind on the client and are never prepared (its SQL quotes every column).
    list(type(running["event"]).objects.filter(pk=running["event"].pk))
    assert not [sql for sql in _prepared_statements() if '"tournaments_tournament"."id"' in sql]
