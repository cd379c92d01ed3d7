"""Phones of a 4-seat draft for the tests of the fast path (limited/wsgi.py): each signed in with its own
session cookie, holding its first draft/me answer and tag; and a WSGI call as a server makes it."""

from __future__ import annotations

import io
import uuid
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.test import Client

from limited.wsgi import DraftPolls


def call(
    app: DraftPolls, url: str, etag: str = "", cookie: str = "", token: str = "", **extra: str
) -> tuple[str, dict]:
    return call_with_body(app, url, etag, cookie, token, **extra)[:2]  # type: ignore[return-value]


def call_with_body(
    app: DraftPolls, url: str, etag: str = "", cookie: str = "", token: str = "", **extra: str
) -> tuple[str, dict, bytes]:
    parts = urlsplit(url)
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": parts.path, "QUERY_STRING": parts.query,
               "wsgi.input": io.BytesIO(b""), "wsgi.url_scheme": "http", "SERVER_NAME": "testserver",
               "SERVER_PORT": "80", "HTTP_HOST": "testserver", **extra}  # fmt: skip
    if etag:
        environ["HTTP_IF_NONE_MATCH"] = etag
    if cookie:
        environ["HTTP_COOKIE"] = cookie
    if token:
        environ["HTTP_AUTHORIZATION"] = f"Token {token}"
    seen: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        seen["status"], seen["headers"] = status, dict(headers)

    body = b"".join(app(environ, start_response))
    return seen["status"], seen["headers"], body


def session(user: Any) -> tuple[Client, str]:
    client = Client()
    client.force_login(user)
    return client, f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def pick(phone: dict[str, Any], event_id: int) -> Any:
    me = phone["me"]
    return phone["api"].post(
        f"/api/tournaments/{event_id}/draft/pick/", {"card": me["pack"][0], "pick_number": me["pick_number"]},
        format="json", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
    )  # fmt: skip


def drafting_pod(api_client_for: Any, make_user: Any, organizer: Any) -> dict[str, Any]:
    """A started 4-seat twin-deck draft and its phones."""
    from .conftest import create_limited_event, sign_up

    org = api_client_for(organizer)
    created = create_limited_event(org, {"kind": "draft", "product": "td-sample", "packs": 3, "seed": 9})
    event_id = created.json()["id"]
    players = sign_up(api_client_for, make_user, event_id, created.json()["join_code"], 4)
    assert org.post(f"/api/tournaments/{event_id}/draft/start/").status_code == 201
    phones = []
    for user, api, player_id in players:
        browser, cookie = session(user)
        first = browser.get(f"/api/tournaments/{event_id}/draft/me/")
        assert first.status_code == 200 and first["ETag"].startswith('"draft-api-')
        phones.append({"user": user, "api": api, "browser": browser, "cookie": cookie, "player": player_id,
                       "etag": first["ETag"], "me": first.json()})  # fmt: skip
    return {"event": event_id, "phones": phones, "org": org, "url": f"/api/tournaments/{event_id}/draft/me/"}
