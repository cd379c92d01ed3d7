"""Two-Headed Giant: every page that lists a team's game names the team with both its heads ("Team 1 (t2 & t3)")
instead of the seat A player the game is seated on — the organizer's round dashboard and its live fragment and
alerts, the public round table, the pairings page and projector, the printed pairings by name and the match
slips, the match page's result forms, both heads' phones, and the standings (teams first)."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import Match, Tournament

from .test_team_phases_and_cut import _event, _teams

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return html.replace("&amp;", "&")


@pytest.fixture
def two_headed(games, organizer, make_user, api_client_for):  # type: ignore[no-untyped-def]
    api = api_client_for(organizer)
    tid = _event(api, team_size=2, team_mode="2hg", rounds=2, seed=4)
    _teams(api, tid, make_user, 4, 2)
    assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
    event = Tournament.objects.get(pk=tid)
    label = {
        m.player_id: f"{t.name} ({' & '.join(x.player.name for x in t.members.order_by('seat'))})"
        for t in event.teams.all()
        for m in t.members.all()
    }
    return event, label


def seated_ids(match):  # type: ignore[no-untyped-def]
    return {s.player_id for s in match.seats.all()}


def _games(event):  # type: ignore[no-untyped-def]
    return list(Match.objects.filter(round__tournament=event, round__number=1).order_by("table"))


def test_the_organizers_pages_name_both_teams_of_every_table(two_headed, organizer, client):
    event, label = two_headed
    client.force_login(organizer)
    games = _games(event)
    # Before any result, the tools that change the pairings offer teams, not their seat A players.
    before = _text(client.get(f"/tournaments/{event.pk}/rounds/1/").content.decode())
    for m in games:
        for s in m.seats.all():
            assert f'">{label[s.player_id]}</option>' in before
    services.match_report_result(match=games[0], by=games[0].seats.first().player.user, wins=[2, 1])
    pages = {
        "dashboard": f"/tournaments/{event.pk}/rounds/1/",
        "fragment": f"/tournaments/{event.pk}/organizer/live/?page=round&round=1",
        "event page alerts": f"/tournaments/{event.pk}/organizer/live/?page=event",
        "slips": f"/tournaments/{event.pk}/print/slips/?round=1",
    }
    for name, url in pages.items():
        html = _text(client.get(url).content.decode())
        for m in games if name != "event page alerts" else games[:1]:
            a, b = (label[s.player_id] for s in m.seats.order_by("seat"))
            assert f"{a} — {b}" in html or f"{a} – {b}" in html or (a in html and b in html), (name, a, b)
    dashboard = _text(client.get(pages["dashboard"]).content.decode())
    # The result entry of a table still open labels each side's wins with its team.
    open_game = games[1]
    a, _b = (label[s.player_id] for s in open_game.seats.order_by("seat"))
    assert f'aria-label="Games won by {a}"' in dashboard
    # The list of all matches finds a table by the team's name or by its seat B head.
    partner_b = next(
        p for p in event.players.all() if label.get(p.pk) == _b and p.pk not in seated_ids(open_game)
    )
    for q in (_b.split(" (")[0], partner_b.name):
        found = _text(client.get(pages["dashboard"], {"q": q}).content.decode())
        listed = found.split('data-testid="match-list"', 1)[1].split("</table>", 1)[0]
        assert "All matches (1)" in found and f"{a} — {_b}" in listed, q
    slips = _text(client.get(pages["slips"]).content.decode())
    assert f"Signature: {a}" in slips and f"☐ {a}" in slips


def test_the_public_pages_name_teams_and_find_both_heads(two_headed, client):
    event, label = two_headed
    game = _games(event)[0]
    a, b = (s.player_id for s in game.seats.order_by("seat"))
    partner = next(pid for pid, text in label.items() if text == label[a] and pid != a)
    for url in (f"/tournaments/{event.pk}/rounds/1/", f"/tournaments/{event.pk}/pairings/",
                f"/tournaments/{event.pk}/projector/pairings/"):  # fmt: skip
        html = _text(client.get(url).content.decode())
        assert label[a] in html and label[b] in html, url
    by_name = _text(client.get(f"/tournaments/{event.pk}/pairings/").content.decode())
    partner_name = event.players.get(pk=partner).name
    # Seat B finds their own name, with the other team (both heads) as their one opponent.
    row = next(li for li in by_name.split("<li>") if f"<strong>{partner_name}</strong>" in li)
    assert label[b] in row and row.count(" & ") == 1


def test_the_match_page_and_both_heads_phones_name_the_teams(two_headed, client):
    event, label = two_headed
    game = _games(event)[0]
    seat_a, seat_b = game.seats.order_by("seat")
    ours, theirs = label[seat_a.player_id], label[seat_b.player_id]
    partner = next(p for p in event.players.all() if label.get(p.pk) == ours and p.pk != seat_a.player_id)
    client.force_login(partner.user)
    match_page = _text(client.get(f"/tournaments/matches/{game.pk}/").content.decode())
    assert f"{ours} — {theirs}" in match_page
    assert 'data-testid="wins-form"' in match_page and f'<label>{ours} <input name="wins_a"' in match_page
    before = _text(client.get(f"/tournaments/{event.pk}/me/").content.decode())
    assert "a head of the other team confirms the result." in before
    services.match_report_result(match=game, by=partner.user, wins=[2, 0])
    mine = _text(client.get(f"/tournaments/{event.pk}/me/").content.decode())
    assert f"{ours} vs {theirs}" in mine and f"{ours} <strong>2</strong>" in mine
    assert "Waiting for the other team to confirm." in mine
    other = next(p for p in event.players.all() if label.get(p.pk) == theirs and p.pk != seat_b.player_id)
    client.force_login(other.user)
    theirs_page = _text(client.get(f"/tournaments/{event.pk}/me/").content.decode())
    assert f"{theirs} vs {ours}" in theirs_page and 'data-testid="confirm-box"' in theirs_page
    match_page = client.get(f"/tournaments/matches/{game.pk}/").content.decode()
    assert "The other team reported this result. Is it right?" in match_page


def test_the_standings_put_the_teams_first(two_headed, organizer, client):
    event, label = two_headed
    for m in _games(event):
        services.match_report_result(match=m, by=organizer, wins=[2, 0])
    html = _text(client.get(f"/tournaments/{event.pk}/standings/").content.decode())
    teams_at = html.index('data-testid="standings-teams"')
    assert teams_at < html.index('data-testid="standings-live"')
    winners = [label[m.seats.order_by("seat").first().player_id] for m in _games(event)]
    table = html[teams_at:]
    for team in winners:
        name = team.split(" (")[0]
        assert f"<strong>{name}</strong>" in table
    assert "Teams (Two-Headed Giant)" in html
    projector = _text(client.get(f"/tournaments/{event.pk}/projector/standings/").content.decode())
    assert 'data-testid="team-standings" class="projector-standings"' in projector
    for team in winners:
        assert f"<strong>{team.split(' (')[0]}</strong>" in projector
    printed = _text(client.get(f"/tournaments/{event.pk}/print/standings/").content.decode())
    assert 'data-testid="print-team-standings"' in printed
    assert printed.index('data-testid="print-team-standings"') < printed.index('data-testid="standings"')


def test_each_head_is_told_their_teams_final_place(two_headed, organizer, client):
    event, _label = two_headed
    for number in (1, 2):
        if number > 1:
            services.round_pair_next(tournament=event, by=organizer)
        for m in Match.objects.filter(round__tournament=event, round__number=number, bye=False):
            services.match_report_result(match=m, by=organizer, wins=[2, 0])
    services.tournament_finish(tournament=event, by=organizer)
    rows = services.team_standings_rows(event)
    last = rows[-1]
    for member in last["members"]:
        client.force_login(event.players.get(pk=member["player"]).user)
        page = _text(client.get(f"/tournaments/{event.pk}/me/").content.decode())
        told = f"Final standings: your team {last['name']} finished 4th of 4 teams, with a record of "
        assert told + f"{last['wins']}–{last['losses']}–{last['draws']}." in page
