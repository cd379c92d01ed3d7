"""The database is emptied after a browser test only once the live server has answered every request.

A browser test ends while a phone's poll may still be on its way through the live server's thread (Playwright
closes the page; the server goes on answering), and a page the test left open (the browser lives for the
whole session) goes on polling into the next tests — the CI log's "Not Found: /tournaments/315/me/live/".
Emptying the tables then (``TRUNCATE`` of every table, the end of each ``transaction=True`` test on
PostgreSQL) meets that request's transaction: they wait on each other, PostgreSQL cancels one, and when it is
the flush, the next test on that process starts with the last one's rows (``duplicate key … username=olga``).
So the flush first closes the pages the test left open, then waits until no request is inside Django in
another thread — counted from Django's own ``request_started`` / ``request_finished`` signals, which every
request through a handler sends, whatever the view.
"""

from __future__ import annotations

import threading
import time
from typing import Any

IDLE_TIMEOUT_SECONDS = 15.0

_changed = threading.Condition()
_busy_threads: set[int] = set()
_browsers: list[Any] = []


def watch_browser(browser: Any) -> None:
    """The session's browser, whose pages a test left open are closed before the flush."""
    _browsers.append(browser)


def close_pages_left_open() -> int:
    """Close every browser context still open (the test is over: nothing of it runs any more); how many."""
    closed = 0
    for browser in _browsers:
        if not browser.is_connected():
            continue
        for context in list(browser.contexts):
            context.close()
            closed += 1
    return closed


def _started(**_kwargs: Any) -> None:
    if threading.current_thread() is threading.main_thread():
        return  # the test's own client: it has its answer before the test goes on
    with _changed:
        _busy_threads.add(threading.get_ident())


def _finished(**_kwargs: Any) -> None:
    with _changed:
        _busy_threads.discard(threading.get_ident())
        _changed.notify_all()


def requests_in_flight() -> int:
    """Requests inside Django in other threads now; a thread that died mid-request (nothing finished it)
    no longer counts."""
    alive = {thread.ident for thread in threading.enumerate()}
    with _changed:
        _busy_threads.intersection_update(alive)
        return len(_busy_threads)


def wait_until_idle(timeout: float = IDLE_TIMEOUT_SECONDS) -> bool:
    """True once no request is in flight; False if ``timeout`` passed first (the caller goes on regardless:
    a server that never finishes a request is its own test's failure, not every later test's)."""
    deadline = time.monotonic() + timeout
    while requests_in_flight():
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        with _changed:
            _changed.wait(min(left, 0.1))
    return True


def install() -> None:
    """Count requests and make the flush at the end of a transactional test wait for them."""
    from django.core.signals import request_finished, request_started
    from django.test import TransactionTestCase

    request_started.connect(_started, dispatch_uid="tests.live_server_idle.started", weak=False)
    request_finished.connect(_finished, dispatch_uid="tests.live_server_idle.finished", weak=False)
    if getattr(TransactionTestCase._fixture_teardown, "waits_for_live_server", False):
        return
    flush = TransactionTestCase._fixture_teardown

    def _fixture_teardown(self: Any) -> None:
        close_pages_left_open()
        wait_until_idle()
        flush(self)

    _fixture_teardown.waits_for_live_server = True  # type: ignore[attr-defined]
    TransactionTestCase._fixture_teardown = _fixture_teardown  # type: ignore[method-assign]
