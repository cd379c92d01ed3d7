"""API tokens are stored as SHA-256 digests, shown once, and the migration hashes the tokens that were
stored in plain text (the venue database held 307 API tokens in plain text)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from accounts.models import ApiToken

CREDENTIALS = {"username": "alice", "password": "s3cret-Pass!"}


def _dump() -> str:
    """Every value of every table the tokens could sit in."""
    with connection.cursor() as cursor:
        rows = []
        for table in ("accounts_apitoken", "authtoken_token"):
            cursor.execute(f"SELECT * FROM {table}")
            rows += cursor.fetchall()
    return repr(rows)


@pytest.mark.django_db
def test_a_token_is_shown_once_stored_as_a_digest_and_accepted(user: Any) -> None:
    first = APIClient().post("/api/auth/token/", CREDENTIALS, format="json").json()["token"]
    second = APIClient().post("/api/auth/token/", CREDENTIALS, format="json").json()["token"]
    assert first != second and len(first) == 40
    stored = _dump()
    assert first not in stored and second not in stored
    assert hashlib.sha256(first.encode()).hexdigest() in stored
    for token in (first, second):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        assert client.get("/api/decks/").status_code == 200
    forged = APIClient()
    forged.credentials(HTTP_AUTHORIZATION=f"Token {hashlib.sha256(first.encode()).hexdigest()}")
    assert forged.get("/api/decks/").status_code in (401, 403)


@pytest.mark.django_db(transaction=True)
def test_the_migration_hashes_the_plain_text_tokens_and_clients_keep_working() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([("accounts", "0002_harden_attempt_counter")])
    before = [("accounts", "0002_harden_attempt_counter"), ("authtoken", "0004_alter_tokenproxy_options")]
    old_apps = executor.loader.project_state(before).apps
    user = old_apps.get_model("accounts", "User").objects.create(username="olduser", password="!")
    old_apps.get_model("authtoken", "Token").objects.create(key="a" * 40, user=user)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert "a" * 40 not in _dump()
    assert ApiToken.objects.get(user_id=user.pk).digest == hashlib.sha256(b"a" * 40).hexdigest()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {'a' * 40}")
    assert client.get("/api/decks/").status_code == 200
