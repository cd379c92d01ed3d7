"""Chromium: the metagame page of a finished event on a 390 px phone and a desktop, in English and Russian —
the chart scales inside the screen, the tables beside it, nothing scrolls the page sideways.
Screenshots under tests/artifacts/metagame/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from results import services as results_services
from tests.browser_session import signed_in_page
from tests.tournaments.factories import finish_round, make_card, make_event
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "metagame"


def test_the_metagame_page_reads_on_a_phone_and_a_desktop_in_two_languages(
    browser: Any, live_server: Any, games: Any, organizer: Any, settings: Any, tmp_path: Any
) -> None:
    (tmp_path / "ygo").mkdir()
    (tmp_path / "ygo" / "strings.conf").write_text(
        "!setname 0x2 Genex\n!setname 0x33 Blackwing\n!setname 0x9d Shaddoll\n!setname 0x103 Altergeist\n"
    )
    settings.SHARED_DATA_DIR = tmp_path
    results_services.ygo_setnames.cache_clear()
    game = games["yugioh"]
    extra = make_card(game, "900", "Fusion", card_type="monster", subtypes=["fusion"], level=6)
    families = {}
    for n, (code, name) in enumerate(
        [(0x2, "Genex"), (0x33, "Blackwing"), (0x9D, "Shaddoll"), (0x103, "Altergeist")]
    ):
        families[name] = [make_card(game, f"{1000 * (n + 1) + i}", f"{name} {i}", card_type="monster",
                                    subtypes=["normal"], level=4, attributes={"setcode": [code]}) for i in range(14)]  # fmt: skip
    event = make_event(organizer, game, name="Sunday Regional", deck_registration=True, rounds=3, top_cut=4,
                       decklist_timeline={"swiss": "archetypes", "top_cut": "open", "finished": "open"})  # fmt: skip
    plan = ["Genex"] * 5 + ["Blackwing"] * 4 + ["Shaddoll"] * 3 + ["Altergeist"] * 2
    for i, name in enumerate(plan):
        player = services.player_register(tournament=event, by=organizer, name=f"Player {i + 1:02d}")
        payload = {"sections": {"main": [{"card": c.external_id, "count": 3} for c in families[name]],
                                "extra": [{"card": extra.external_id, "count": 1}], "side": []}}  # fmt: skip
        services.player_submit_deck(player=player, by=organizer, payload=payload)
    for _ in range(3):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer)
    services.topcut_start(tournament=event, by=organizer)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for locale, lang, heading in (("en-US", "en", "Metagame"), ("ru-RU", "ru", "Метагейм")):
        for label, viewport in (
            ("phone", {"width": 390, "height": 844}),
            ("desktop", {"width": 1280, "height": 900}),
        ):
            page = signed_in_page(browser, live_server, None, viewport=viewport, locale=locale)
            page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
            page.goto(f"{live_server.url}/tournaments/{event.pk}/metagame/")
            assert page.locator("h1").inner_text() == heading
            chart = page.locator("[data-testid=share-chart]").bounding_box()
            assert chart is not None and chart["x"] >= 0 and chart["x"] + chart["width"] <= viewport["width"]
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            assert page.locator("[data-testid=metagame-table] tbody tr").count() == 4
            page.screenshot(path=str(ARTIFACTS / f"metagame-{label}-{lang}.png"), full_page=True)
            page.context.close()
    results_services.ygo_setnames.cache_clear()
