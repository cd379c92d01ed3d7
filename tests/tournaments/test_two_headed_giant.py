"""Two-Headed Giant: teams of 2, one shared game per team pairing (seated on seat A's players), its result
reported once by either member of a team and confirmed by the other team, team standings from those games."""

from __future__ import annotations

import pytest

from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def _event(organizer, api_client_for, **kw):  # type: ignore[no-untyped-def]
    client = api_client_for(organizer)
    answer = client.post("/api/tournaments/", {"name": "2HG Night", "game": "mtg", "format": "constructed",
                                               "team_size": 2, "team_mode": "2hg", "rounds": 2, "seed": 5, **kw},
                         format="json")  # fmt: skip
    return client, answer


def test_two_headed_giant_needs_teams_of_two(games, organizer, api_client_for):
    _client, answer = _event(organizer, api_client_for, team_size=3)
    # Each value is valid; together they cannot go (README "Errors": 422).
    assert answer.status_code == 422 and "team_mode" in answer.json()
    _client, answer = _event(organizer, api_client_for, team_mode="3v3")
    assert answer.status_code == 400 and "team_mode" in answer.json()
    _client, answer = _event(organizer, api_client_for)
    assert answer.status_code == 201 and answer.json()["team_mode"] == "2hg"


def test_one_shared_game_per_team_pairing_reported_once(games, organizer, make_user, api_client_for, client):
    api, answer = _event(organizer, api_client_for)
    tid = answer.json()["id"]
    names = [f"h{i}" for i in range(10)]
    users = {name: make_user(name) for name in names}
    for t in range(5):
        made = api.post(f"/api/tournaments/{tid}/teams/", {"name": f"Heads {t}", "members": names[2 * t: 2 * t + 2]},
                        format="json")  # fmt: skip
        assert made.status_code == 201, made.content
    event = Tournament.objects.get(pk=tid)
    team_of = {m.player_id: (m.team.name, m.seat) for t in event.teams.all() for m in t.members.all()}
    user_team = {m.player.user.username: m.team.name for t in event.teams.all() for m in t.members.all()}
    for number in (1, 2):
        assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
        matches = list(Match.objects.filter(round__tournament=event, round__number=number).order_by("table"))
        # Two team pairings (one game each) and the bye team's one bye: three matches, not six.
        assert len(matches) == 3 and sum(m.bye for m in matches) == 1
        assert [m.table for m in matches] == [1, 2, 3]
        for m in matches:
            seats = list(m.seats.all())
            assert all(team_of[s.player_id][1] == 0 for s in seats)  # seat A holds the team's place
            if m.bye:
                continue
            a, b = seats
            # Seat B of the first team reports the shared game (a win for its team) from their own account.
            reporter = next(n for n, team in user_team.items() if team == team_of[a.player_id][0] and
                            n != a.player.user.username)  # fmt: skip
            reported = api_client_for(users[reporter]).post(f"/api/matches/{m.pk}/result/", {"wins": [2, 1]},
                                                            format="json")  # fmt: skip
            assert reported.status_code == 200, reported.content
            # Its own seat A may not confirm its team's report; the other team's seat B may.
            own = api_client_for(a.player.user).post(f"/api/matches/{m.pk}/confirm/", {}, format="json")
            assert own.status_code == 403
            other = next(n for n, team in user_team.items() if team == team_of[b.player_id][0] and
                         n != b.player.user.username)  # fmt: skip
            confirmed = api_client_for(users[other]).post(f"/api/matches/{m.pk}/confirm/", {}, format="json")
            assert confirmed.status_code == 200, confirmed.content
            # A stranger to both teams may not report.
            stranger = next(n for n, team in user_team.items() if team not in
                            (team_of[a.player_id][0], team_of[b.player_id][0]))  # fmt: skip
            m.refresh_from_db()
            assert m.status == "confirmed"
            refused = api_client_for(users[stranger]).post(f"/api/matches/{m.pk}/confirm/", {}, format="json")
            assert refused.status_code in (403, 404)
    rows = api.get(f"/api/tournaments/{tid}/teams/").json()["teams"]
    assert len(rows) == 5
    # Two rounds × (two games won + one bye) = six team wins, each game counted once.
    assert sum(r["wins"] for r in rows) == 6 and sum(r["losses"] for r in rows) == 4
    assert rows[0]["points"] == 6 and all(r["points"] % 3 == 0 for r in rows)
    # Seat B's phone says where the team plays.
    client.force_login(users["h1"])
    page = client.get(f"/tournaments/{tid}/me/").content.decode()
    assert "Your team: Heads 0, seat B" in page and 'data-testid="my-team-2hg"' in page
    assert "Two-Headed Giant with h0" in page
    # Seat B of a team that played (no bye) in round 2 gets its table and a link to the shared game.
    shared = (
        Match.objects.filter(round__tournament=event, round__number=2, bye=False).order_by("table").first()
    )
    head = shared.seats.get(seat=0).player
    partner = next(m for m in head.team_member.team.members.all() if m.player_id != head.pk).player
    client.force_login(partner.user)
    page = client.get(f"/tournaments/{tid}/me/").content.decode()
    assert f'href="/tournaments/matches/{shared.pk}/"' in page
    assert f"your team plays at table {shared.table}" in page
    standings = client.get(f"/tournaments/{tid}/teams/").content.decode()
    assert 'data-testid="team-mode-2hg"' in standings and "A: h0 · B: h1" in standings
