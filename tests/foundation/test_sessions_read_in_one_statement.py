"""The site's sessions (config/sessions.py) are Django's database sessions read in one plain statement: the
same table and data, so a session written by either engine is read by the other, and an expired or unknown
key is nobody's."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends import db as django_db
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.sessions import SessionStore


def test_the_site_uses_these_sessions() -> None:
    assert settings.SESSION_ENGINE == "config.sessions"


def test_a_session_django_wrote_reads_the_same(make_user: Any) -> None:
    user = make_user("alice")
    written = django_db.SessionStore()
    written[SESSION_KEY] = str(user.pk)
    written["cart"] = ["<b>", 3]
    written.save()
    read = SessionStore(written.session_key)
    with CaptureQueriesContext(connection) as queries:
        assert read[SESSION_KEY] == str(user.pk) and read["cart"] == ["<b>", 3]
    assert len(queries.captured_queries) == 1
    # …and the other way round: what this engine saves, Django's reads.
    read["cart"] = []
    read.save()
    assert django_db.SessionStore(written.session_key)["cart"] == []


def test_an_expired_or_unknown_key_is_nobody(make_user: Any) -> None:
    store = SessionStore()
    store["x"] = 1
    store.save()
    Session.objects.filter(session_key=store.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    expired = SessionStore(store.session_key)
    assert expired.load() == {} and expired.session_key is None
    for key in ("nope", "z" * 32, "'; DROP TABLE django_session; --"):
        unknown = SessionStore(key)
        assert unknown.load() == {} and unknown.session_key is None
    assert Session.objects.count() == 1


def test_a_signed_in_page_reads_its_session(client: Any, make_user: Any) -> None:
    make_user("alice")
    assert client.login(username="alice", password="s3cret-Pass!")
    assert client.get("/decks/").wsgi_request.user.username == "alice"
    client.logout()
    assert not client.get("/decks/").wsgi_request.user.is_authenticated
