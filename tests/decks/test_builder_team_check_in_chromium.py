"""In Chromium: a team member's deck builder checks the deck live against the teammates' registered decks
(MTG unified construction), the shared card's row naming both decks; removing the card clears it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser_session import sign_in_context
from tests.tournaments.factories import make_deck
from tests.tournaments.test_it_runs_team_events import _mtg_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_builder_names_a_card_a_teammate_holds(
    page: Any, live_server: Any, games: Any, make_user: Any
) -> None:
    from tournaments import services

    game = games["mtg"]
    olga = make_user("olga", organizer=True)
    ann, boris, chen = (make_user(n) for n in ("ann", "boris", "chen"))
    event = services.tournament_create(created_by=olga, name="Trios Night", game=game, format_slug="constructed",
                                       team_size=3, seed=3)  # fmt: skip
    # The organizer enters each member's list as a deck of their own (a player's deck is theirs alone).
    decks = [_mtg_deck(olga, game, u.username.title()) for u in (ann, boris, chen)]
    services.team_register(
        tournament=event, by=olga, name="Blue Moon", members=[ann, boris, chen], decks=decks
    )
    # Ann's next deck holds a card of Boris's registered deck.
    lines = [
        {"card": "Boris Card 1", "count": 4},
        {"card": "Ann Card 0", "count": 4},
        {"card": "Mountain", "count": 4},
    ]
    draft = make_deck(ann, game, {"sections": {"main": lines}}, format_slug="constructed", name="Ann draft")
    sign_in_context(page.context, live_server, ann)
    page.goto(page.base_url + f"/decks/{draft.pk}/edit/")
    page.wait_for_function("document.getElementById('legal-status').textContent !== ''")
    page.click("[data-testid=team-check] summary")
    page.wait_for_selector(f"[data-testid=team-event-select] option[value='{event.pk}']", state="attached")
    page.select_option("[data-testid=team-event-select]", str(event.pk))
    row = page.locator("li.deck-row[data-section=main]").filter(
        has=page.locator("span.name", has_text="Boris Card 1")
    )
    note = row.locator(".row-violations li.violation")
    note.wait_for()
    text = note.text_content() or ""
    assert "Ann draft" in text and "Boris deck" in text
    assert page.locator("[data-testid=legal-status]").text_content() == "Not legal"
    assert "Boris Card 1" in (page.locator("[data-testid=team-conflicts]").text_content() or "")
    # Mountain is a basic land: no note on it.
    mountain = page.locator("li.deck-row[data-section=main]").filter(
        has=page.locator("span.name", has_text="Mountain")
    )
    assert mountain.locator(".row-violations li.violation").count() == 0
    page.screenshot(path="tests/artifacts/teams25_builder_team_check.png", full_page=True)
    # Removing the card clears the team violation live.
    row.focus()
    page.keyboard.press("Delete")
    page.wait_for_function(
        "document.getElementById('team-check-status').textContent.startsWith('No card is shared')"
    )
    assert page.locator("[data-testid=team-conflicts] li").count() == 0
