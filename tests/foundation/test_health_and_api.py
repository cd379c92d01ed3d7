"""Health check, API root, OpenAPI schema, games list and token authentication."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.db.utils import OperationalError

pytestmark = pytest.mark.django_db

# The five games of the product card plus Magic: The Gathering, the sixth made of a rule-set file only.
GAME_SLUGS = {"everseal", "twindeck", "yugioh", "caster", "vale", "mtg"}


def test_it_reports_healthy_database_and_broker(client: Any) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is True


def test_it_answers_503_when_the_database_is_down(client: Any) -> None:
    with mock.patch("config.views.connection.cursor", side_effect=OperationalError("down")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == {"ok": False, "detail": "OperationalError"}


def test_it_answers_503_when_the_broker_is_unreachable(client: Any, settings: Any) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["broker"]["ok"] is False


def test_it_lists_the_five_games_with_their_formats(client: Any, games: dict[str, Any]) -> None:
    response = client.get("/api/games/")
    assert response.status_code == 200
    body = response.json()
    assert {game["slug"] for game in body} == GAME_SLUGS
    by_slug = {game["slug"]: game for game in body}
    assert {"advanced", "traditional", "ocg", "goat"} <= {f["slug"] for f in by_slug["yugioh"]["formats"]}
    assert {"basic", "limited"} <= {f["slug"] for f in by_slug["twindeck"]["formats"]}
    for game in body:
        assert game["name"], game
        assert game["formats"], f"{game['slug']} has no formats"
        assert all(set(f) >= {"slug", "name"} for f in game["formats"])


def test_it_keeps_an_edited_game_name_when_games_are_synced_again(games: dict[str, Any]) -> None:
    from cards.games import games_sync

    twin = games["twindeck"]
    twin.name = "Близнецы"
    twin.save(update_fields=["name"])
    games_sync()
    twin.refresh_from_db()
    assert twin.name == "Близнецы"


def test_it_serves_the_openapi_schema_and_docs_without_a_cdn(client: Any) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    assert "/api/games/" in schema.json()["paths"]
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "cdn.jsdelivr" not in html and "unpkg" not in html
    assert "/static/drf_spectacular_sidecar/" in html


def test_it_lists_the_endpoints_at_the_api_root(client: Any) -> None:
    body = client.get("/api/").json()
    assert body["games"].endswith("/api/games/")
    assert body["token"].endswith("/api/auth/token/")


def test_it_issues_a_token_for_valid_credentials_and_accepts_it(api_client: Any, user: Any) -> None:
    response = api_client.post(
        "/api/auth/token/", {"username": "alice", "password": "s3cret-Pass!"}, format="json"
    )
    assert response.status_code == 200
    token = response.json()["token"]
    assert len(token) == 40
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api_client.post("/api/auth/token/", {}, format="json").status_code == 400


def test_it_refuses_a_token_for_a_wrong_password(api_client: Any, user: Any) -> None:
    response = api_client.post("/api/auth/token/", {"username": "alice", "password": "nope"}, format="json")
    assert response.status_code == 401 and response["WWW-Authenticate"].startswith("Token")
    assert "token" not in response.json() and "Unable to log in" in str(response.json())


def test_it_creates_a_superuser_without_prompting(monkeypatch: Any) -> None:
    from django.core.management import call_command

    from accounts.models import User

    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "Another-s3cret")
    call_command("createsuperuser", "--noinput", username="root", email="root@example.com")
    root = User.objects.get(username="root")
    assert root.is_superuser and root.check_password("Another-s3cret")


def test_it_answers_a_load_balancer_probe_by_ip_over_http_in_production(client: Any, settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["deckhall.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    probe = client.get("/healthz", HTTP_HOST="10.0.0.5")
    assert probe.status_code == 200
    assert probe.json()["status"] == "ok"
    # Every other page still refuses an unknown host.
    assert client.get("/", HTTP_HOST="10.0.0.5").status_code == 400


def test_it_throttles_password_guessing_on_the_token_endpoint(
    api_client: Any, user: Any, settings: Any
) -> None:
    from django.core.cache import cache
    from rest_framework.throttling import ScopedRateThrottle

    cache.clear()
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "auth": "3/min"}
    original = ScopedRateThrottle.THROTTLE_RATES
    ScopedRateThrottle.THROTTLE_RATES = rates
    try:
        codes = [
            api_client.post(
                "/api/auth/token/", {"username": "alice", "password": f"guess{i}"}, format="json"
            ).status_code
            for i in range(4)
        ]
    finally:
        ScopedRateThrottle.THROTTLE_RATES = original
        cache.clear()
    assert codes == [401, 401, 401, 429]


@pytest.fixture
def broker_without_eager(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A configured, reachable broker (stubbed) with tasks going to workers, and no cached ping."""
    from django.core.cache import cache

    from config import views
    from config.celery import app

    settings.CELERY_BROKER_URL = "redis://broker.invalid:6379/0"
    monkeypatch.setattr(views, "_broker_ok", lambda: (True, "redis"))
    cache.delete(views.WORKERS_CACHE_KEY)
    eager, app.conf.task_always_eager = app.conf.task_always_eager, False
    yield app
    app.conf.task_always_eager = eager
    cache.delete(views.WORKERS_CACHE_KEY)


def test_it_answers_503_when_no_celery_worker_answers(client: Any, broker_without_eager: Any) -> None:
    with mock.patch.object(broker_without_eager.control, "ping", return_value=[]) as ping:
        response = client.get("/healthz")
    assert response.status_code == 503 and ping.called
    assert response.json()["workers"] == {"ok": False, "detail": "no worker answered"}


def test_it_pings_the_workers_once_per_few_seconds(client: Any, broker_without_eager: Any) -> None:
    answer = [{"celery@node1": {"ok": "pong"}}]
    with mock.patch.object(broker_without_eager.control, "ping", return_value=answer) as ping:
        first, second = client.get("/healthz"), client.get("/healthz")
    assert first.status_code == second.status_code == 200
    assert first.json()["workers"]["ok"] is True and ping.call_count == 1
