"""The metagame of an event: share, cut conversion, match win rates and the matrix, in English and Russian;
the organizers' review queue where a human label wins and is kept."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from results import services as results_services
from results.models import DeckArchetype
from tests.tournaments.factories import finish_round, make_card, make_event
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def names(settings: Any, tmp_path: Any) -> Any:
    (tmp_path / "ygo").mkdir()
    (tmp_path / "ygo" / "strings.conf").write_text("!setname 0x2 Genex\n!setname 0x33 Blackwing\n")
    settings.SHARED_DATA_DIR = tmp_path
    results_services.ygo_setnames.cache_clear()
    yield
    results_services.ygo_setnames.cache_clear()


def _payload(cards: list[Any], extra: Any) -> dict[str, Any]:
    return {"sections": {"main": [{"card": c.external_id, "count": 3} for c in cards],
                         "extra": [{"card": extra.external_id, "count": 1}], "side": []}}  # fmt: skip


def test_it_measures_the_metagame_and_lets_organizers_label_what_no_rule_caught(
    games: Any, organizer: Any, names: Any
) -> None:
    game = games["yugioh"]
    genex = [make_card(game, f"{100 + i}", f"Genex {i}", card_type="monster", subtypes=["normal"], level=4,
                       attributes={"setcode": [0x2]}) for i in range(14)]  # fmt: skip
    wing = [make_card(game, f"{200 + i}", f"Blackwing {i}", card_type="monster", subtypes=["normal"], level=4,
                      attributes={"setcode": [0x33]}) for i in range(14)]  # fmt: skip
    plain = [make_card(game, f"{300 + i}", f"Plain {i}", card_type="monster", subtypes=["normal"], level=4)
             for i in range(14)]  # fmt: skip
    extra = make_card(game, "900", "Fusion", card_type="monster", subtypes=["fusion"], level=6)
    event = make_event(organizer, game, deck_registration=True, rounds=1,
                       decklist_timeline={"finished": "open"})  # fmt: skip
    decks = [genex, genex, wing, plain]
    for i, cards in enumerate(decks):
        player = services.player_register(tournament=event, by=organizer, name=f"P{i}")
        services.player_submit_deck(player=player, by=organizer, payload=_payload(cards, extra))
    services.round_pair_next(tournament=event, by=organizer)
    finish_round(event, organizer)
    anonymous = APIClient()
    assert anonymous.get(f"/api/tournaments/{event.pk}/metagame/").json()["archetypes"] == []
    services.tournament_finish(tournament=event, by=organizer)
    data = anonymous.get(f"/api/tournaments/{event.pk}/metagame/").json()
    by_name = {a["name"]: a for a in data["archetypes"]}
    assert by_name["Genex"]["count"] == 2 and by_name["Genex"]["share"] == 0.5
    assert by_name["Blackwing"]["count"] == 1 and by_name[""]["count"] == 1
    assert sum(a["matches"] for a in data["archetypes"]) == 4  # two matches, each from both sides
    for cell in data["matrix"]:
        assert cell["matches"] == cell["wins"] + cell["losses"] + cell["draws"] >= 1
    entry = next(e for e in data["entries"] if e["name"] == "P0")
    assert entry["archetype"] == {"name": "Genex", "rule": "set code 0x2 Genex: 42 of 42 main-deck cards"}
    # Guests were never asked: under an explicit timeline their lists stay private.
    assert entry["list_private"] and not entry["list_visible"]

    # The plain deck waits in the review queue; the organizer's label wins and survives a reclassification.
    client = Client()
    client.force_login(organizer)
    queue = client.get(reverse("results:review", args=[event.pk])).content.decode()
    assert queue.count('data-testid="review-row"') == 1 and "P3" in queue
    plain_player = event.players.get(name="P3")
    client.post(
        reverse("results:review", args=[event.pk]), {"player": plain_player.pk, "name": "Normal Beatdown"}
    )
    results_services.archetypes_classify(tournament=Tournament.objects.get(pk=event.pk))
    label = DeckArchetype.objects.get(player=plain_player)
    assert label.name == "Normal Beatdown" and label.source == "human" and organizer.username in label.rule
    assert "review-empty" in client.get(reverse("results:review", args=[event.pk])).content.decode()
    bad = client.post(reverse("results:review", args=[event.pk]), {"player": plain_player.pk, "name": " "})
    assert bad.status_code == 302 and DeckArchetype.objects.get(player=plain_player).name == "Normal Beatdown"
    assert Client().get(reverse("results:review", args=[event.pk])).status_code == 302  # sign in first

    page = Client().get(reverse("results:metagame", args=[event.pk])).content.decode()
    assert 'data-testid="share-chart"' in page and "viewBox" in page and "Normal Beatdown" in page
    assert "list private" in page and "Genex 0" not in page
    russian = Client()
    russian.cookies["django_language"] = "ru"
    page_ru = russian.get(reverse("results:metagame", args=[event.pk])).content.decode()
    assert "Метагейм" in page_ru and "Доля побед в матчах" in page_ru and "список скрыт" in page_ru

    # A series (or a game's date range) adds its events up, each under its own timeline.
    other = make_event(organizer, game, deck_registration=True, rounds=1, name="Still running",
                       decklist_timeline={"finished": "open"})  # fmt: skip
    newcomer = services.player_register(tournament=other, by=organizer, name="Q")
    services.player_submit_deck(player=newcomer, by=organizer, payload=_payload(genex, extra))
    api = APIClient()
    api.force_authenticate(organizer)
    series = api.post("/api/series/", {"name": "League", "game": "yugioh"}, format="json").json()["id"]
    for t in (event, other):
        assert (
            api.post(f"/api/series/{series}/events/", {"tournament": t.pk}, format="json").status_code == 201
        )
    league = anonymous.get(f"/api/metagame/?series={series}").json()
    assert (
        league["events"] == 2 and league["players"] == 4
    )  # the running event's archetypes are not public yet
    assert api.get(f"/api/metagame/?series={series}").json()["players"] == 5  # its organizer sees them
    today = event.created_at.date().isoformat()
    assert anonymous.get(f"/api/metagame/?game=yugioh&from={today}&to={today}").json()["events"] == 2
    assert anonymous.get("/api/metagame/?game=yugioh&from=yesterday").status_code == 400
    assert anonymous.get("/api/metagame/").json()["events"] == 2  # no filter: every game's events
    league_page = Client().get(reverse("calendars:series_metagame", args=[series])).content.decode()
    assert "League" in league_page and "share-chart" in league_page
