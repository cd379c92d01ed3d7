"""Signing a browser context in as a user without the log-in page: a session made on the server side and its
cookie handed to the browser (the log-in page itself is tested in tests/browser/test_site.py)."""

from __future__ import annotations

from pathlib import Path
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
    language: str | None = None,
    opened: list[Any] | None = None,
) -> Any:
    """A new page in a context of its own (``user`` signed in unless None), whose ``base_url`` is the live
    server's: the first step of every browser test that plays a person on a phone or a desktop. ``language``
    sets the site's language cookie; ``opened`` collects the context for the test to close (a phone left
    open keeps polling after the live server has gone)."""
    context = browser.new_context(locale=locale, viewport=viewport)
    context.set_default_timeout(timeout_ms)
    if opened is not None:
        opened.append(context)
    if user is not None:
        sign_in_context(context, live_server, user)
    if language:
        context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.base_url = live_server.url  # type: ignore[attr-defined]
    return page


def screenshot_checked(page: Any, folder: Path, name: str, width: int | None = None) -> None:
    """Save a full-page screenshot as ``folder/name.png``; with ``width``, fail if the page scrolls sideways."""
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
    if width is not None:
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, f"{name}: {wide}px wide on a {width}px phone"


def confirm_yes(page: Any) -> None:
    """Answer the site's confirm page (a destructive or state-changing action asks first)."""
    page.wait_for_selector("[data-testid=confirm-page]")
    page.get_by_test_id("confirm-yes").click()
    page.wait_for_load_state()
