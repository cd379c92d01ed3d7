"""In Chromium, on a phone and a desktop: a card editor finds an empty game, follows the notice to the update
page, checks what the community's files would change (served from 127.0.0.1), updates, and sees what changed;
a player refused the import page reads why and whom to ask."""

from __future__ import annotations

from pathlib import Path

import pytest

from cards.models import Card
from tests.browser_session import signed_in_page
from tests.cards.conftest import GOOD_ROWS, make_cdb

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "card_updates"
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_a_card_editor_updates_an_empty_game_from_the_page(
    browser, live_server, games, organizer, server, settings, device
):
    base, root = server
    make_cdb(root / "cards.cdb", GOOD_ROWS[:4])
    settings.CARD_UPDATE_URLS = {"yugioh": [f"{base}/cards.cdb"]}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = signed_in_page(browser, live_server, organizer, viewport=VIEWPORTS[device])

    page.goto(f"{page.base_url}/cards/?game=yugioh")
    notice = page.locator("[data-testid=no-cards-notice]")
    assert "has no cards yet." in notice.inner_text()
    page.screenshot(path=str(ARTIFACTS / f"no-cards-{device}.png"), full_page=True)
    notice.get_by_role("link", name="Update from the community's files").click()
    page.wait_for_url("**/cards/update/")
    page.click("[data-testid=update-check-yugioh]")
    page.wait_for_url("**/cards/import/*/")
    summary = page.locator("[data-testid=update-summary]")
    assert "4 new cards" in summary.inner_text() and not Card.objects.exists()
    page.click("[data-testid=update-apply-now]")
    page.wait_for_url("**/cards/import/*/")
    assert "What this update changed" in page.locator("[data-testid=update-summary]").inner_text()
    assert page.locator("[data-field=status]").inner_text() == "done"
    page.screenshot(path=str(ARTIFACTS / f"updated-{device}.png"), full_page=True)
    assert Card.objects.filter(game__slug="yugioh").count() == 4
    # The page is the phone's width: nothing scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.context.close()  # no request of this page may reach the live server while it stops

    if device == "phone":
        from django.contrib.auth import get_user_model

        player = get_user_model().objects.create_user(username="pat", password="s3cret-Pass!")
        refused = signed_in_page(browser, live_server, player, viewport=VIEWPORTS[device], locale="ru-RU")
        refused.goto(f"{refused.base_url}/cards/import/")
        assert "Эта страница вам недоступна" in refused.locator("[data-testid=error-403]").inner_text()
        refused.screenshot(path=str(ARTIFACTS / "refused-403-ru-phone.png"), full_page=True)
        refused.context.close()
