"""Sign up, log in and out, CSRF and the Russian translation of the site chrome."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_it_signs_up_a_player_and_logs_them_in(client: Any) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newbie",
            "email": "n@example.com",
            "password1": "Very-l0ng-pass",
            "password2": "Very-l0ng-pass",
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="newbie")
    assert user.is_organizer is False
    assert client.get("/").context["user"] == user


def test_it_rejects_a_signup_with_mismatched_passwords_and_creates_nobody(client: Any) -> None:
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newbie",
            "email": "n@example.com",
            "password1": "Very-l0ng-pass",
            "password2": "other-pass-1",
        },
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="newbie").exists()
    assert "password" in response.content.decode().lower()


def test_it_logs_in_and_out(client: Any, user: Any) -> None:
    response = client.post("/accounts/login/", {"username": "alice", "password": "s3cret-Pass!"})
    assert response.status_code == 302
    assert client.get("/").context["user"].is_authenticated
    client.post("/accounts/logout/")
    assert not client.get("/").context["user"].is_authenticated


def test_it_requires_a_csrf_token_for_login() -> None:
    strict = Client(enforce_csrf_checks=True)
    response = strict.post("/accounts/login/", {"username": "x", "password": "y"})
    assert response.status_code == 403


def test_it_escapes_a_hostile_username_in_the_navigation(client: Any, make_user: Any) -> None:
    hostile = make_user("<script>x</script>")
    client.force_login(hostile)
    html = client.get("/").content.decode()
    assert "<script>x</script>" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html


def test_it_switches_the_interface_to_russian(client: Any, games: Any) -> None:
    response = client.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    assert response.status_code == 302
    html = client.get("/").content.decode()
    assert "Войти" in html and "Регистрация" in html
    assert 'lang="ru"' in html


def test_it_shows_the_games_on_the_home_page(client: Any, games: Any) -> None:
    html = client.get("/").content.decode()
    assert "Yu-Gi-Oh!" in html
    assert "The Vale of Eternity" in html or "Vale of Eternity" in html


def test_it_stops_password_guessing_on_the_login_page(client: Any, user: Any, settings: Any) -> None:
    from django.core.cache import cache

    cache.clear()
    settings.LOGIN_MAX_FAILURES = 3
    for attempt in range(3):
        assert (
            client.post("/accounts/login/", {"username": "alice", "password": f"guess{attempt}"}).status_code
            == 200
        )
    refused = client.post("/accounts/login/", {"username": "alice", "password": "s3cret-Pass!"})
    assert refused.status_code == 429
    assert "Too many failed log-in attempts" in refused.content.decode()
    assert not refused.wsgi_request.user.is_authenticated
    # The counters live in the database: clearing (or evicting from) the cache does not lift the lock ...
    cache.clear()
    assert (
        client.post("/accounts/login/", {"username": "alice", "password": "s3cret-Pass!"}).status_code == 429
    )
    # ... the end of LOGIN_LOCKOUT_SECONDS does.
    from accounts.models import AttemptCounter

    AttemptCounter.objects.update(expires_at=timezone.now())
    assert (
        client.post("/accounts/login/", {"username": "alice", "password": "s3cret-Pass!"}).status_code == 302
    )
