"""Pairing reports of team rounds (teams on team points: rematches between teams, the team bye and why,
pair-downs against their lower bound, the seed — rerun by ``pairing_verify`` — and manual changes), on the
API and the public page; and match slips naming the teams (Two-Headed Giant: both heads of each team)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments.models import Match, MatchSeat, Round, Tournament

from .test_team_phases_and_cut import _event, _play, _teams

pytestmark = pytest.mark.django_db


def test_team_rounds_have_a_pairing_report_at_its_lower_bound(
    games, organizer, make_user, api_client_for, client
):
    api = api_client_for(organizer)
    tid = _event(api, rounds=3, seed=7)
    _teams(api, tid, make_user, 5, 3)
    event = Tournament.objects.get(pk=tid)
    names = set(event.teams.values_list("name", flat=True))
    bye_teams = set()
    for number in (1, 2, 3):
        assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
        answer = api.get(f"/api/tournaments/{tid}/rounds/{number}/report/")
        assert answer.status_code == 200, answer.content
        report = answer.json()
        assert report["rematches"] == [] and report["manual_changes"] == []
        assert report["teams"] is True
        assert report["seed"] == Round.objects.get(tournament=event, number=number).seed
        assert report["pair_downs"] == report["pair_downs_lower_bound"]
        (bye,) = report["byes"]  # five teams: one team's bye (its three members' byes count once)
        assert bye["name"] in names and bye["name"] not in bye_teams
        assert bye["reason"] in ("lowest_without_bye", "lower_players_had_byes", "lower_bye_forces_rematch")
        bye_teams.add(bye["name"])
        if number > 1:
            # Team points decide: four teams on 3 points or 0 after round 1, byes counted as wins.
            assert bye["points"] in (0, 3, 6)
        page = client.get(f"/tournaments/{tid}/rounds/{number}/report/").content.decode()
        assert 'data-testid="team-report"' in page and f"<strong>{bye['name']}</strong>" in page
        assert "team points" in page
        # The bye team's members read why on their phones (and so does every other team).
        member = event.teams.get(name=bye["name"]).members.get(seat=1).player
        client.force_login(member.user)
        mine = client.get(f"/tournaments/{tid}/me/").content.decode()
        assert 'data-testid="team-why"' in mine and "Team bye:" in mine
        client.logout()
        _play(event, organizer, number)
    call_command("pairing_verify", str(tid))  # every team round identical to a rerun of its seed


def test_a_team_rematch_forced_by_hand_shows_in_the_report_and_the_rerun(
    games, organizer, make_user, api_client_for
):  # type: ignore[no-untyped-def]
    api = api_client_for(organizer)
    tid = _event(api, team_size=2, team_mode="2hg", rounds=2, seed=4)
    _teams(api, tid, make_user, 4, 2)
    event = Tournament.objects.get(pk=tid)
    assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
    first = Match.objects.get(round__tournament=event, round__number=1, table=1)
    x, y = (s.player_id for s in first.seats.order_by("seat"))
    _play(event, organizer, 1)
    assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
    report = api.get(f"/api/tournaments/{tid}/rounds/2/report/").json()
    assert report["rematches"] == [] and report["byes"] == []
    # Seat x's round-2 opponent and y trade places behind the engine's back: the teams of table 1 meet again.
    own = MatchSeat.objects.get(match__round__number=2, match__round__tournament=event, player_id=x)
    rival = own.match.seats.exclude(player_id=x).get()
    moved = MatchSeat.objects.get(match__round__number=2, match__round__tournament=event, player_id=y)
    rival.player_id, moved.player_id = y, rival.player_id
    MatchSeat.objects.bulk_update([rival, moved], ["player"])
    report = api.get(f"/api/tournaments/{tid}/rounds/2/report/").json()
    # Four teams: the other two teams of round 2 now replay their round-1 pairing as well.
    team_names = {m.player_id: m.team.name for t in event.teams.all() for m in t.members.all()}
    met = [{p["name"] for p in r["players"]} for r in report["rematches"]]
    assert len(met) == 2 and {team_names[x], team_names[y]} in met
    with pytest.raises(CommandError):
        call_command("pairing_verify", str(tid), "--round", "2")


def test_slips_of_a_team_event_name_the_teams(games, organizer, make_user, api_client_for, client):
    api = api_client_for(organizer)
    tid = _event(api)
    _teams(api, tid, make_user, 2, 3)
    assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
    client.force_login(organizer)
    html = client.get(f"/tournaments/{tid}/print/slips/?round=1").content.decode()
    assert html.count('data-testid="slip-teams"') == 3
    event = Tournament.objects.get(pk=tid)
    team = {m.player_id: m.team.name for t in event.teams.all() for m in t.members.all()}
    for seat, m in zip("ABC", Match.objects.filter(round__tournament=event).order_by("table"), strict=True):
        a, b = m.seats.order_by("seat")
        assert f"{team[a.player_id]} — {team[b.player_id]}, seat {seat}" in html
        assert f"Signature: {a.player.name} ({team[a.player_id]})" in html
    pdf = client.get(f"/tournaments/{tid}/print/slips/?round=1&format=pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_two_headed_giant_slips_name_both_heads(games, organizer, make_user, api_client_for, client):
    api = api_client_for(organizer)
    tid = _event(api, team_size=2, team_mode="2hg")
    _teams(api, tid, make_user, 2, 2)
    assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
    client.force_login(organizer)
    client.cookies["django_language"] = "ru"
    html = client.get(f"/tournaments/{tid}/print/slips/?round=1", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert html.count('data-testid="slip-teams"') == 1
    assert "«Двухголовый гигант»: Team 0 — Team 1" in html and "t0 &amp; t1" in html and "t2 &amp; t3" in html
