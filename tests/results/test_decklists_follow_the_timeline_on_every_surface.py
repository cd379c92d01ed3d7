"""No list leaks: every surface that can show a registered list, at each stage of the event's timeline, for
anonymous visitors, the list's player, another player and the organizer (consent honoured)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from results import services as results_services
from tests.tournaments.factories import finish_round, make_deck, make_event, ygo_cards, ygo_payload
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "results/schemas/results-v1.schema.json").read_text()
)
CARD = "Test Monster 3"  # in every main deck: its name on a page means a list is shown
TIMELINE = {"registration": "closed", "swiss": "archetypes", "top_cut": "open", "finished": "open"}


@pytest.fixture
def genex_names(settings: Any, tmp_path: Any) -> None:
    (tmp_path / "ygo").mkdir()
    (tmp_path / "ygo" / "strings.conf").write_text("!setname 0x2 Genex\n!setname 0x1002 R-Genex\n")
    settings.SHARED_DATA_DIR = tmp_path
    results_services.ygo_setnames.cache_clear()
    yield
    results_services.ygo_setnames.cache_clear()


def _event(games: Any, organizer: Any, make_user: Any) -> tuple[Tournament, dict[str, Any]]:
    game = games["yugioh"]
    cards = ygo_cards(game)
    for card in cards["main"]:
        card.attributes = {**card.attributes, "setcode": [0x2]}
        card.save(update_fields=["attributes"])
    event = make_event(organizer, game, deck_registration=True, rounds=2, top_cut=2)
    api = APIClient()
    api.force_authenticate(organizer)
    assert (
        api.patch(f"/api/tournaments/{event.pk}/", {"decklists": TIMELINE}, format="json").status_code == 200
    )
    people = {}
    for i, consent in enumerate([True, False, True, False]):
        account = make_user(f"duelist{i}")
        client = APIClient()
        client.force_authenticate(account)
        deck = make_deck(account, game, ygo_payload(cards))
        answer = client.post(f"/api/tournaments/{event.pk}/players/",
                             {"code": event.join_code, "deck": deck.pk, "publish_consent": consent}, format="json")  # fmt: skip
        assert answer.status_code == 201, answer.content
        assert answer.json()["publish_consent"] is consent
        people[account.username] = account
    event.refresh_from_db()
    return event, people


def _sees(client: Any, event: Tournament, player: Any) -> dict[str, bool]:
    """Which surfaces show ``player``'s list to this client."""
    shows = {}
    pages = {
        "decklists page": reverse("tournaments:decklists", args=[event.pk]),
        "printable": reverse("tournaments:print", args=[event.pk, "decklists"]),
    }
    for surface, url in pages.items():
        body = client.get(url).content.decode()
        shows[surface] = player.name in body and CARD in body
    single = client.get(reverse("tournaments:player_deck", args=[event.pk, player.pk]))
    shows["single list page"] = single.status_code == 200 and CARD in single.content.decode()
    api = client.get(f"/api/tournaments/{event.pk}/decklists/").json()
    entry = next(e for e in api["players"] if e["player"] == player.pk)
    shows["api"] = entry["list"] is not None
    metagame = client.get(f"/api/tournaments/{event.pk}/metagame/").json()
    mine = next((e for e in metagame["entries"] if e["player"] == player.pk), None)
    shows["metagame"] = bool(mine and mine["list_visible"])
    document = client.get(f"/api/tournaments/{event.pk}/results.json").json()
    jsonschema.validate(document, SCHEMA)
    shows["results document"] = (
        next(p for p in document["players"] if p["id"] == player.pk)["list"] is not None
    )
    if event.status == Tournament.Status.FINISHED and player.user is not None:
        history = client.get(reverse("seasons:player", args=[player.user.username]))
        # The history links to the list (the link's page is checked above): the link shows only when it opens.
        link = reverse("tournaments:player_deck", args=[event.pk, player.pk])
        shows["season history"] = link in history.content.decode()
    return shows


def _advance(event: Tournament, organizer: Any, stage: str) -> None:
    if stage == "swiss":
        services.round_pair_next(tournament=event, by=organizer)
    elif stage == "top_cut":
        finish_round(event, organizer)
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer)
        services.topcut_start(tournament=event, by=organizer)
    elif stage == "finished":
        finish_round(event, organizer)
        from seasons.services import event_finished

        if event.status != Tournament.Status.FINISHED:
            services.tournament_finish(tournament=event, by=organizer)
        event.refresh_from_db()
        event_finished(tournament=event)
    event.refresh_from_db()


