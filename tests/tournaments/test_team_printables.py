"""Printables of team events and phases: team pairings by table (team names, seats and tables; Two-Headed
Giant at one table per pairing), team standings, and one phase's standings (players, and teams in a team
event), as HTML and PDF, in Russian too."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import Match, Tournament

from .test_team_phases_and_cut import _event, _play, _teams

pytestmark = pytest.mark.django_db


def _trio_event(organizer, make_user, api_client_for, **kw):  # type: ignore[no-untyped-def]
    api = api_client_for(organizer)
    tid = _event(api, **kw)
    _teams(api, tid, make_user, 3, kw.get("team_size", 3))
    return api, tid, Tournament.objects.get(pk=tid)


def test_team_pairings_print_names_teams_seats_and_tables(
    games, organizer, make_user, api_client_for, client
):
    api, tid, event = _trio_event(organizer, make_user, api_client_for)
    assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
    page = client.get(f"/tournaments/{tid}/print/pairings/?round=1")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="print-team-pairings"' in html
    first = Match.objects.filter(round__tournament=event, bye=False).order_by("table").first()
    a, b = (s.player.name for s in first.seats.order_by("seat"))
    assert f"A · Table 1: {a} — {b}" in html
    assert html.count("(bye)") == 1  # three teams: one pairing and the bye team
    names = {t.name for t in event.teams.all()}
    assert all(name in html for name in names)
    # By name stays the players' list.
    assert (
        'data-testid="print-team-pairings"'
        not in client.get(f"/tournaments/{tid}/print/pairings/?round=1&order=name").content.decode()
    )
    pdf = client.get(f"/tournaments/{tid}/print/pairings/?round=1&format=pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_two_headed_giant_pairings_print_one_table_per_pairing(
    games, organizer, make_user, api_client_for, client
):
    api, tid, _event = _trio_event(organizer, make_user, api_client_for, team_size=2, team_mode="2hg")
    assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
    html = client.get(f"/tournaments/{tid}/print/pairings/?round=1").content.decode()
    assert "Two-Headed Giant" in html and "A+B · Table 1:" in html and " &amp; " in html
    assert "Table 2" in html and "Table 3" not in html


def test_team_standings_and_phase_standings_print(games, organizer, make_user, api_client_for, client):
    api, tid, event = _trio_event(organizer, make_user, api_client_for, rounds=1)
    assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
    _play(event, organizer, 1)
    assert api.post(f"/api/tournaments/{tid}/phases/", {"kind": "swiss", "rounds": 1, "advance": {"top": 2}},
                    format="json").status_code == 201  # fmt: skip
    assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
    _play(event, organizer, 2)
    teams = client.get(f"/tournaments/{tid}/print/teams/").content.decode()
    assert 'data-testid="print-team-standings"' in teams and "A: t0" in teams
    phase = client.get(f"/tournaments/{tid}/print/phase/?phase=2").content.decode()
    assert 'data-testid="print-phase-standings"' in phase and 'data-testid="print-team-standings"' in phase
    rows = services.team_standings_rows(event, event.phases.get(number=2))
    assert len(rows) == 2 and all(row["name"] in phase for row in rows)
    assert "Rounds 2–2" in phase
    one = client.get(f"/tournaments/{tid}/print/phase/?phase=1").content.decode()
    assert "The first Swiss rounds" in one and one.count("<tr>") > phase.count("<tr>")
    assert client.get(f"/tournaments/{tid}/print/phase/?phase=7").status_code == 404
    ru = client.get(f"/tournaments/{tid}/print/teams/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Командная таблица" in ru and "Победы команд-соперников" in ru
    assert client.get(f"/tournaments/{tid}/print/teams/?format=pdf").content.startswith(b"%PDF")
    # The pages link their printables.
    assert (
        'data-testid="print-team-standings-link"' in client.get(f"/tournaments/{tid}/teams/").content.decode()
    )
    assert 'data-testid="print-phase-link"' in client.get(f"/tournaments/{tid}/phases/2/").content.decode()


def test_a_solo_event_has_no_team_printable(games, organizer, client):
    from .factories import make_event

    event = make_event(organizer, games["mtg"], players=4, format_slug="constructed")
    assert client.get(f"/tournaments/{event.pk}/print/teams/").status_code == 404
    assert client.get(f"/tournaments/{event.pk}/print/phase/?phase=1").status_code == 200
