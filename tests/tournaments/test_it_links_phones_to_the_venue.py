"""Links and QR codes name an address phones can open: in venue mode the laptop's LAN address, whatever the
organizer typed; a page opened as localhost says so. Everyone finds "Join an event — enter the code"; the
installable app's manifest and service worker are served from the site root."""

from __future__ import annotations

import json

import pytest
from django.conf import settings as django_settings
from django.test import Client

from venue import lan

from .factories import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(games, organizer):  # type: ignore[no-untyped-def]
    return make_event(organizer, games["yugioh"], name="LAN Cup", rounds=3)


def _poster(organizer, event, host: str) -> str:  # type: ignore[no-untyped-def]
    client = Client(HTTP_HOST=host)
    client.force_login(organizer)
    response = client.get(f"/tournaments/{event.pk}/poster/")
    assert response.status_code == 200
    return response.content.decode()


def test_venue_mode_links_name_the_lan_address_and_warn_on_localhost(settings, monkeypatch, organizer, event):
    settings.VENUE_MODE = True
    settings.ALLOWED_HOSTS = ["*"]
    monkeypatch.setattr(lan, "primary_address", lambda: "10.1.2.3")
    page = _poster(organizer, event, "127.0.0.1:8000")
    assert f"http://10.1.2.3:8000/tournaments/join/{event.join_code}/" in page
    assert "127.0.0.1:8000/tournaments/join" not in page
    assert 'data-testid="loopback-warning"' in page and "You opened this page as 127.0.0.1" in page
    # Opened by the machine's name: still the address, no warning (the name is no loopback).
    by_name = _poster(organizer, event, "venue-laptop.local:8000")
    assert f"http://10.1.2.3:8000/tournaments/join/{event.join_code}/" in by_name
    assert "loopback-warning" not in by_name


def test_a_laptop_without_a_network_is_told_to_join_the_wifi(settings, monkeypatch, organizer, event):
    settings.VENUE_MODE = True
    settings.ALLOWED_HOSTS = ["*"]
    monkeypatch.setattr(lan, "primary_address", lambda: None)
    page = _poster(organizer, event, "localhost:8000")
    assert "has no network address" in page and "http://localhost:8000/tournaments/join/" in page


def test_outside_venue_mode_the_host_is_kept_and_localhost_is_warned_about(
    settings, monkeypatch, organizer, event
):
    settings.ALLOWED_HOSTS = ["*"]
    monkeypatch.setattr(lan, "primary_address", lambda: "10.1.2.3")
    page = _poster(organizer, event, "deckhall.example.org")
    assert f"http://deckhall.example.org/tournaments/join/{event.join_code}/" in page
    assert "loopback-warning" not in page
    # `make run` listens on loopback only: the LAN address would lead nowhere, so only the warning changes.
    local = _poster(organizer, event, "127.0.0.1:8000")
    assert "http://127.0.0.1:8000/tournaments/join/" in local and "10.1.2.3" not in local
    assert "Run the event with make venue" in local


def test_loopback_hosts_are_recognised():
    assert all(
        lan.is_loopback_host(h) for h in ("localhost", "127.0.0.1", "127.8.0.1", "[::1]", "a.localhost")
    )
    assert not any(lan.is_loopback_host(h) for h in ("10.0.0.2", "venue.local", "[fe80::1]", "example.org"))
    assert lan.split_host("[::1]:8000") == ("[::1]", "8000") and lan.split_host("10.0.0.2") == (
        "10.0.0.2",
        "",
    )
    assert lan.split_host("host.local:80") == ("host.local", "80")


def test_everyone_finds_the_way_in_and_anonymous_visitors_on_an_event_page(settings, client, event):
    home = client.get("/").content.decode()
    assert 'data-testid="home-join"' in home and 'data-testid="nav-join"' in home
    page = client.get(f"/tournaments/{event.pk}/").content.decode()
    assert 'data-testid="join-by-code"' in page
    # Online the code stays on the organizer's pages; on the venue's own network it is filled in.
    assert f'value="{event.join_code}"' not in page
    settings.VENUE_MODE = True
    assert f'value="{event.join_code}"' in client.get(f"/tournaments/{event.pk}/").content.decode()
    assert client.get("/tournaments/join/?code=" + event.join_code.lower()).status_code == 302


def test_the_app_manifest_and_service_worker_are_served_from_the_root(client):
    manifest = client.get("/manifest.webmanifest")
    assert manifest.status_code == 200 and manifest["Content-Type"] == "application/manifest+json"
    data = json.loads(manifest.content)
    assert data["display"] == "standalone" and data["scope"] == "/"
    for icon in data["icons"]:
        path = django_settings.BASE_DIR / "static" / icon["src"].removeprefix(django_settings.STATIC_URL)
        assert path.is_file(), icon
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker["Service-Worker-Allowed"] == "/"
    assert worker["Content-Type"].startswith("text/javascript") and "no-cache" in worker["Cache-Control"]
    assert b'addEventListener("fetch"' in worker.content
