"""Fixtures shared by the whole suite."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

# Playwright's sync API runs an event loop in this thread; Django's async-safety guard would
# otherwise refuse ORM calls made by live_server fixtures in the same process.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session", autouse=True)
def _flush_after_the_live_server_answered() -> None:
    """The tables are emptied after a transactional test only once the live server's threads have answered
    (tests/live_server_idle.py says why)."""
    from tests import live_server_idle

    live_server_idle.install()


@pytest.fixture(autouse=True)
def _celery_eager_unless_broker_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """Ordinary tests run Celery tasks in-process even when CELERY_BROKER_URL is set (the
    PostgreSQL + Redis CI leg), so they stay independent of worker timing; tests marked
    `broker` send their tasks through Redis to a real worker process instead."""
    if request.node.get_closest_marker("broker"):
        yield
        return
    from config.celery import app

    previous = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = previous


@pytest.fixture(autouse=True)
def _english_again_after_each_test() -> Iterator[None]:
    """A request in another language (a ``django_language`` cookie) leaves that language active in the
    thread (LocaleMiddleware activates it and nothing deactivates it): the next test would read Russian."""
    yield
    from django.utils import translation

    translation.deactivate()


def worker_cache_url() -> str:
    """The cache URL of this test process. With Redis, each pytest-xdist process gets a database of its own
    (the configured one + the worker's index): tests clear the cache, and Redis clears a whole database
    (FLUSHDB), so one process's clear would wipe the failure counts another process's lockout test is
    building."""
    url = settings.CACHE_URL
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not url.startswith("redis://") or not worker.startswith("gw"):
        return url
    base, _slash, number = url.rpartition("/")
    database = (int(number) if number.isdigit() else 0) + int(worker[2:])
    if database > 15:
        raise pytest.UsageError(
            f"{worker}: Redis database {database} does not exist (0-15); run fewer processes"
        )
    return f"{base}/{database}"


@pytest.fixture(scope="session", autouse=True)
def _a_redis_database_per_test_process() -> Iterator[None]:
    url = worker_cache_url()
    if url == settings.CACHE_URL:
        yield
        return
    from django.test.utils import override_settings

    caches = {**settings.CACHES, "default": {**settings.CACHES["default"], "LOCATION": url}}
    with override_settings(CACHES=caches):
        yield


@pytest.fixture(autouse=True)
def _an_empty_cache_per_test(_a_redis_database_per_test_process: None) -> None:
    """Each test's database is rolled back, so the next test reuses the same ids and version counters:
    cached pages and standings keyed by (event id, version) would otherwise leak from one test into
    another. In production ids are never reused, so those keys are unique there."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _no_login_lockout_between_tests(settings: Any) -> None:
    """Every test client logs in from 127.0.0.1, and in the PostgreSQL leg the cache (Redis) is shared
    by all test processes: failed log-ins of unrelated tests must not lock the address out. The
    lockout test sets its own limit."""
    settings.LOGIN_MAX_FAILURES = 1_000_000
    settings.LOGIN_ADDRESS_MAX_FAILURES = 1_000_000


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The read-only real data beside the repo (../shared/data); tests needing it skip without it."""
    path = Path(settings.SHARED_DATA_DIR)
    if not path.is_dir():
        pytest.skip(f"shared data not found at {path} (set DECKHALL_SHARED_DATA or check out ../shared)")
    return path


@pytest.fixture
def pdf_text(tmp_path: Path) -> Callable[..., str]:
    """The text of a PDF as poppler's pdftotext reads it (what a person would copy from the page);
    skips the test where poppler-utils is not installed."""
    import subprocess

    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")

    def extract(content: bytes, *, layout: bool = True) -> str:
        path = tmp_path / "document.pdf"
        path.write_bytes(content)
        command = ["pdftotext", *(["-layout"] if layout else []), str(path), "-"]
        return subprocess.run(command, check=True, capture_output=True, text=True).stdout

    return extract


@pytest.fixture
def games(db: Any) -> dict[str, Any]:
    from cards.games import games_sync

    games_sync()
    from cards.models import Game

    return {game.slug: game for game in Game.objects.all()}


@pytest.fixture
def make_user(db: Any) -> Callable[..., Any]:
    from accounts.models import User

    def make(username: str = "player", *, organizer: bool = False, password: str = "s3cret-Pass!") -> Any:
        user = User.objects.create_user(username=username, password=password, email=f"{username}@example.com")
        user.is_organizer = organizer
        user.save(update_fields=["is_organizer"])
        return user

    return make


@pytest.fixture
def user(make_user: Callable[..., Any]) -> Any:
    return make_user("alice")


@pytest.fixture
def other_user(make_user: Callable[..., Any]) -> Any:
    return make_user("bob")


@pytest.fixture
def organizer(make_user: Callable[..., Any]) -> Any:
    return make_user("olga", organizer=True)


@pytest.fixture
def api_client() -> Any:
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture
def api_client_for() -> Callable[[Any], Any]:
    """An API client authenticated as the given user (force_authenticate keeps tests independent of auth)."""
    from rest_framework.test import APIClient

    def make(user: Any) -> Any:
        client = APIClient()
        client.force_authenticate(user=user)
        return client

    return make


def _chromium_path() -> str | None:
    explicit = os.environ.get("CHROMIUM_PATH")
    if explicit:
        return explicit
    for candidate in CHROMIUM_CANDIDATES:
        if Path(candidate).exists():
            return candidate
    return shutil.which("chromium")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    path = _chromium_path()
    if path is None:
        pytest.skip("Chromium is not installed (apt-get install chromium); browser tests need it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_ARGS)
        from tests import live_server_idle

        live_server_idle.watch_browser(browser)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any, live_server: Any) -> Iterator[Any]:
    """A fresh browser page; `page.base_url` is the live server's address."""
    # bypass_csp: Playwright's wait_for_function polls by evaluating strings in the page, which the site's
    # Content-Security-Policy (no eval) refuses; tests/security/test_browser_csp.py checks the pages
    # with the policy enforced.
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900}, bypass_csp=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.base_url = live_server.url  # type: ignore[attr-defined]
    # Fail loudly if any page tries to reach the internet (the product must not use CDNs).
    external: list[str] = []

    def guard(route: Any) -> None:
        url = route.request.url
        if url.startswith(live_server.url) or url.startswith("data:") or url.startswith("blob:"):
            route.continue_()
        else:
            external.append(url)
            route.abort()

    page.route("**/*", guard)
    page.external_requests = external  # type: ignore[attr-defined]
    yield page
    context.close()
    assert not external, f"pages tried to load external resources: {external}"


