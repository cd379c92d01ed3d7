"""API shapes: tiebreak keys per policy, pod rounds and pod results, input errors."""

from __future__ import annotations

import pytest

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _event(client, **extra):  # type: ignore[no-untyped-def]
    body = {"name": "API Cup", "game": "caster", "format": "standard", "rounds": 2, "seed": 5, **extra}
    response = client.post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


@pytest.mark.parametrize(
    ("policy", "keys"),
    [("mtg", {"omw", "gw", "ogw"}), ("yugioh", {"omw", "oomw"}), ("pokemon", {"owp", "oowp"})],
)
def test_standings_use_exactly_the_keys_of_the_policy(games, organizer, api_client_for, policy, keys):
    client = api_client_for(organizer)
    tid = _event(client, tiebreakers=policy)
    for i in range(6):
        client.post(f"/api/tournaments/{tid}/players/", {"name": f"P{i}"}, format="json")
    for m in client.post(f"/api/tournaments/{tid}/rounds/").json()["matches"]:
        client.post(f"/api/matches/{m['id']}/result/", {"wins": [2, 1], "draws": 0}, format="json")
    rows = client.get(f"/api/tournaments/{tid}/standings/").json()["standings"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5, 6]
    for row in rows:
        assert set(row["tiebreakers"]) == keys
        assert all(isinstance(v, float) and 0 <= v <= 1 for v in row["tiebreakers"].values())


def test_pod_rounds_list_two_to_four_players_and_take_places(games, organizer, api_client_for):
    client = api_client_for(organizer)
    response = client.post(
        "/api/tournaments/",
        {"name": "Vale", "game": "vale", "format": "standard", "rounds": 1},
        format="json",
    )
    tid = response.json()["id"]
    assert response.json()["match_format"] == "pods"
    for i in range(7):
        client.post(f"/api/tournaments/{tid}/players/", {"name": f"P{i}"}, format="json")
    round1 = client.post(f"/api/tournaments/{tid}/rounds/").json()
    assert sorted(len(m["players"]) for m in round1["matches"]) == [3, 4]
    assert not any(m["bye"] for m in round1["matches"])
    pod = round1["matches"][0]
    places = [{"player": p, "score": 50 - i, "tiebreak": 3} for i, p in enumerate(pod["players"])]
    body = client.post(f"/api/matches/{pod['id']}/result/", {"places": places}, format="json").json()
    assert [row["place"] for row in body["places"]] == list(range(1, len(pod["players"]) + 1))


def test_a_result_gives_exactly_one_shape(games, organizer, api_client_for):
    client = api_client_for(organizer)
    tid = _event(client)
    for i in range(2):
        client.post(f"/api/tournaments/{tid}/players/", {"name": f"P{i}"}, format="json")
    (m,) = client.post(f"/api/tournaments/{tid}/rounds/").json()["matches"]
    a, b = m["players"]
    both = {"wins": [2, 0], "games": [{"winner": a, "first": a}]}
    assert client.post(f"/api/matches/{m['id']}/result/", both, format="json").status_code == 400
    bad = client.post(f"/api/matches/{m['id']}/result/", {"wins": [3, 0]}, format="json")
    assert bad.status_code == 400 and "wins" in bad.json()
    ok = client.post(
        f"/api/matches/{m['id']}/result/",
        {"games": [{"winner": a, "first": b}, {"winner": a, "first": b}]},
        format="json",
    )
    assert ok.status_code == 200 and ok.json()["wins"] == [2, 0] and ok.json()["draws"] == 0


def test_players_report_only_their_own_match_through_the_api(
    games, organizer, user, other_user, api_client_for
):
    client = api_client_for(organizer)
    tid = _event(client)
    code = Tournament.objects.get(pk=tid).join_code
    api_client_for(user).post(f"/api/tournaments/{tid}/players/", {"code": code}, format="json")
    client.post(f"/api/tournaments/{tid}/players/", {"name": "Guest"}, format="json")
    (m,) = client.post(f"/api/tournaments/{tid}/rounds/").json()["matches"]
    outsider = api_client_for(other_user)
    assert (
        outsider.post(f"/api/matches/{m['id']}/result/", {"wins": [2, 0]}, format="json").status_code == 403
    )
    assert outsider.post(f"/api/tournaments/{tid}/rounds/").status_code == 403
    mine = api_client_for(user).post(f"/api/matches/{m['id']}/result/", {"wins": [2, 0]}, format="json")
    assert mine.status_code == 200 and mine.json()["status"] == "reported"
    assert (
        api_client_for(user)
        .post(f"/api/matches/{m['id']}/correct/", {"wins": [0, 2]}, format="json")
        .status_code
        == 403
    )
