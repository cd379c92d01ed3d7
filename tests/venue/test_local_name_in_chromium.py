"""The `.local` address on the poster and the event page, seen at phone width in Russian: shown
when the name resolves to the LAN address (a resolver the test decides), wrapped, never wider than the
screen. Screenshots: tests/artifacts/venue22_local/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import sign_in_context
from tests.tournaments.factories import make_event
from venue import addresses, lan

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "venue22_local"
LAN = "192.168.77.10"


def test_the_local_address_is_shown_on_the_poster_and_event_page_at_360px_in_russian(
    browser: Any, live_server: Any, games: Any, organizer: Any, settings: Any, monkeypatch: Any
) -> None:
    settings.VENUE_MODE = True
    monkeypatch.setattr(lan, "primary_address", lambda: LAN)
    monkeypatch.setattr(addresses, "local_name", lambda: "turniry-v-magazine-na-nevskom.local")
    monkeypatch.setattr(addresses, "resolve", lambda name: {LAN} if name.endswith(".local") else set())
    addresses.forget()
    event = make_event(organizer, games["yugioh"], name="Кубок mDNS", rounds=3)
    port = live_server.url.rsplit(":", 1)[1]
    local = f"http://turniry-v-magazine-na-nevskom.local:{port}/"

    context = browser.new_context(locale="ru-RU", viewport={"width": 360, "height": 800})
    sign_in_context(context, live_server, organizer)
    context.add_cookies([{"name": "django_language", "value": "ru", "url": live_server.url}])
    page = context.new_page()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for name, path, testid in (
        ("poster", f"/tournaments/{event.pk}/poster/", "poster-local-url"),
        ("event", f"/tournaments/{event.pk}/", "local-address"),
    ):
        page.goto(live_server.url + path)
        text = page.get_by_test_id(testid).inner_text()
        assert local in text and ("Или откройте" in text or "Проще набрать" in text), text
        page.screenshot(path=str(ARTIFACTS / f"{name}-360-ru.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{name}: {width}px wide"
    # The QR code still names the address: every phone opens it, mDNS or not.
    page.goto(f"{live_server.url}/tournaments/{event.pk}/poster/")
    assert (
        page.get_by_test_id("poster-url").inner_text()
        == f"http://{LAN}:{port}/tournaments/join/{event.join_code}/"
    )
    context.close()
    addresses.forget()
