"""Venue mode's settings, as a fresh process started by `make venue` sees them."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, django
from django.conf import settings
django.setup()
from django.core.management import call_command
db = settings.DATABASES["default"]
print(json.dumps({
    "debug": settings.DEBUG, "key": settings.SECRET_KEY, "hosts": settings.ALLOWED_HOSTS,
    "csrf": settings.CSRF_TRUSTED_ORIGINS, "ssl": getattr(settings, "SECURE_SSL_REDIRECT", False),
    "hsts": getattr(settings, "SECURE_HSTS_SECONDS", 0), "secure_cookie": settings.SESSION_COOKIE_SECURE,
    "init": db["OPTIONS"].get("init_command", ""), "mode": db["OPTIONS"].get("transaction_mode"),
    "timeout": db["OPTIONS"].get("timeout"), "snapshots": settings.VENUE_SNAPSHOTS,
    "storage": settings.STORAGES["staticfiles"]["BACKEND"],
}))
"""


def _settings(tmp_path: Path, **extra: str) -> dict[str, object]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS"}
    }
    env.update(
        DECKHALL_VENUE="1",
        DECKHALL_VENUE_DIR=str(tmp_path),
        PORT="8080",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    env.update(extra)
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_venue_mode_is_a_production_server_for_plain_http_on_the_lan(tmp_path: Path) -> None:
    first = _settings(tmp_path)
    assert first["debug"] is False and first["snapshots"] is True
    assert first["ssl"] is False and first["hsts"] == 0 and first["secure_cookie"] is False
    hostname = socket.gethostname().split(".")[0]
    assert {"localhost", "127.0.0.1", f"{hostname}.local"} <= set(first["hosts"])  # type: ignore[arg-type]
    assert f"http://{hostname}.local:8080" in first["csrf"]  # type: ignore[operator]
    assert "journal_mode=WAL" in str(first["init"]) and first["mode"] == "IMMEDIATE" and first["timeout"]
    assert first["storage"].endswith("CompressedManifestStaticFilesStorage")  # type: ignore[union-attr]
    # The generated key is kept: sessions survive a restart.
    assert len(str(first["key"])) >= 50 and _settings(tmp_path)["key"] == first["key"]
