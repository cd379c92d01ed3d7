"""A transactional test's tables are emptied only after the live server's threads have answered: a request
still inside Django when the flush's TRUNCATE starts makes PostgreSQL cancel one of the two, and a cancelled
flush leaves the next test the last one's rows (tests/live_server_idle.py)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.core.signals import request_finished, request_started
from django.test import TransactionTestCase

from tests import live_server_idle


def _request_in_another_thread(seconds: float, *, finish: bool = True) -> threading.Thread:
    def serve() -> None:
        request_started.send(sender=None)
        time.sleep(seconds)
        if finish:
            request_finished.send(sender=None)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return thread


def _until_busy() -> None:
    deadline = time.monotonic() + 5
    while not live_server_idle.requests_in_flight():
        assert time.monotonic() < deadline, "the request never counted"
        time.sleep(0.005)


def test_the_wait_lasts_until_the_request_in_flight_is_answered() -> None:
    thread = _request_in_another_thread(0.4)
    _until_busy()
    started = time.monotonic()
    assert live_server_idle.wait_until_idle(timeout=5)
    assert time.monotonic() - started >= 0.25
    assert live_server_idle.requests_in_flight() == 0
    thread.join()


def test_a_request_that_never_finishes_stops_the_wait_at_its_timeout() -> None:
    thread = _request_in_another_thread(1.0, finish=False)
    _until_busy()
    started = time.monotonic()
    assert live_server_idle.wait_until_idle(timeout=0.2) is False
    assert time.monotonic() - started < 0.9
    thread.join()
    # The thread died without finishing its request: it no longer holds the flush up.
    assert live_server_idle.requests_in_flight() == 0
    assert live_server_idle.wait_until_idle(timeout=0.1)


def test_the_tests_own_requests_in_the_main_thread_do_not_count() -> None:
    # The receivers themselves: the signals would also run Django's close_old_connections in this thread.
    live_server_idle._started()
    try:
        assert live_server_idle.requests_in_flight() == 0
    finally:
        live_server_idle._finished()


def test_the_flush_of_every_transactional_test_waits() -> None:
    assert getattr(TransactionTestCase._fixture_teardown, "waits_for_live_server", False)


@pytest.mark.browser
def test_pages_a_test_left_open_are_closed_before_the_flush(browser: Any) -> None:
    """A page left open would go on polling the live server into the next tests (the browser is the
    session's)."""
    context = browser.new_context()
    context.new_page()
    assert live_server_idle.close_pages_left_open() >= 1
    assert browser.contexts == []
