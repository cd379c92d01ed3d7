"""In Chromium, a Russian reader's deck page shows the rules report in Russian (desktop and phone)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import login_in_browser

pytestmark = pytest.mark.django_db(transaction=True)
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


@pytest.mark.parametrize("viewport", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_deck_page_report_reads_in_russian(page, ygo_deck, viewport) -> None:
    page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    login_in_browser(page, "alice")
    page.context.add_cookies([{"name": "django_language", "value": "ru", "url": page.base_url}])
    page.goto(f"{page.base_url}/decks/{ygo_deck.pk}/")
    body = page.inner_text("body")
    assert "В разделе «Основная колода» карт: 4; нужно: от 40 до 60." in body
    assert "it must have" not in body
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"deck-report-ru-{viewport[0]}.png"), full_page=True)
