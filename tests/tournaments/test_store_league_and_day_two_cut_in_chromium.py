"""A store's organizer runs a league and a day-2 cut through pages alone, in Chromium: creates a series and adds
the event to it from the event's page (desktop), adds a phase with a preview of who advances, pairs the round
that starts it through the confirmation page, and a cut player's phone (390 px, Russian) says they did not make
it; the round dashboard fits a 390 px phone. Screenshots: tests/artifacts/store_league/."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from seasons.models import Series
from tests.browser_session import signed_in_page
from tournaments import services
from tournaments.models import Phase

from .factories import finish_round, make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "store_league"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_an_organizer_runs_the_league_and_the_cut_from_pages(
    browser, live_server, games, organizer, make_user
):
    event = make_event(organizer, games["caster"], rounds=2, name="Friday Caster")
    accounts = [make_user(f"fri{i}") for i in range(8)]
    for account in accounts:
        services.player_register(tournament=event, by=account, user=account)
    rng = random.Random(3)
    for _ in range(2):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer, outcome=lambda match: rng.choice([[2, 0], [0, 2]]))

    desk = signed_in_page(browser, live_server, organizer, viewport=DESKTOP)
    desk.goto(live_server.url + reverse("seasons:series_list"))
    desk.get_by_test_id("new-series").click()
    desk.fill("#s-name", "Friday League")
    desk.select_option("#s-game", "caster")
    desk.fill("#s-best", "3")
    desk.get_by_test_id("series-save").click()
    desk.wait_for_url("**/seasons/series/*/")
    series = Series.objects.get(name="Friday League")
    desk.goto(live_server.url + reverse("tournaments:detail", args=[event.pk]))
    desk.get_by_test_id("add-to-series-link").click()
    desk.get_by_test_id(f"add-to-series-{series.pk}").click()
    desk.wait_for_url(f"**/tournaments/{event.pk}/")
    assert list(series.events.all()) == [event]

    desk.get_by_test_id("phases-link").click()
    desk.fill("#ph-rounds", "1")
    desk.fill("#ph-points", "3")
    desk.get_by_test_id("phase-preview-button").click()
    preview = desk.get_by_test_id("phase-preview").inner_text()
    assert "players advance at 3 points or more" in preview or "player advances at 3 points" in preview
    _shot(desk, "phase-preview-desktop")
    desk.get_by_test_id("phase-add").click()
    desk.wait_for_url(f"**/tournaments/{event.pk}/phases/")
    assert Phase.objects.filter(tournament=event, min_points=3).exists()
    desk.goto(live_server.url + reverse("tournaments:confirm", args=[event.pk, "pair"]))
    assert "This starts phase 2" in desk.get_by_test_id("confirm-page").inner_text()
    desk.get_by_test_id("confirm-yes").click()
    desk.wait_for_load_state()
    phase = Phase.objects.get(tournament=event)
    assert phase.entrants is not None

    cut_player = event.players.exclude(pk__in=phase.entrants).first()
    phone = signed_in_page(browser, live_server, cut_player.user, viewport=PHONE, locale="ru-RU")
    phone.context.add_cookies([{"name": "django_language", "value": "ru", "url": live_server.url}])
    phone.goto(live_server.url + reverse("tournaments:my_event", args=[event.pk]))
    final = phone.get_by_test_id("my-final").inner_text()
    assert "Вы не прошли отсечку перед этапом 2" in final
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    _shot(phone, "cut-player-phone-ru")

    organizer_phone = signed_in_page(browser, live_server, organizer, viewport=PHONE)
    organizer_phone.goto(live_server.url + reverse("tournaments:round", args=[event.pk, 3]))
    organizer_phone.get_by_test_id("pairings").wait_for()
    assert organizer_phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    clipped = organizer_phone.evaluate(
        "[...document.querySelectorAll('table.dashboard td')].filter(td => td.scrollWidth > td.clientWidth + 1).length"
    )
    assert clipped == 0
    _shot(organizer_phone, "round-dashboard-phone")
