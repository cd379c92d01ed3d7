"""In Chromium, under the Content-Security-Policy (no inline scripts): the builder, Swagger UI, the
printables and the site chrome work, and no page reports a CSP violation."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
window.print = () => { window.__printed = true; };
"""


@pytest.fixture
def watched(browser: Any, live_server: Any) -> Any:
    """A page that enforces the policy (the suite's usual page fixture bypasses it for Playwright's sake)."""
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.base_url = live_server.url
    page.add_init_script(RECORD_VIOLATIONS)
    messages: list[str] = []
    page.on("console", lambda message: messages.append(message.text))
    page.csp_console = messages  # type: ignore[attr-defined]
    yield page
    context.close()


def _no_violations(page: Any, where: str) -> None:
    recorded = page.evaluate("window.__csp")
    console = [text for text in page.csp_console if "Content Security Policy" in text]
    assert not recorded and not console, (where, recorded, console)


@pytest.fixture
def site(make_user: Any, organizer: Any) -> dict[str, Any]:
    from cards.games import games_sync
    from cards.models import Game
    from decks.services import deck_create
    from tests.tournaments.factories import make_event
    from tournaments import services

    games_sync()
    owner = make_user("alice")
    deck = deck_create(owner=owner, game=Game.objects.get(slug="yugioh"), name="Checked deck")
    event = make_event(organizer, Game.objects.get(slug="caster"), name="CSP Cup", rounds=3)
    for name in ("Zoe", "Анна", "Boris", "Mia"):
        services.player_register(tournament=event, by=organizer, name=name)
    services.round_pair_next(tournament=event, by=organizer)
    return {"deck": deck, "event": event}


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}])
def test_pages_work_under_the_policy(watched: Any, site: dict[str, Any], viewport: Any) -> None:
    page = watched
    page.set_viewport_size(viewport)
    width = viewport["width"]
    response = page.goto(page.base_url + "/")
    policy = response.headers["content-security-policy"]
    assert (
        "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    )

    # The language select submits itself (was an inline onchange handler); on a phone it is in the menu.
    for language in ("ru", "en"):
        if not page.locator("#language-select").is_visible():
            page.click("label[for=nav-toggle]")
        page.select_option("#language-select", language)
        page.wait_for_selector(f"html[lang={language}]", state="attached")
    _no_violations(page, "home")

    page.goto(page.base_url + "/accounts/login/")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "s3cret-Pass!")
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(page.base_url + f"/decks/{site['deck'].pk}/edit/")
    page.wait_for_selector("#legal-status:not(:empty)")
    page.fill("[data-testid=search-q]", "zzz")
    page.screenshot(path=f"tests/artifacts/csp-builder-{width}.png")
    _no_violations(page, "builder")

    page.goto(page.base_url + "/decks/")
    page.select_option("#game-filter", "yugioh")
    page.wait_for_url(lambda url: "game=yugioh" in url)
    _no_violations(page, "deck list")

    page.goto(page.base_url + "/api/docs/")
    page.locator(".swagger-ui .opblock-tag").first.wait_for()
    assert page.locator(".swagger-ui .opblock").count() > 10
    page.screenshot(path=f"tests/artifacts/csp-swagger-{width}.png")
    _no_violations(page, "swagger")

    for kind in ("pairings", "slips", "standings"):
        url = reverse("tournaments:print", args=[site["event"].pk, kind])
        page.goto(page.base_url + url + "?round=1")
        page.click("[data-testid=print-button]")
        assert page.evaluate("window.__printed === true"), kind
        page.screenshot(path=f"tests/artifacts/csp-print-{kind}-{width}.png")
        _no_violations(page, kind)


def test_an_inline_script_would_be_refused(client: Any, db: Any) -> None:
    from django.conf import settings

    response = client.get("/accounts/login/")
    assert response["Content-Security-Policy"] == settings.CONTENT_SECURITY_POLICY
    script_src = next(part for part in settings.CONTENT_SECURITY_POLICY.split(";") if "script-src" in part)
    assert script_src.split() == ["script-src", "'self'"]
    assert "<script>" not in response.content.decode() and " onclick=" not in response.content.decode()
