"""Two-Headed Giant, seat B: the players' standings credit both members with the team's shared game (seat B no
longer listed with no matches), and seat B's phone reports and confirms the game on its match page without
ever seeing seat A's private sideboard swaps."""

from __future__ import annotations

import pytest

from tournaments.models import Match, SideboardChange, Tournament

pytestmark = pytest.mark.django_db


def _two_headed(organizer, make_user, api_client_for, teams=3):  # type: ignore[no-untyped-def]
    api = api_client_for(organizer)
    answer = api.post("/api/tournaments/", {"name": "2HG", "game": "mtg", "format": "constructed", "team_size": 2,
                                            "team_mode": "2hg", "rounds": 2, "seed": 3}, format="json")  # fmt: skip
    tid = answer.json()["id"]
    for t in range(teams):
        names = [f"h{2 * t}", f"h{2 * t + 1}"]
        for name in names:
            make_user(name)
        assert api.post(f"/api/tournaments/{tid}/teams/", {"name": f"Heads {t}", "members": names},
                        format="json").status_code == 201  # fmt: skip
    return api, Tournament.objects.get(pk=tid)


def _partner(player):  # type: ignore[no-untyped-def]
    return next(m.player for m in player.team_member.team.members.all() if m.player_id != player.pk)


def test_seat_b_shares_the_teams_record_in_the_players_standings(games, organizer, make_user, api_client_for):
    api, event = _two_headed(organizer, make_user, api_client_for)
    assert api.post(f"/api/tournaments/{event.pk}/rounds/").status_code == 201
    game = Match.objects.get(round__tournament=event, bye=False)
    winner, loser = (s.player for s in game.seats.order_by("seat"))
    assert api.post(f"/api/matches/{game.pk}/result/", {"wins": [2, 1]}, format="json").status_code == 200
    rows = {r["name"]: r for r in api.get(f"/api/tournaments/{event.pk}/standings/").json()["standings"]}
    assert len(rows) == 6
    bye_team = Match.objects.get(round__tournament=event, bye=True).seats.get().player
    for head, points, record in ((winner, 3, (1, 0)), (loser, 0, (0, 1)), (bye_team, 3, (1, 0))):
        for member in (head, _partner(head)):
            row = rows[member.name]
            assert (row["points"], row["wins"], row["losses"]) == (points, *record), member.name
    # The team standings still count each shared game once.
    teams = api.get(f"/api/tournaments/{event.pk}/teams/").json()["teams"]
    assert sum(t["wins"] for t in teams) == 2 and sum(t["losses"] for t in teams) == 1
    # Round 2 pairs by team points as before (no rematch of the teams that met).
    assert api.post(f"/api/tournaments/{event.pk}/rounds/").status_code == 201
    again = Match.objects.get(round__tournament=event, round__number=2, bye=False)
    assert {s.player_id for s in again.seats.all()} != {winner.pk, loser.pk}


def test_seat_b_reports_and_confirms_on_the_match_page_without_seeing_swaps(
    games, organizer, make_user, api_client_for, client
):  # type: ignore[no-untyped-def]
    api, event = _two_headed(organizer, make_user, api_client_for, teams=2)
    assert api.post(f"/api/tournaments/{event.pk}/rounds/").status_code == 201
    game = Match.objects.get(round__tournament=event)
    head_a, head_b = (s.player for s in game.seats.order_by("seat"))
    # Seat A's private swap before game 2: seen by its owner, never by their partner nor the other team.
    SideboardChange.objects.create(match=game, game_number=2, player=head_a, created_by=head_a.user, deck={},
                                   swaps=[{"section": "main", "out": "Secret Tech", "in": None, "count": 1}])  # fmt: skip
    url = f"/tournaments/matches/{game.pk}/"
    client.force_login(head_a.user)
    assert "Secret Tech" in client.get(url).content.decode()
    partner_a, partner_b = _partner(head_a), _partner(head_b)
    client.force_login(partner_a.user)
    page = client.get(url).content.decode()
    assert "Secret Tech" not in page and 'data-testid="games-form"' in page and "Report the result" in page
    reported = client.post(f"{url}report/", {"wins_a": "2", "wins_b": "0", "draws": "0"})
    assert reported.status_code == 302
    game.refresh_from_db()
    assert game.status == "reported" and game.reported_by == partner_a.user
    # Their own seat A sees no confirm box (their team reported); the other team's seat B confirms.
    client.force_login(head_a.user)
    assert 'data-testid="confirm-box"' not in client.get(url).content.decode()
    client.force_login(partner_b.user)
    page = client.get(url).content.decode()
    assert 'data-testid="confirm-box"' in page and "Secret Tech" not in page
    assert client.post(f"{url}confirm/", {"version": str(game.version)}).status_code == 302
    game.refresh_from_db()
    assert game.status == "confirmed" and game.confirmed_by == partner_b.user
    # Someone from neither team: no report form, no confirm, no swaps.
    client.force_login(make_user("stranger"))
    page = client.get(url).content.decode()
    assert "Report the result" not in page and "Secret Tech" not in page


def test_seat_b_finds_the_teams_table_in_the_pairings_by_name(
    games, organizer, make_user, api_client_for, client
):
    api, event = _two_headed(organizer, make_user, api_client_for, teams=3)
    assert api.post(f"/api/tournaments/{event.pk}/rounds/").status_code == 201
    game = Match.objects.get(round__tournament=event, bye=False)
    head_a, head_b = (s.player for s in game.seats.order_by("seat"))
    partner_a, partner_b = _partner(head_a), _partner(head_b)
    pages = (
        (f"/tournaments/{event.pk}/pairings/", "<li>", "<strong>{}</strong>", '<span class="tbl">{}</span>'),
        (f"/tournaments/{event.pk}/print/pairings/?order=name", "<tr>", "<td>{}</td>", "<td>{}</td>"),
    )
    bye_head = Match.objects.get(round__tournament=event, bye=True).seats.get().player
    for url, split, name_at, table_at in pages:
        html = client.get(url).content.decode()
        lines = html.split(split)
        for me, mate, them in (
            (partner_a, head_a, (head_b, partner_b)),
            (head_b, partner_b, (head_a, partner_a)),
        ):
            row = next(line for line in lines if name_at.format(me.name) in line)
            assert table_at.format(game.table) in row, url
            assert all(other.name in row for other in them) and mate.name not in row, (url, row)
        # The bye team's two heads are both listed with the bye.
        assert name_at.format(_partner(bye_head).name) in html and name_at.format(bye_head.name) in html