def test_it_shows_each_list_only_when_the_timeline_and_the_consent_allow(
    games: Any, organizer: Any, make_user: Any, genex_names: None
) -> None:
    event, people = _event(games, organizer, make_user)
    players = {p.user.username: p for p in event.players.select_related("user")}
    consenting, declining = players["duelist0"], players["duelist1"]
    viewers: dict[str, Client] = {"anonymous": Client()}
    for who, account in (
        ("player", people["duelist0"]),
        ("organizer", organizer),
        ("other", people["duelist2"]),
    ):
        viewers[who] = Client()
        viewers[who].force_login(account)
    for stage in ("registration", "swiss", "top_cut", "finished"):
        _advance(event, organizer, stage)
        cut = {seat.player_id for seat in services_cut_seats(event)}
        for viewer, client in viewers.items():
            for target in (consenting, declining):
                own = viewer == "player" and target == consenting
                if viewer == "organizer" or own:
                    expected = True
                elif TIMELINE[stage] != "open" or target == declining:
                    expected = False
                else:
                    expected = stage == "finished" or target.pk in cut
                shows = _sees(client, event, target)
                assert all(v == expected for v in shows.values()), (stage, viewer, target.name, shows)
        anonymous = Client().get(f"/api/tournaments/{event.pk}/decklists/").json()
        entry = next(e for e in anonymous["players"] if e["player"] == declining.pk)
        if TIMELINE[stage] == "closed":
            assert entry["archetype"] is None and not entry["list_private"]
        else:
            assert entry["archetype"]["name"] == "Genex" and "0x2 Genex" in entry["archetype"]["rule"]
        assert entry["list_private"] == (TIMELINE[stage] == "open")
        metagame = Client().get(f"/api/tournaments/{event.pk}/metagame/").json()
        assert metagame["players"] == (0 if TIMELINE[stage] == "closed" else 4)
        # Card counts are part of the lists: only the lists the public may read are counted.
        public_lists = sum(1 for e in anonymous["players"] if e["list"] is not None)
        assert metagame["lists_counted"] == public_lists
        assert bool(metagame["top_cards"]) == (public_lists > 0)
    document = Client().get(f"/api/tournaments/{event.pk}/results.json").json()
    assert document["version"] == 1 and len(document["standings"]) == 4
    assert [r["kind"] for r in document["rounds"]] == ["swiss", "swiss", "top_cut"]
    final = document["rounds"][-1]["matches"][0]
    assert final["wins"] == [2, 0] and final["status"] != "pending" and len(final["players"]) == 2
    csv_text = Client().get(reverse("results:standings_csv", args=[event.pk])).content.decode()
    lines = csv_text.splitlines()
    assert (
        lines[0].startswith("rank,player,name,points,wins,losses,draws,dropped,top_cut") and len(lines) == 5
    )
    assert CARD not in csv_text


def services_cut_seats(event: Tournament) -> list[Any]:
    from tournaments.models import MatchSeat

    return list(MatchSeat.objects.filter(match__round__tournament=event, match__round__kind="top_cut"))


def test_a_bad_timeline_is_refused_by_name(games: Any, organizer: Any) -> None:
    api = APIClient()
    api.force_authenticate(organizer)
    body = {"name": "Friday", "game": "yugioh", "format": "advanced", "decklists": {"swiss": "lists"}}
    answer = api.post("/api/tournaments/", body, format="json")
    assert answer.status_code == 400 and "decklists" in answer.json()
    body["decklists"] = {"semifinal": "open"}
    assert api.post("/api/tournaments/", body, format="json").status_code == 400
    body["decklists"] = TIMELINE
    made = api.post("/api/tournaments/", body, format="json")
    assert made.status_code == 201 and made.json()["decklists"] == TIMELINE


def test_the_join_pages_record_the_players_answer(games: Any, organizer: Any, make_user: Any) -> None:
    event = make_event(organizer, games["yugioh"], deck_registration=True, decklist_timeline=TIMELINE)
    yes, no, by_code = make_user("yes"), make_user("no"), make_user("bycode")
    for account, form in ((yes, {"publish_consent": "on"}), (no, {})):
        client = Client()
        client.force_login(account)
        client.post(reverse("tournaments:join", args=[event.pk]), {"code": event.join_code, **form})
    client = Client()
    client.force_login(by_code)
    client.post(reverse("tournaments:join_code", args=[event.join_code]), {"publish_consent": "on"})
    answers = dict(event.players.values_list("user__username", "publish_consent"))
    assert answers == {"yes": True, "no": False, "bycode": True}
    form = Client()
    form.force_login(make_user("looker"))
    assert (
        'name="publish_consent"'
        in form.get(reverse("tournaments:join_code", args=[event.join_code])).content.decode()
    )
