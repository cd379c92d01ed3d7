"""The pick from a phone's queue (a form POST with an Idempotency-Key) is answered by the pick view before
Django's middleware (limited/wsgi_pick.py), with the middleware's own checks made by Django's code: the
signed-in player, the CSRF token, the Host, the language. Whatever that path does not plainly own goes to
Django with its body intact — and an error after the pick was written is answered by Django replaying the
key's answer, never by a second pick."""

from __future__ import annotations

import io
from typing import Any
from urllib.parse import urlencode

import pytest
from django.conf import settings

from config.wsgi import django_application
from idempotency.models import IdempotencyKey
from limited import views
from limited.models import DraftPick
from limited.wsgi_pick import QueuedPicks

pytestmark = pytest.mark.django_db(transaction=True)

TOKEN = "k" * 32  # the page's CSRF secret, as the browser's cookie holds it (the form sends it too)


class Recorder:
    """Stands in for Django: records the requests it gets and the bodies they carry."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        length = int(environ.get("CONTENT_LENGTH") or 0)
        self.bodies.append(environ["wsgi.input"].read(length))
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"django"]


def post(app: Any, pod: dict, phone: dict, fields: dict[str, str], *, key: str = "q-1", **extra: str):
    body = urlencode(fields).encode()
    environ = {
        "REQUEST_METHOD": "POST", "PATH_INFO": f"/tournaments/{pod['event']}/draft/pick/", "QUERY_STRING": "",
        "CONTENT_TYPE": "application/x-www-form-urlencoded", "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body), "wsgi.url_scheme": "http", "SERVER_NAME": "testserver",
        "SERVER_PORT": "80", "HTTP_HOST": "testserver", "HTTP_IDEMPOTENCY_KEY": key,
        "HTTP_COOKIE": f"{phone['cookie']}; {settings.CSRF_COOKIE_NAME}={TOKEN}", **extra,
    }  # fmt: skip
    seen: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        seen["status"], seen["headers"] = status, dict(headers)

    content = b"".join(app(environ, start_response))
    return seen["status"], seen["headers"], content.decode()


def _fields(phone: dict, card: str | None = None, token: str = TOKEN) -> dict[str, str]:
    me = phone["me"]
    return {
        "csrfmiddlewaretoken": token,
        "pick_number": str(me["pick_number"]),
        "card": card or me["pack"][0],
    }


def test_a_queued_pick_is_the_views_answer_without_django(pod):
    django = Recorder()
    app = QueuedPicks(django)
    me = pod["phones"][0]
    status, headers, html = post(app, pod, me, _fields(me))
    assert status == "200 OK" and django.bodies == []
    assert html.startswith('<ul class="messages"') and 'class="message success">Picked.</li>' in html
    assert '<div id="live"' in html and 'data-testid="draft-waiting"' in html
    assert headers["Cache-Control"] == "no-store" and headers["Content-Language"] == "en"
    assert (
        headers["X-Frame-Options"] == "DENY"
        and headers["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY
    )
    assert headers["X-Content-Type-Options"] == "nosniff" and "Set-Cookie" not in headers
    assert DraftPick.objects.filter(card=me["me"]["pack"][0], pick_number=1).count() == 1
    # The same key again: the kept answer, replayed, and still one pick.
    status, headers, again = post(app, pod, me, _fields(me))
    assert status == "200 OK" and headers["Idempotent-Replayed"] == "true" and "Picked." in again
    assert DraftPick.objects.count() == 1 and django.bodies == []


def test_a_second_pick_for_the_same_number_is_refused_409_with_its_note(pod):
    app = QueuedPicks(Recorder())
    me = pod["phones"][0]
    assert post(app, pod, me, _fields(me))[0] == "200 OK"
    status, _headers, html = post(app, pod, me, _fields(me, me["me"]["pack"][1]), key="q-2")
    assert status == "409 Conflict" and "already made this pick" in html and '<div id="live"' in html
    assert IdempotencyKey.objects.get(key="q-2").status_code == 409 and DraftPick.objects.count() == 1


def test_the_note_and_box_come_in_the_players_language(pod):
    app = QueuedPicks(Recorder())
    me = pod["phones"][0]
    status, headers, html = post(app, pod, me, _fields(me), HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9")
    assert status == "200 OK" and headers["Content-Language"] == "ru"
    assert "Выбрано." in html and "Picked." not in html


@pytest.mark.parametrize(
    "what",
    ["no CSRF token", "a wrong CSRF token", "no CSRF cookie", "no session", "a foreign Origin",
     "a Host not allowed", "no Idempotency-Key", "not this player's event"],
)  # fmt: skip
def test_what_is_not_plainly_a_players_queued_pick_goes_to_django_with_its_body(pod, what):
    django = Recorder()
    app = QueuedPicks(django)
    me = pod["phones"][0]
    fields, extra, key = _fields(me), {}, "q-1"
    if what == "no CSRF token":
        del fields["csrfmiddlewaretoken"]
    elif what == "a wrong CSRF token":
        fields["csrfmiddlewaretoken"] = "w" * 32
    elif what == "no CSRF cookie":
        extra["HTTP_COOKIE"] = me["cookie"]
    elif what == "no session":
        extra["HTTP_COOKIE"] = f"{settings.CSRF_COOKIE_NAME}={TOKEN}"
    elif what == "a foreign Origin":
        extra["HTTP_ORIGIN"] = "http://evil.example"
    elif what == "a Host not allowed":
        extra["HTTP_HOST"] = "evil.example"
    elif what == "no Idempotency-Key":
        key = ""
    else:
        pod["event"] = pod["event"] + 1000  # no such event: Django answers 404
    _status, _headers, text = post(app, pod, me, fields, key=key, **extra)
    assert text == "django" and django.bodies == [urlencode(fields).encode()]
    assert DraftPick.objects.count() == 0 and not IdempotencyKey.objects.exists()


def test_an_error_after_the_pick_was_written_is_answered_by_django_replaying_the_key(
    pod, monkeypatch, caplog
):
    """The pick is applied once even when this path fails after writing it: Django runs the request again and
    the key's kept answer is replayed (idempotency/decorators.py)."""
    app = QueuedPicks(django_application)
    me = pod["phones"][0]
    real = views._queue_answer
    failed = []

    def fails_once(*args: Any, **kwargs: Any) -> Any:
        if not failed:
            failed.append(True)
            raise RuntimeError("the box could not be made")
        return real(*args, **kwargs)

    monkeypatch.setattr(views, "_queue_answer", fails_once)
    status, headers, html = post(app, pod, me, _fields(me))
    assert failed and status == "200 OK" and headers["Idempotent-Replayed"] == "true" and "Picked." in html
    assert DraftPick.objects.count() == 1 and IdempotencyKey.objects.count() == 1
    assert [r for r in caplog.records if "queued pick fast path failed" in r.getMessage()]


def test_a_body_that_is_not_a_small_form_goes_to_django_untouched(pod):
    django = Recorder()
    app = QueuedPicks(django)
    me = pod["phones"][0]
    big = _fields(me) | {"padding": "x" * 5000}
    assert post(app, pod, me, big)[2] == "django" and django.bodies == [urlencode(big).encode()]
    assert DraftPick.objects.count() == 0
