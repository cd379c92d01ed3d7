"""A Russian phone at 390 px in a Yu-Gi-Oh! final: the higher seed is told to choose (no coin toss), the game form
asks who chose (prefilled with the seed), and the saved game shows who chose. Screenshots under
tests/artifacts/top_cut_first_player/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import sign_in_context

from .factories import make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "top_cut_first_player"


def _phone(browser: Any, live_server: Any, user: Any) -> Any:
    context = browser.new_context(locale="ru-RU", viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    sign_in_context(context, live_server, user)
    return context.new_page()


def _fits(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_higher_seed_chooses_on_a_russian_phone(
    browser: Any, live_server: Any, games: Any, organizer: Any, make_user: Any
) -> None:
    from tournaments import services
    from tournaments.models import Game

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    seed, other = make_user("seed1"), make_user("seed2")
    event = make_event(organizer, games["yugioh"], rounds=1, top_cut=2, name="Финал")
    alice = services.player_register(tournament=event, by=seed)
    services.player_register(tournament=event, by=other)
    swiss = services.round_pair_next(tournament=event, by=organizer).matches.get()
    services.match_report_result(
        match=swiss, by=organizer, wins=[2, 0] if swiss.seats.get(seat=0).player_id == alice.pk else [0, 2]
    )
    final = services.topcut_start(tournament=event, by=organizer).matches.get()

    page = _phone(browser, live_server, seed)
    page.goto(f"{live_server.url}/tournaments/{event.pk}/me/")
    prompt = page.get_by_test_id("next-first").inner_text()
    assert "более высокий посев" in prompt and "жереб" not in prompt.lower()
    chooser = page.get_by_test_id("chooser-1")
    assert chooser.locator("input:checked").get_attribute("value") == str(alice.pk)
    _fits(page)
    page.screenshot(path=str(ARTIFACTS / "01-game-one-prompt.png"), full_page=True)

    form = page.get_by_test_id("game-form-1")
    form.locator(f"input[name=first][value='{alice.pk}']").check()
    form.locator(f"input[name=winner][value='{alice.pk}']").check()
    page.get_by_test_id("save-game-1").click()
    page.wait_for_selector("[data-testid=chose]")
    assert alice.name in page.get_by_test_id("chose").inner_text()
    _fits(page)
    page.screenshot(path=str(ARTIFACTS / "02-game-one-saved.png"), full_page=True)
    game = Game.objects.get(match=final, number=1)
    assert final.seats.get(seat=game.chooser_seat).player_id == alice.pk
    page.context.close()
