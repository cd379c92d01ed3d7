"""The REST API keeps the shapes integrations rely on."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _create(client, **extra):  # type: ignore[no-untyped-def]
    body = {
        "name": "Friday Locals",
        "game": "caster",
        "format": "standard",
        "match_format": "bo3",
        "seed": 7,
        **extra,
    }
    response = client.post(reverse("api-tournament-list"), body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_it_creates_a_tournament_and_reads_it_back(games, organizer, api_client_for):
    client = api_client_for(organizer)
    created = _create(client, rounds=3, top_cut=4)
    assert {
        "id",
        "name",
        "game",
        "format",
        "match_format",
        "tiebreakers",
        "rounds",
        "top_cut",
        "seed",
    } <= set(created)
    assert created["tiebreakers"] == "mtg"  # the game's default policy
    assert created["seed"] == 7
    got = client.get(f"/api/tournaments/{created['id']}/").json()
    assert got["id"] == created["id"] and got["game"] == "caster" and got["rounds"] == 3


def test_it_refuses_creation_by_a_player_and_anonymous(games, user, api_client, api_client_for):
    body = {"name": "X", "game": "caster", "format": "standard"}
    assert api_client.post("/api/tournaments/", body, format="json").status_code in (401, 403)
    assert api_client_for(user).post("/api/tournaments/", body, format="json").status_code == 403


def test_it_names_the_bad_field(games, organizer, api_client_for):
    response = api_client_for(organizer).post(
        "/api/tournaments/", {"name": "X", "game": "caster", "format": "nope"}, format="json"
    )
    assert response.status_code == 422  # a format the game does not have (README, API "Errors")
    assert "format" in response.json()


def test_it_pairs_rounds_reports_results_and_shows_standings(games, organizer, api_client_for):
    client = api_client_for(organizer)
    tid = _create(client, rounds=3)["id"]
    ids = []
    for i in range(5):
        response = client.post(f"/api/tournaments/{tid}/players/", {"name": f"P{i}"}, format="json")
        assert response.status_code == 201, response.content
        assert "id" in response.json()
        ids.append(response.json()["id"])
    response = client.post(f"/api/tournaments/{tid}/rounds/")
    assert response.status_code == 201, response.content
    round1 = response.json()
    assert round1["number"] == 1
    assert {"id", "table", "players", "bye"} <= set(round1["matches"][0])
    byes = [m for m in round1["matches"] if m["bye"]]
    assert len(byes) == 1 and len(byes[0]["players"]) == 1
    assert sorted(p for m in round1["matches"] for p in m["players"]) == sorted(ids)
    for m in round1["matches"]:
        if not m["bye"]:
            r = client.post(f"/api/matches/{m['id']}/result/", {"wins": [2, 1], "draws": 0}, format="json")
            assert r.status_code == 200, r.content
            assert r.json()["status"] == "final"
    drop = client.post(f"/api/tournaments/{tid}/players/{ids[0]}/drop/")
    assert drop.status_code == 200 and drop.json()["dropped"] is True
    standings = client.get(f"/api/tournaments/{tid}/standings/").json()["standings"]
    assert len(standings) == 5
    row = standings[0]
    assert set(row) == {
        "rank",
        "player",
        "name",
        "points",
        "wins",
        "losses",
        "draws",
        "dropped",
        "tiebreakers",
        "swiss_rank",
        "top_cut",
    }
    assert row["top_cut"] is None and row["swiss_rank"] == row["rank"]
    assert set(row["tiebreakers"]) == {"omw", "gw", "ogw"}
    assert all(0 <= v <= 1 for r in standings for v in r["tiebreakers"].values())
    round2 = client.post(f"/api/tournaments/{tid}/rounds/").json()
    assert ids[0] not in [p for m in round2["matches"] for p in m["players"]]


def test_it_accepts_games_and_intentional_draws(games, organizer, api_client_for):
    client = api_client_for(organizer)
    tid = _create(client, rounds=2)["id"]
    for i in range(4):
        client.post(f"/api/tournaments/{tid}/players/", {"name": f"P{i}"}, format="json")
    m1, m2 = client.post(f"/api/tournaments/{tid}/rounds/").json()["matches"]
    a, b = m1["players"]
    r = client.post(
        f"/api/matches/{m1['id']}/result/",
        {"games": [{"winner": a, "first": b}, {"winner": b, "first": a}, {"winner": a, "first": b}]},
        format="json",
    )
    assert r.status_code == 200, r.content
    assert r.json()["wins"] == [2, 1]
    r = client.post(f"/api/matches/{m2['id']}/result/", {"wins": [0, 0], "draws": 3}, format="json")
    assert r.json()["wins"] == [0, 0] and r.json()["draws"] == 3
    rows = {
        row["player"]: row for row in client.get(f"/api/tournaments/{tid}/standings/").json()["standings"]
    }
    assert rows[m2["players"][0]]["points"] == 1 and rows[m2["players"][0]]["draws"] == 1


def test_it_documents_the_endpoints_in_the_schema(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    for path in ("/api/tournaments/", "/api/tournaments/{id}/players/", "/api/tournaments/{id}/rounds/",
                 "/api/matches/{id}/result/", "/api/tournaments/{id}/standings/",
                 "/api/tournaments/{id}/players/{player_id}/drop/"):  # fmt: skip
        assert path in schema


def test_an_illegal_deck_leaves_no_registration_behind(games, user, organizer, api_client_for):
    from tests.tournaments.factories import make_event, ygo_cards, ygo_payload
    from tournaments.models import Player

    game = games["yugioh"]
    cards = ygo_cards(game)
    event = make_event(organizer, game, deck_registration=True)
    response = api_client_for(user).post(
        f"/api/tournaments/{event.pk}/players/",
        {"deck": ygo_payload(cards, main_copies=4), "code": event.join_code},
        format="json",
    )
    # Well-formed, but not legal for the event's format: cannot go with it (README "Errors": 422).
    assert response.status_code == 422 and "deck" in response.json()
    assert not Player.objects.filter(tournament=event).exists()
