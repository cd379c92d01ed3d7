"""The settings module: runs with no environment, refuses unsafe production configs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "k" * 20 + "-production-secret-key-that-is-long-enough-0123456789"


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {
        key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "CELERY_BROKER_URL"}
    }
    # The test process's own switches must not leak into the checked configuration.
    for key in ("DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE", "CACHE_URL"):
        base.pop(key, None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def shell_print(code: str, env: dict[str, str]) -> str:
    result = run_manage("shell", "--no-imports", "-c", code, env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_it_runs_with_no_environment_at_all() -> None:
    result = run_manage("check", env={})
    assert result.returncode == 0, result.stderr


def test_it_refuses_to_start_without_a_secret_key_when_debug_is_off() -> None:
    result = run_manage("check", env={"DEBUG": "false"})
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_it_refuses_a_weak_secret_key_when_debug_is_off() -> None:
    result = run_manage("check", env={"DEBUG": "false", "SECRET_KEY": "short"})
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_it_rejects_a_malformed_boolean_with_the_variable_name() -> None:
    result = run_manage("check", env={"DEBUG": "maybe"})
    assert result.returncode != 0
    assert "DEBUG must be a boolean" in result.stderr


def test_it_passes_the_deployment_checklist_with_production_settings() -> None:
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env={"DEBUG": "false", "SECRET_KEY": STRONG_KEY, "ALLOWED_HOSTS": "deckhall.example.org"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_it_uses_postgresql_when_database_url_is_set() -> None:
    code = "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'])"
    engine = shell_print(code, env={"DATABASE_URL": "postgres://u:p@127.0.0.1:5432/deckhall"})
    assert engine == "django.db.backends.postgresql"


def test_it_runs_celery_eagerly_without_a_broker_and_for_real_with_one() -> None:
    code = "from django.conf import settings; print(settings.CELERY_TASK_ALWAYS_EAGER)"
    assert shell_print(code, env={}) == "True"
    assert shell_print(code, env={"CELERY_BROKER_URL": "redis://127.0.0.1:6379/0"}) == "False"
