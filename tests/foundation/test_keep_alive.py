"""Connections outlive the live pages' poll: a phone that asks every 4 s keeps one connection instead of
paying a new TCP handshake per poll (gunicorn's default keep-alive is 2 s)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from django.conf import settings

from tournaments.live import POLL_MS

ROOT = Path(settings.BASE_DIR)


def test_every_gunicorn_started_from_the_project_keeps_connections_longer_than_a_poll(
    monkeypatch: pytest.MonkeyPatch,
):
    """gunicorn reads ./gunicorn.conf.py by itself: the production command line of the README, .ci/cluster
    and `make venue` all start in the project directory."""
    from gunicorn.app.wsgiapp import WSGIApplication

    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "argv", ["gunicorn", "config.wsgi", "--workers", "4", "--bind", "0.0.0.0:8000"])
    app = WSGIApplication()
    assert app.cfg.keepalive > POLL_MS / 1000
    assert app.cfg.keepalive <= 30  # an idle phone must not hold a worker thread for long


def test_the_venue_server_keeps_connections_longer_than_a_poll():
    source = (ROOT / "venue" / "management" / "commands" / "venue.py").read_text()
    seconds = int(source.split('"--keep-alive", "', 1)[1].split('"', 1)[0])
    assert seconds > POLL_MS / 1000
