"""A database that stays locked longer than a writer waits answers 503 with Retry-After, never 500
(a player's save answered 500 "database is locked" while another request held the lock)."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.db import OperationalError
from django.test import Client
from rest_framework.test import APIClient

LOCKED = OperationalError("database is locked")


@pytest.mark.django_db
def test_a_page_whose_write_finds_the_database_locked_answers_503(user: Any) -> None:
    client = Client(raise_request_exception=False)
    with mock.patch("accounts.views.ThrottledLoginView.post", side_effect=LOCKED):
        response = client.post("/accounts/login/", {"username": "alice", "password": "x"})
    assert response.status_code == 503, response.status_code
    assert response["Retry-After"] == "2"
    assert "try again" in response.content.decode()


@pytest.mark.django_db
def test_an_api_write_that_finds_the_database_locked_answers_503_json(user: Any) -> None:
    client = APIClient(raise_request_exception=False)
    with mock.patch("config.api_views.ObtainTokenView.post", side_effect=LOCKED):
        response = client.post("/api/auth/token/", {"username": "alice", "password": "x"}, format="json")
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert "try again" in response.json()["detail"]


@pytest.mark.django_db
def test_a_lock_met_outside_the_view_answers_503_too(user: Any) -> None:
    """The session middleware saves the session after the view: a lock there is not a view exception."""
    client = Client(raise_request_exception=False)
    with mock.patch("django.contrib.sessions.backends.db.SessionStore.save", side_effect=LOCKED):
        response = client.post("/accounts/login/", {"username": "alice", "password": "s3cret-Pass!"})
    assert response.status_code == 503
    assert response["Retry-After"] == "2"


@pytest.mark.django_db
def test_other_database_errors_stay_server_errors(user: Any) -> None:
    client = Client(raise_request_exception=False)
    with mock.patch("accounts.views.ThrottledLoginView.post", side_effect=OperationalError("no such table")):
        response = client.post("/accounts/login/", {"username": "alice", "password": "x"})
    assert response.status_code == 500
