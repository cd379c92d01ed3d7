"""When a drafting phone's box has changed (its pod passed, it picked, another language was chosen), the page's
poll gets the new box before Django (limited/wsgi.py): the very box and tag the view answers, in the language
Django would pick (the chosen cookie, else Accept-Language), with the headers the site gives every page —
and only for the signed-in player's own seat. A poll that must write (a pick timer ran out) still goes to
Django."""

from __future__ import annotations

import gzip
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from limited.engine.draft import PICK_GRACE_SECONDS
from limited.models import DraftPick, DraftPod
from limited.wsgi import DraftPolls
from tests.wsgi_downstream import Downstream

from .draft_phones import call, call_with_body, pick

pytestmark = pytest.mark.django_db(transaction=True)


def _page(pod):
    return f"/tournaments/{pod['event']}/draft/?fragment=1"


def _held_tag(phone, url):
    """The tag the page holds (its first fragment), as draft.js sends it with every poll."""
    first = phone["browser"].get(url)
    assert first.status_code == 200
    return first["ETag"]


def _pass(pod):
    for phone in pod["phones"]:
        assert pick(phone, pod["event"]).status_code == 201


def _passed(pod):
    """The fast path over a stand-in for Django, and my phone holding its first box's tag when its pod has
    passed to pick 2."""
    django = Downstream()
    me, url = pod["phones"][0], _page(pod)
    held = _held_tag(me, url)
    _pass(pod)
    return django, DraftPolls(django), me, url, held


def _without_clock(html: str) -> str:
    return re.sub(r'data-now="[^"]*"', "", html)


def test_the_new_box_after_the_pass_is_the_views_own_answered_before_django(pod):
    django, app, me, url, held = _passed(pod)
    with CaptureQueriesContext(connection) as queries:
        status, headers, body = call_with_body(app, url, held, cookie=me["cookie"])
    assert status.startswith("200") and django.calls == 0
    view = me["browser"].get(url, HTTP_IF_NONE_MATCH=held)
    assert view.status_code == 200 and headers["ETag"] == view["ETag"] != held
    assert _without_clock(body.decode()) == _without_clock(view.content.decode())
    assert "Pack 1, pick 2" in body.decode() and 'name="card"' in body.decode()
    assert "csrfmiddlewaretoken" not in body.decode()  # the page's script gives the form the page's token
    # The session, the seat's state with the account, the event, the player, the seat's state and its picks.
    assert len(queries) <= 6, [q["sql"] for q in queries]
    # What the site's middleware gives every page: no framing, the CSP, no sniffing, the language, no caching
    # without asking again.
    assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY
    assert (
        headers["Referrer-Policy"] == "same-origin" and headers["Cross-Origin-Opener-Policy"] == "same-origin"
    )
    assert headers["Content-Type"] == "text/html; charset=utf-8" and headers["Cache-Control"] == "no-cache"
    assert headers["Content-Language"] == "en" and "Cookie" in headers["Vary"]
    assert int(headers["Content-Length"]) == len(body)
    # The new tag is current: the next poll is a 304, before Django.
    assert call(app, url, headers["ETag"], cookie=me["cookie"])[0].startswith("304") and django.calls == 0


def test_my_own_pick_shows_waiting_before_django(pod):
    django = Downstream()
    app = DraftPolls(django)
    me, url = pod["phones"][0], _page(pod)
    held = _held_tag(me, url)
    assert pick(me, pod["event"]).status_code == 201
    status, _headers, body = call_with_body(app, url, held, cookie=me["cookie"])
    assert status.startswith("200") and django.calls == 0
    assert 'data-testid="draft-waiting"' in body.decode()


def test_the_box_comes_in_the_language_django_would_pick(pod):
    django, app, me, url, held = _passed(pod)
    status, headers, body = call_with_body(
        app, url, held, cookie=me["cookie"], HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9"
    )
    assert status.startswith("200") and headers["Content-Language"] == "ru"
    assert "Бустер 1, пик 2" in body.decode() and "Pack 1" not in body.decode()
    russian_view = me["browser"].get(url, HTTP_ACCEPT_LANGUAGE="ru-RU,ru;q=0.9")
    assert _without_clock(body.decode()) == _without_clock(russian_view.content.decode())
    # The language the person chose (the cookie) wins over the browser's.
    english = f"{me['cookie']}; {settings.LANGUAGE_COOKIE_NAME}=en"
    status, headers, body = call_with_body(app, url, held, cookie=english, HTTP_ACCEPT_LANGUAGE="ru")
    assert headers["Content-Language"] == "en" and "Pack 1, pick 2" in body.decode()
    assert django.calls == 0


def test_a_phone_that_takes_gzip_gets_it(pod):
    _django, app, me, url, held = _passed(pod)
    plain = call_with_body(app, url, held, cookie=me["cookie"])[2]
    _status, headers, packed = call_with_body(
        app, url, held, cookie=me["cookie"], HTTP_ACCEPT_ENCODING="gzip, br"
    )
    assert headers["Content-Encoding"] == "gzip" and len(packed) < len(plain)
    assert _without_clock(gzip.decompress(packed).decode()) == _without_clock(plain.decode())


@pytest.mark.parametrize(
    "who", ["no session", "another player's session", "another seat's tag", "a Host not allowed"]
)
def test_a_changed_poll_not_certainly_the_players_own_goes_to_django(pod, who):
    django = Downstream()
    app = DraftPolls(django)
    me, other, url = pod["phones"][0], pod["phones"][1], _page(pod)
    held, others = _held_tag(me, url), _held_tag(other, url)
    _pass(pod)
    etag, cookie = held, me["cookie"]
    if who == "no session":
        cookie = ""
    elif who == "another player's session":
        cookie = other["cookie"]  # my tag with another phone's session: nothing of my seat is shown here
    elif who == "another seat's tag":
        etag = others  # my session with the other seat's tag: the box shown (by Django) is mine, never theirs
    extra = {"HTTP_HOST": "evil.example"} if who == "a Host not allowed" else {}
    status, _headers, body = call_with_body(app, url, etag, cookie=cookie, **extra)
    assert status.startswith("200") and body == b"django" and django.calls == 1


def test_a_poll_whose_timer_ran_out_goes_to_django_which_picks_for_the_sleeping_seats(pod):
    """MTR Appendix B pick times (limited/engine/draft.py): "A seat whose timer runs out gets an automatic
    pick, so one phone that sleeps or loses the Wi-Fi never holds its pod up" — a write this fast path
    leaves to Django."""
    django = Downstream()
    app = DraftPolls(django)
    me, url = pod["phones"][0], _page(pod)
    held = _held_tag(me, url)
    assert pick(me, pod["event"]).status_code == 201  # the box changed, and the pod's time is up
    DraftPod.objects.update(deadline=timezone.now() - timedelta(seconds=PICK_GRACE_SECONDS + 1))
    assert call(app, url, held, cookie=me["cookie"])[0].startswith("200") and django.calls == 1
    assert DraftPick.objects.count() == 1  # nothing picked here; the view runs the timer
    assert "Pack 1, pick 2" in me["browser"].get(url, HTTP_IF_NONE_MATCH=held).content.decode()
    assert DraftPick.objects.filter(auto=True).count() == 3
