"""The backend finds a session's account as Django's ModelBackend does (by primary key, active accounts only),
in one statement whatever the id it is given."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.backends import LockoutModelBackend


def test_it_finds_the_account_a_session_names(make_user: Any) -> None:
    alice = make_user("alice")
    backend = LockoutModelBackend()
    with CaptureQueriesContext(connection) as queries:
        found = backend.get_user(alice.pk)
    assert found == alice and found.username == "alice" and found.check_password("s3cret-Pass!")
    assert found.get_session_auth_hash() == alice.get_session_auth_hash()
    assert len(queries.captured_queries) == 1
    assert backend.get_user(str(alice.pk)) == alice


def test_nobody_for_an_inactive_unknown_or_impossible_id(make_user: Any) -> None:
    bob = make_user("bob")
    bob.is_active = False
    bob.save(update_fields=["is_active"])
    backend = LockoutModelBackend()
    for user_id in (bob.pk, bob.pk + 1000, 0, -1, 2**63, 10**40, "x", None, "1.5"):
        assert backend.get_user(user_id) is None, user_id


def test_a_deactivated_account_is_signed_out_of_its_pages(client: Any, make_user: Any) -> None:
    carol = make_user("carol")
    assert client.login(username="carol", password="s3cret-Pass!")
    assert client.get("/decks/").wsgi_request.user == carol
    carol.is_active = False
    carol.save(update_fields=["is_active"])
    assert not client.get("/decks/").wsgi_request.user.is_authenticated
