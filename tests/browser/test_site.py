"""A person's first minutes: home page, sign up, log in, switch the language (real Chromium)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import login_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_it_signs_up_logs_in_and_switches_language(page: Any, games: Any) -> None:
    page.goto(page.base_url + "/")
    assert "Deckhall" in page.title()
    assert page.get_by_test_id("games").get_by_text("Yu-Gi-Oh!").is_visible()

    page.get_by_role("link", name="Sign up").first.click()
    page.fill("input[name=username]", "newplayer")
    page.fill("input[name=email]", "new@example.com")
    page.fill("input[name=password1]", "Very-l0ng-pass")
    page.fill("input[name=password2]", "Very-l0ng-pass")
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(page.base_url + "/")
    assert page.get_by_test_id("current-user").inner_text().startswith("newplayer")

    page.get_by_role("button", name="Log out").click()
    page.wait_for_load_state()
    assert page.get_by_role("link", name="Log in").first.is_visible()

    login_in_browser(page, "newplayer", "Very-l0ng-pass")
    assert page.get_by_test_id("current-user").inner_text().startswith("newplayer")

    # The switch submits from site.js, a deferred script: wait for each page's "load" before
    # choosing, or the change can fire before the listener exists and nothing is submitted.
    page.wait_for_load_state("load")
    with page.expect_navigation():
        page.select_option("#language-select", "ru")
    page.wait_for_load_state("load")
    page.wait_for_selector("html[lang=ru]")
    assert page.get_by_role("button", name="Выйти").is_visible()
    with page.expect_navigation():
        page.select_option("#language-select", "en")
    page.wait_for_selector("html[lang=en]")
    assert page.get_by_role("button", name="Log out").is_visible()


def test_it_renders_the_interactive_api_docs_without_the_internet(page: Any, games: Any) -> None:
    page.goto(page.base_url + "/api/docs/")
    page.wait_for_selector("text=Deckhall API", timeout=20_000)
    assert page.get_by_text("/api/games/").first.is_visible()
    # The `page` fixture fails the test if anything was requested outside the live server.
