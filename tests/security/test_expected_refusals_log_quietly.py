"""A bare My-event link (the 7-day link, without the player's session) polled every few seconds is refused
with one warning line, not a 1.2 KB traceback per poll; errors (5xx) keep their traceback."""

from __future__ import annotations

import io
import logging
from typing import Any

import pytest
from django.core.signals import request_started
from django.db import close_old_connections

from config.wsgi import application
from tournaments import services
from tournaments.live.polls import my_event_token

from ..tournaments.factories import make_event

# A real transaction per request, as in production: the live-poll fast path closes a connection past its
# CONN_MAX_AGE, which inside a test-wide transaction (PostgreSQL) would mark it for rollback.
pytestmark = pytest.mark.django_db(transaction=True)


def _poll(path: str, query: str, if_none_match: str) -> str:
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": query, "SERVER_NAME": "testserver",
               "SERVER_PORT": "80", "wsgi.input": io.BytesIO(b""), "wsgi.url_scheme": "http",
               "wsgi.errors": io.StringIO(), "HTTP_IF_NONE_MATCH": if_none_match}  # fmt: skip
    statuses: list[str] = []
    # As Django's test client does: no closing of "old" connections at the request's start, which inside the
    # test's transaction (PostgreSQL, CONN_MAX_AGE 0) would mark it for rollback.
    request_started.disconnect(close_old_connections)
    try:
        application(environ, lambda status, headers, *exc: statuses.append(status))
    finally:
        request_started.connect(close_old_connections)
    return statuses[0]


def test_a_bare_my_event_link_polled_without_a_session_logs_no_traceback(
    games, organizer, user, caplog: Any
) -> None:
    event = make_event(organizer, games["yugioh"], players=1)
    player = services.player_register(tournament=event, by=user)
    services.round_pair_next(tournament=event, by=organizer)
    token = my_event_token(player_id=player.pk, user_id=user.pk)
    with caplog.at_level(logging.INFO):
        for tag in ("", 'W/"old"', ""):
            assert _poll(f"/tournaments/{event.pk}/me/live/", f"k={token}", tag).startswith("403")
    refusals = [r for r in caplog.records if r.name.startswith("django.")]
    assert len(refusals) == 3
    assert all(r.exc_info is None and r.levelno == logging.WARNING for r in refusals)
    assert "Traceback" not in caplog.text


def test_a_server_error_keeps_its_traceback() -> None:
    from config.logfilters import QuietRefusals

    try:
        raise RuntimeError("boom")
    except RuntimeError:
        import sys

        error = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "boom", (), sys.exc_info())
        error.status_code = 500
        refusal = logging.LogRecord("django.request", logging.WARNING, __file__, 1, "no", (), sys.exc_info())
        refusal.status_code = 403
    assert QuietRefusals().filter(error) and error.exc_info is not None
    assert QuietRefusals().filter(refusal) and refusal.exc_info is None
