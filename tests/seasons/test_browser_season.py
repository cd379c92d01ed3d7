"""A 4-event store league on a 390 px phone: the series standings, a player's history with a rating and a
public deck list, the pairing report and "why this opponent" — in English and in Russian, nothing wider than
the phone. Screenshots under tests/artifacts/season/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import sign_in_context
from tests.tournaments.factories import finish_round, make_deck, make_event, ygo_cards, ygo_payload
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "season"
PHONE = {"width": 390, "height": 844}


def _phone(browser: Any, live_server: Any, user: Any, locale: str = "en-US") -> Any:
    from django.conf import settings

    context = browser.new_context(locale=locale, viewport=PHONE)
    context.set_default_timeout(15_000)
    sign_in_context(context, live_server, user)
    if locale.startswith("ru"):
        context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "ru", "url": live_server.url}])
    return context.new_page()


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name}: {width}px wide on a 390px phone"


def test_a_store_league_and_a_players_history_on_a_phone(
    browser, live_server, games, organizer, make_user, api_client_for
):  # type: ignore[no-untyped-def]
    game = games["yugioh"]
    cards = ygo_cards(game)
    accounts = [make_user(f"duelist{i}") for i in range(6)]
    ann = accounts[0]
    client = api_client_for(organizer)
    series = client.post("/api/series/", {"name": "Tuesday League", "game": "yugioh", "best_of": 3},
                         format="json").json()["id"]  # fmt: skip
    for week in range(1, 5):
        event = make_event(organizer, game, rounds=3, name=f"Tuesday Locals #{week}", seed=week,
                           deck_registration=True, publish_decklists=True)  # fmt: skip
        for account in accounts:
            player = services.player_register(tournament=event, by=account, user=account)
            deck = make_deck(account, game, ygo_payload(cards), name=f"{account.username} deck")
            services.player_submit_deck(player=player, by=account, deck=deck)
        guest = services.player_register(tournament=event, by=organizer, name="Walk-in Guest")
        services.player_submit_deck(player=guest, by=organizer, payload=ygo_payload(cards))
        for _ in range(3):
            services.round_pair_next(tournament=event, by=organizer)
            finish_round(event, organizer)
        if week < 4:
            services.tournament_finish(tournament=event, by=organizer)
            from seasons.services import event_finished

            event_finished(tournament=event)
        assert (
            client.post(f"/api/series/{series}/events/", {"tournament": event.pk}, format="json").status_code
            == 201
        )

    page = _phone(browser, live_server, ann)
    page.goto(f"{live_server.url}/seasons/series/{series}/")
    table = page.get_by_test_id("series-standings")
    assert table.locator("tbody tr").count() == 7
    assert "Tuesday Locals #4" in page.content()
    _shot(page, "01-series-standings")
    page.get_by_role("link", name=ann.username).first.click()
    page.wait_for_selector("[data-testid=ratings]")
    ratings = page.get_by_test_id("ratings").inner_text()
    assert "Yu-Gi-Oh" in ratings and "±" in ratings and "3 events" in ratings
    history = page.get_by_test_id("history")
    assert history.locator("li").count() == 3  # the running 4th event is not history yet
    assert history.get_by_role("link", name="deck list").count() == 3
    _shot(page, "02-player-history")

    # The running event: the pairing report and My event's one-line reason.
    page.goto(f"{live_server.url}/tournaments/{event.pk}/rounds/3/report/")
    assert page.get_by_test_id("rematches").inner_text().strip() == "0"
    assert "lowest-ranked player without a bye" in page.get_by_test_id("byes").inner_text()
    _shot(page, "03-pairing-report")
    page.goto(f"{live_server.url}/tournaments/{event.pk}/me/")
    assert page.get_by_test_id("why-opponent").inner_text().startswith(("Why this opponent", "Bye:"))
    _shot(page, "04-my-event-why")

    russian = _phone(browser, live_server, ann, locale="ru-RU")
    russian.goto(f"{live_server.url}/seasons/series/{series}/")
    assert "Очки" in russian.content() and "Таблица очков" in russian.content()
    _shot(russian, "05-series-standings-ru")
    russian.goto(f"{live_server.url}/seasons/players/{ann.username}/")
    assert "Рейтинги" in russian.content() and "Место" in russian.content()
    _shot(russian, "06-player-history-ru")
    page.context.close()
    russian.context.close()


def test_a_team_trio_member_sees_their_seat_on_a_phone(
    browser, live_server, games, organizer, make_user, api_client_for
):  # type: ignore[no-untyped-def]
    client = api_client_for(organizer)
    tid = client.post("/api/tournaments/", {"name": "Trios Night", "game": "mtg", "format": "constructed",
                                            "team_size": 3, "rounds": 2, "seed": 3}, format="json").json()["id"]  # fmt: skip
    names = [f"trio{i}" for i in range(6)]
    for name in names:
        make_user(name)
    for t, team in enumerate(("Red Dragons", "Blue Moon")):
        answer = client.post(f"/api/tournaments/{tid}/teams/", {"name": team, "members": names[3 * t: 3 * t + 3]},
                             format="json")  # fmt: skip
        assert answer.status_code == 201
    assert client.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
    from django.contrib.auth import get_user_model

    member = get_user_model().objects.get(username="trio4")
    page = _phone(browser, live_server, member)
    page.goto(f"{live_server.url}/tournaments/{tid}/me/")
    assert page.get_by_test_id("my-team-seat").inner_text() == "Your team: Blue Moon, seat B"
    assert page.get_by_test_id("my-opponents").inner_text().endswith("trio1")
    _shot(page, "07-team-member-seat")
    page.context.close()
