"""Every page and API read of a team event in its top cut answers (no 500): the event page, standings,
bracket, team standings, pairings, the organizer's round page, a member's phone, the printables and the API's
standings, teams and phases."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import Tournament

from .test_team_phases_and_cut import _event, _play, _teams

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("mode", ["seats", "2hg"])
def test_a_team_event_in_its_top_cut_renders_everywhere(
    mode, games, organizer, make_user, api_client_for, client
):
    api = api_client_for(organizer)
    size = 2 if mode == "2hg" else 3
    tid = _event(api, team_size=size, team_mode=mode, top_cut=4, rounds=2)
    _teams(api, tid, make_user, 5, size)
    event = Tournament.objects.get(pk=tid)
    for number in (1, 2):
        assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
        _play(event, organizer, number)
    services.topcut_start(tournament=event, by=organizer)
    member = event.teams.first().members.order_by("seat").last().player.user
    pages = [f"/tournaments/{tid}/", f"/tournaments/{tid}/standings/", f"/tournaments/{tid}/bracket/",
             f"/tournaments/{tid}/teams/", f"/tournaments/{tid}/pairings/", f"/tournaments/{tid}/phases/1/",
             f"/tournaments/{tid}/print/pairings/?round=3", f"/tournaments/{tid}/print/slips/?round=3",
             f"/tournaments/{tid}/print/standings/", f"/tournaments/{tid}/print/teams/"]  # fmt: skip
    client.force_login(organizer)
    for url in [*pages, f"/tournaments/{tid}/rounds/3/"]:
        assert client.get(url).status_code == 200, url
    client.force_login(member)
    assert client.get(f"/tournaments/{tid}/me/").status_code == 200
    for url in (f"/api/tournaments/{tid}/standings/", f"/api/tournaments/{tid}/teams/",
                f"/api/tournaments/{tid}/phases/", f"/api/tournaments/{tid}/"):  # fmt: skip
        assert api.get(url).status_code == 200, url
    _play(event, organizer, 3)
    services.topcut_advance(tournament=event, by=organizer)
    _play(event, organizer, 4)
    services.tournament_finish(tournament=event, by=organizer)
    client.force_login(organizer)
    for url in pages:
        assert client.get(url).status_code == 200, url
    assert api.get(f"/api/tournaments/{tid}/standings/").status_code == 200
    standings = client.get(f"/tournaments/{tid}/teams/").content.decode()
    assert standings.count('data-testid="team-cut-stage"') == 4 and "Winner" in standings
    assert "(Winner)" in client.get(f"/tournaments/{tid}/print/teams/").content.decode()
