"""An organizer runs a 10-player best-of-three event end to end in Chromium, and a player reports a result
that the opponent confirms (registration with decks, three rounds with a sideboarded game, a drop,
standings, a top 4)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import login_in_browser

from .factories import make_deck, ygo_cards, ygo_payload

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _as(page: Any, username: str) -> None:
    page.context.clear_cookies()
    login_in_browser(page, username)


def _save_all_results(page: Any) -> None:
    """Click "Save" (default 2-0) on every open result form of the round page, one by one."""
    while True:
        forms = page.locator("form.result-form")
        if forms.count() == 0:
            return
        forms.first.get_by_role("button", name="Save").click()
        page.wait_for_load_state()


def test_an_organizer_runs_a_ten_player_event_end_to_end(
    page: Any, games: Any, organizer: Any, make_user: Any
) -> None:
    from tournaments.models import Match, Player, SideboardChange, Tournament

    game = games["yugioh"]
    cards = ygo_cards(game)
    payload = ygo_payload(cards)
    make_deck(organizer, game, payload, name="Loaner deck")
    players = [make_user(f"player{i}") for i in range(1, 10)]
    for user in players:
        make_deck(user, game, payload, name=f"{user.username} deck")

    # The organizer creates the event.
    _as(page, organizer.username)
    page.goto(page.base_url + "/tournaments/new/")
    page.fill("#t-name", "Browser Cup")
    page.select_option("#t-game", "yugioh:advanced")
    page.select_option("#t-match", "bo3")
    page.fill("#t-seed", "20261121")
    page.fill("#t-rounds", "3")
    page.select_option("#t-cut", "4")
    page.check("input[name=deck_registration]")
    page.get_by_role("button", name="Save").click()
    page.wait_for_selector("[data-testid=tournament-name]")
    event = Tournament.objects.get(name="Browser Cup")
    event_url = f"{page.base_url}/tournaments/{event.pk}/"

    # Nine players join with one of their decks; the organizer adds a guest and registers a list for them.
    for user in players:
        _as(page, user.username)
        page.goto(event_url)
        page.select_option("#join-deck", label=f"{user.username} deck (advanced)")
        page.get_by_test_id("join-form").get_by_role("button", name="Join").click()
        page.wait_for_load_state()
        assert page.get_by_text("You are registered.").is_visible()
    _as(page, organizer.username)
    page.goto(event_url)
    page.fill("#guest-name", "Guest Gwen")
    page.get_by_test_id("guest-form").get_by_role("button", name="Add").click()
    page.wait_for_load_state()
    gwen = Player.objects.get(tournament=event, name="Guest Gwen")
    page.get_by_test_id(f"organizer-deck-{gwen.pk}").get_by_role("button", name="Register deck").click()
    page.wait_for_load_state()
    assert Player.objects.filter(tournament=event, deck__isnull=False).count() == 10

    # Round 1.
    page.goto(event_url)
    page.get_by_test_id("pair-next").click()
    page.wait_for_selector("[data-testid=pairings]")
    assert page.locator("[data-testid=pairings] tbody tr").count() == 5
    page.get_by_test_id("start-timer").click()
    page.wait_for_selector("#round-timer")

    round1 = event.round_set.get(number=1)
    # A player reports their match and the opponent confirms it (a match between two account holders).
    duel = next(
        m
        for m in round1.matches.order_by("table")
        if all(s.player.user_id for s in m.seats.select_related("player"))
    )
    first, second = [s.player for s in duel.seats.select_related("player__user").order_by("seat")]
    _as(page, first.user.username)
    page.goto(event_url)
    page.get_by_test_id("my-match").get_by_role("link").click()
    page.get_by_test_id("wins-form").locator("input[name=wins_a]").fill("2")
    page.get_by_test_id("wins-form").locator("input[name=wins_b]").fill("1")
    page.get_by_test_id("submit-wins").click()
    page.wait_for_load_state()
    assert page.get_by_test_id("match-status").inner_text() == "reported"
    _as(page, second.user.username)
    page.goto(f"{page.base_url}/tournaments/matches/{duel.pk}/")
    page.get_by_test_id("confirm").click()
    page.wait_for_load_state()
    assert page.get_by_test_id("match-status").inner_text() == "confirmed"

    # The organizer records a sideboarded game 2 (one-for-one) and the games of another match.
    _as(page, organizer.username)
    sided = next(m for m in round1.matches.filter(bye=False).order_by("table") if m.pk != duel.pk)
    a, b = [s.player for s in sided.seats.order_by("seat")]
    page.goto(f"{page.base_url}/tournaments/matches/{sided.pk}/")
    form = page.get_by_test_id("sideboard-form")
    form.locator("select[name=player]").select_option(str(b.pk))
    form.locator("input[name=out_1]").fill("Test Monster 0")
    form.locator("input[name=in_1]").fill("Side Spell 0")
    page.get_by_test_id("submit-sideboard").click()
    page.wait_for_load_state()
    assert page.get_by_test_id("sideboard-changes").is_visible()
    assert SideboardChange.objects.filter(match=sided, player=b, game_number=2).exists()
    games_form = page.get_by_test_id("games-form")
    for n, (first_player, winner) in enumerate([(a, a), (b, b), (a, a)], start=1):
        games_form.locator(f"select[name=game{n}_first]").select_option(str(first_player.pk))
        games_form.locator(f"select[name=game{n}_winner]").select_option(str(winner.pk))
    page.get_by_test_id("submit-games").click()
    page.wait_for_load_state()
    assert page.get_by_test_id("match-result").inner_text().startswith("2–1")

    page.goto(f"{page.base_url}/tournaments/{event.pk}/rounds/1/")
    _save_all_results(page)
    assert not Match.objects.filter(round=round1, status__in=["pending", "reported"]).exists()

    # A drop after round 1, then rounds 2 and 3.
    dropper = Player.objects.get(tournament=event, name="player9")
    page.goto(event_url)
    page.get_by_test_id(f"drop-{dropper.pk}").click()
    page.wait_for_load_state()
    for _number in (2, 3):
        page.goto(event_url)
        page.get_by_test_id("pair-next").click()
        page.wait_for_selector("[data-testid=pairings]")
        assert dropper.name not in page.get_by_test_id("pairings").inner_text()
        _save_all_results(page)

    # Standings, then the top 4.
    page.goto(event_url)
    page.get_by_test_id("standings-link").click()
    table = page.get_by_test_id("standings")
    assert table.locator("tbody tr").count() == 10
    assert "(dropped)" in table.locator(f"tr[data-player='{dropper.name}']").inner_text()
    assert "%" in table.locator("tbody tr").first.inner_text()

    page.goto(event_url)
    page.get_by_test_id("start-topcut").click()
    page.wait_for_selector("[data-testid=pairings]")
    assert page.locator("[data-testid=pairings] tbody tr").count() == 2
    _save_all_results(page)
    page.goto(event_url)
    page.get_by_test_id("advance-topcut").click()
    page.wait_for_selector("[data-testid=pairings]")
    _save_all_results(page)
    page.goto(event_url)
    page.get_by_test_id("advance-topcut").click()
    page.wait_for_selector("[data-testid=champion]")
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
