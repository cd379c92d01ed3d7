"""The Russian pages as a player's browser shows them (real Chromium, desktop and a 390×844 phone): after the
page's scripts ran, the deck builder, the new-tournament form, the match page with its result history and My
event hold no English UI string (the same check as tests/foundation/test_russian_pages.py, on the rendered
DOM). Screenshots go to tests/artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from tests.conftest import login_in_browser
from tests.foundation.test_russian_pages import _data, english_leftovers, event_day  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def _visit(page: Any, url: str, name: str, data: tuple[str, ...]) -> str:
    page.goto(page.base_url + url)
    page.wait_for_selector("html[lang=ru]")
    page.wait_for_load_state("networkidle")
    html = page.content()
    for label, size in VIEWPORTS.items():
        page.set_viewport_size(size)
        page.screenshot(path=str(ARTIFACTS / f"russian-{name}-{label}.png"), full_page=True)
        # Russian words are longer than English ones: nothing may push the page sideways on a phone.
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"{name}: {width}px wide at {size['width']}px"
    page.set_viewport_size(VIEWPORTS["desktop"])
    leftovers = english_leftovers(html, data)
    assert not leftovers, (name, leftovers)
    return html


def test_the_russian_pages_after_their_scripts_ran(page, event_day, organizer, user) -> None:  # noqa: F811
    ARTIFACTS.mkdir(exist_ok=True)
    page.context.add_cookies([{"name": "django_language", "value": "ru", "url": page.base_url}])
    data = _data(event_day)
    event, deck, match = event_day["event"], event_day["deck"], event_day["match"]

    login_in_browser(page, organizer.username)
    form = _visit(page, reverse("tournaments:create"), "new-tournament-form", data)
    assert "Yu-Gi-Oh! ККИ — Продвинутый (список TCG)" in form
    history = _visit(page, reverse("tournaments:match", args=[match.pk]), "match-history", data)
    assert "спор решён" in history and "оспорен" in history

    page.context.clear_cookies()
    page.context.add_cookies([{"name": "django_language", "value": "ru", "url": page.base_url}])
    login_in_browser(page, user.username)
    builder = _visit(page, reverse("decks:builder", args=[deck.pk]), "deck-builder", data)
    assert "Основная колода" in builder
    _visit(page, reverse("tournaments:my_event", args=[event.pk]), "my-event", data)
