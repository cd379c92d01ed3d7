"""Signing a browser context in as a user without the log-in page: a session made on the server side and its
cookie handed to the browser (the log-in page itself is tested in tests/browser/test_site.py)."""

from __future__ import annotations

from typing import Any


def sign_in_context(context: Any, live_server: Any, user: Any) -> None:
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": live_server.url}]
    )


def signed_in_page(
    browser: Any,
    live_server: Any,
    user: Any,
    *,
    viewport: dict[str, int],
    locale: str = "en-US",
    timeout_ms: int = 15_000,
) -> Any:
    """A new page in a context of its own (``user`` signed in unless None), whose ``base_url`` is the live
    server's: the first step of every browser test that plays a person on a phone or a desktop."""
    context = browser.new_context(locale=locale, viewport=viewport)
    context.set_default_timeout(timeout_ms)
    if user is not None:
        sign_in_context(context, live_server, user)
    page = context.new_page()
    page.base_url = live_server.url  # type: ignore[attr-defined]
    return page