def login_in_browser(page: Any, username: str, password: str = "s3cret-Pass!") -> None:
    page.goto(page.base_url + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def celery_worker_start(queue: str, *, extra_env: dict[str, str] | None = None, pool: str = "solo") -> Any:
    """Start a real `celery worker` process consuming `queue`, against this test process's database, and
    wait until it answers a ping. The caller stops it."""
    import socket
    import subprocess
    import sys
    import time

    from django.db import connection

    env = dict(os.environ)
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("postgresql"):
        env["DATABASE_URL"] = (
            f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/"
            f"{connection.settings_dict['NAME']}"
        )
    else:
        env["DATABASE_URL"] = f"sqlite:///{connection.settings_dict['NAME']}"
    env["CACHE_URL"] = worker_cache_url()  # the worker's cache writes (versions, progress) are this process's
    env["CELERY_TASK_DEFAULT_QUEUE"] = queue  # what the worker queues itself (re-runs) stays on its queue
    env.update(extra_env or {})
    root = Path(__file__).resolve().parents[1]
    from config.celery import app

    worker_name = f"{queue}-{time.monotonic_ns()}@{socket.gethostname()}"
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        f"--pool={pool}",
        "--loglevel=WARNING",
    ]
    command += ["--without-gossip", "--without-mingle", "--without-heartbeat", "-Q", queue, "-n", worker_name]
    if pool == "prefork":
        command += ["--concurrency", "1"]
    worker = subprocess.Popen(command, cwd=root, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            pytest.fail(f"celery worker exited with {worker.returncode}")
        if app.control.ping(destination=[worker_name], timeout=1.0):
            return worker
    worker.terminate()
    pytest.fail("celery worker did not answer a ping within 60 s")


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Any]:
    """A real `celery worker` process on the configured Redis broker.

    Skips on the embedded default (eager Celery). The worker talks to the *test* database,
    so tasks it runs see rows a `transactional_db` test has committed.
    """
    import subprocess

    if not settings.CELERY_BROKER_URL:
        pytest.skip("CELERY_BROKER_URL is not set: Celery runs eagerly (this test needs Redis + a worker)")
    from config.celery import app

    # A queue of this test process's own: under pytest-xdist every process has its own test database,
    # so a task must reach the Celery worker started against that database.
    queue = f"deckhall-test-{os.getpid()}"
    app.conf.task_default_queue = queue
    worker = celery_worker_start(queue)
    yield worker
    worker.terminate()
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        worker.kill()
