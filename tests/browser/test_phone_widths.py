"""Every page a player or an organizer opens fits a phone: at 360 and 390 px wide, in English and in Russian,
``document.documentElement.scrollWidth`` is no wider than the screen (nothing scrolls sideways). In Russian,
the player's pages — joining, My event before and during a round, pairings, standings, deck registration —
also hold no English word of the catalogues' source strings (tests/foundation/test_russian_pages.py's check,
on the DOM after the scripts ran). Screenshots of the 360 px Russian pages: tests/artifacts/phone_widths/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from tests.browser_session import sign_in_context
from tests.foundation.test_russian_pages import _data, english_leftovers, event_day  # noqa: F401
from tests.tournaments.factories import make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "phone_widths"
WIDTHS = (390, 360)


def _pages(event_day: dict[str, Any], waiting: Any) -> list[tuple[str, str, str]]:  # noqa: F811
    """(who, name, url): the pages of event day and of building a deck, as each of them opens them."""
    event, deck, match = event_day["event"], event_day["deck"], event_day["match"]
    me = event.players.get(user__username="alice")
    return [
        ("anyone", "home", "/"),
        ("anyone", "join", reverse("tournaments:join_start")),
        ("anyone", "join-code-newcomer", reverse("tournaments:join_code", args=[waiting.join_code])),
        ("anyone", "event-anonymous", reverse("tournaments:detail", args=[waiting.pk])),
        ("anyone", "log-in", reverse("accounts:login")),
        ("anyone", "cards", reverse("cards:browser") + "?game=yugioh&q=Test"),
        ("player", "tournaments", reverse("tournaments:list")),
        ("player", "decks", reverse("decks:list")),
        ("player", "deck-builder", reverse("decks:builder", args=[deck.pk])),
        ("player", "my-event-check-in", reverse("tournaments:my_event", args=[waiting.pk])),
        ("player", "my-event", reverse("tournaments:my_event", args=[event.pk])),
        ("player", "event", reverse("tournaments:detail", args=[event.pk])),
        ("player", "pairings", reverse("tournaments:pairings", args=[event.pk])),
        ("player", "standings", reverse("tournaments:standings", args=[event.pk])),
        ("player", "match", reverse("tournaments:match", args=[match.pk])),
        ("player", "registration", reverse("tournaments:player_registration", args=[event.pk, me.pk])),
        ("organizer", "event-organizer", reverse("tournaments:detail", args=[event.pk])),
        ("organizer", "new-tournament", reverse("tournaments:create")),
        ("organizer", "round", reverse("tournaments:round", args=[event.pk, 1])),
        ("organizer", "check-in", reverse("tournaments:check_in", args=[waiting.pk])),
        ("organizer", "poster", reverse("tournaments:poster", args=[waiting.pk])),
        ("organizer", "match-organizer", reverse("tournaments:match", args=[match.pk])),
    ]


PLAYER_PAGES = {"join", "join-code-newcomer", "event-anonymous", "my-event-check-in", "my-event", "event",
                "pairings", "standings", "registration", "match", "tournaments"}  # fmt: skip


def test_no_page_is_wider_than_a_phone_and_the_russian_player_pages_have_no_english(
    browser: Any,
    live_server: Any,
    event_day: Any,  # noqa: F811
    organizer: Any,
    user: Any,
) -> None:
    from tournaments import services

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    waiting = make_event(organizer, event_day["event"].game, name="Весенний турнир", rounds=3)
    services.player_register(tournament=waiting, by=user)
    services.checkin_open(tournament=waiting, by=organizer)
    data = (*_data(event_day), waiting.name)
    people = {"player": user, "organizer": organizer}
    too_wide: list[str] = []
    english: dict[str, list[str]] = {}
    for language in ("en", "ru"):
        for who in ("anyone", "player", "organizer"):
            context = browser.new_context(locale=language, viewport={"width": 390, "height": 844})
            context.set_default_timeout(15_000)
            context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
            if who in people:
                sign_in_context(context, live_server, people[who])
            page = context.new_page()
            for owner, name, url in _pages(event_day, waiting):
                if owner != who:
                    continue
                page.goto(live_server.url + url)
                assert page.locator("html").get_attribute("lang") == language, (
                    name,
                    language,
                    page.url,
                    context.cookies(),
                    page.content()[:3000],
                )
                if name == "deck-builder":
                    # While searching on a phone the deck is far below: its counts and verdict sit by the box.
                    page.wait_for_selector("[data-testid=summary-legal]")
                    search = page.get_by_test_id("search-q").bounding_box()
                    summary = page.get_by_test_id("deck-summary").bounding_box()
                    assert 0 < summary["y"] - search["y"] < 200, (search, summary)
                    assert "42" in page.get_by_test_id("deck-summary").inner_text()
                for width in WIDTHS:
                    page.set_viewport_size({"width": width, "height": 844})
                    wide = page.evaluate("document.documentElement.scrollWidth")
                    if wide > width:
                        too_wide.append(f"{name} ({language}) is {wide}px wide at {width}px")
                if language == "ru":
                    page.screenshot(path=str(ARTIFACTS / f"{name}-ru-360.png"), full_page=True)
                    if name in PLAYER_PAGES:
                        leftovers = english_leftovers(page.content(), data)
                        if leftovers:
                            english[name] = leftovers
            context.close()
    assert not too_wide, "\n".join(too_wide)
    assert not english, english
