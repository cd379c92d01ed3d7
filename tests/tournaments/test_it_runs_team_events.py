"""Team events: teams of 3 registered with unified deck construction checked, team Swiss by majority of
seat matches, team standings, and each member's phone showing their seat."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import Match, Team

from .factories import make_card, make_deck, make_event

pytestmark = pytest.mark.django_db


def _mtg_deck(owner, game, prefix: str, extra: list[str] = ()):  # type: ignore[no-untyped-def]
    """60 cards: 14 (or fewer, plus ``extra``) non-basic cards × 4 and 4 basic Mountains."""
    names = [*extra, *[f"{prefix} Card {i}" for i in range(14 - len(extra))]]
    for name in names:
        make_card(game, name, name, card_type="instant", attributes={"supertypes": []})
    make_card(game, "Mountain", "Mountain", card_type="land", attributes={"supertypes": ["basic"]})
    lines = [{"card": n, "count": 4} for n in names] + [{"card": "Mountain", "count": 4}]
    return make_deck(
        owner, game, {"sections": {"main": lines}}, format_slug="constructed", name=f"{prefix} deck"
    )


def _team_event(organizer, games, api_client_for, **kw):  # type: ignore[no-untyped-def]
    client = api_client_for(organizer)
    answer = client.post("/api/tournaments/", {"name": "Team Trios", "game": "mtg", "format": "constructed",
                                               "team_size": 3, "seed": 7, **kw}, format="json")  # fmt: skip
    assert answer.status_code == 201, answer.content
    assert answer.json()["team_size"] == 3
    return client, answer.json()["id"]


def test_a_unified_construction_breach_names_the_card_and_both_decks(
    games, organizer, make_user, api_client_for
):
    client, tid = _team_event(organizer, games, api_client_for, deck_registration=True)
    game = games["mtg"]
    for name in ("ann", "boris", "chen"):
        make_user(name)
    # The organizer enters the members' lists by hand, as decks of their own: a player's deck (even their own
    # private one) is never registered for them without them.
    a = _mtg_deck(organizer, game, "Ann")
    b = _mtg_deck(organizer, game, "Boris")
    c = _mtg_deck(organizer, game, "Chen", extra=["Ann Card 3"])
    url = f"/api/tournaments/{tid}/teams/"
    body = {"name": "Blue Moon", "members": ["ann", "boris", "chen"], "decks": [a.pk, b.pk, c.pk]}
    stranger = _mtg_deck(make_user("dora"), game, "Dora")
    hidden = client.post(url, {**body, "decks": [a.pk, b.pk, stranger.pk]}, format="json")
    assert hidden.status_code == 400 and "decks" in hidden.json()
    refused = client.post(url, body, format="json")
    assert refused.status_code == 400
    message = str(refused.json()["decks"])
    assert "Ann Card 3" in message and "Ann deck" in message and "Chen deck" in message
    assert "Mountain" not in message  # basic lands may be in every deck
    assert not Team.objects.exists() and not _t(tid).players.exists()  # nothing half-written
    c2 = _mtg_deck(organizer, game, "Chen2")
    ok = client.post(url, {**body, "decks": [a.pk, b.pk, c2.pk]}, format="json")
    assert ok.status_code == 201, ok.content
    (team,) = ok.json()["teams"]
    assert [m["seat"] for m in team["members"]] == ["A", "B", "C"]
    assert [m["user"] for m in team["members"]] == ["ann", "boris", "chen"]


def _t(tid):  # type: ignore[no-untyped-def]
    from tournaments.models import Tournament

    return Tournament.objects.get(pk=tid)


def test_team_requests_are_checked(games, organizer, user, make_user, api_client_for):
    client, tid = _team_event(organizer, games, api_client_for)
    url = f"/api/tournaments/{tid}/teams/"
    for name in ("x1", "x2", "x3"):
        make_user(name)
    assert client.post(url, {"name": "T", "members": ["x1", "x2"]}, format="json").status_code == 400
    assert client.post(url, {"name": "T", "members": ["x1", "x1", "x2"]}, format="json").status_code == 400
    assert client.post(url, {"name": "T", "members": ["x1", "x2", "ghost"]}, format="json").status_code == 404
    assert api_client_for(user).post(url, {"name": "T", "members": ["x1", "x2", "x3"]},
                                     format="json").status_code == 403  # fmt: skip
    assert client.post(url, {"name": "T", "members": ["x1", "x2", "x3"]}, format="json").status_code == 201
    again = client.post(url, {"name": "T", "members": ["x1", "x2", "x3"]}, format="json")
    assert again.status_code == 400
    solo = make_event(organizer, games["mtg"], format_slug="constructed")
    assert client.post(f"/api/tournaments/{solo.pk}/teams/", {"name": "T", "members": ["x1", "x2", "x3"]},
                       format="json").status_code == 409  # fmt: skip
    # Teams of 3 may have a top cut; two seat matches can split, so pairs may not.
    bad = client.post("/api/tournaments/", {"name": "X", "game": "mtg", "format": "constructed", "team_size": 2,
                                            "top_cut": 4}, format="json")  # fmt: skip
    assert bad.status_code == 422 and "team_size" in bad.json()  # valid values that cannot go together


def test_team_swiss_pairs_teams_seat_against_seat_and_ranks_them(
    games, organizer, make_user, api_client_for, client
):
    api, tid = _team_event(organizer, games, api_client_for, rounds=2)
    names = [f"p{i}" for i in range(15)]
    for name in names:
        make_user(name)
    for t in range(5):
        answer = api.post(f"/api/tournaments/{tid}/teams/", {"name": f"Team {t}", "members": names[3 * t: 3 * t + 3]},
                          format="json")  # fmt: skip
        assert answer.status_code == 201, answer.content
    event = _t(tid)
    team_of = {m.player_id: (m.team_id, m.seat) for t in event.teams.all() for m in t.members.all()}
    for number in (1, 2):
        assert api.post(f"/api/tournaments/{tid}/rounds/").status_code == 201
        matches = list(
            Match.objects.filter(round__tournament=event, round__number=number).prefetch_related("seats")
        )
        assert len(matches) == 9  # two team pairings × 3 seats + the bye team's 3 byes
        byes = [m for m in matches if m.bye]
        assert len(byes) == 3 and len({team_of[m.seats.all()[0].player_id][0] for m in byes}) == 1
        for m in matches:
            if m.bye:
                continue
            a, b = (team_of[s.player_id] for s in m.seats.all())
            assert a[1] == b[1] == (m.table - 1) % 3 and a[0] != b[0]
        # Seat A of every table group wins for the first team, seats B and C for the second: team b wins 2-1.
        for m in matches:
            if not m.bye:
                wins = [2, 0] if (m.table - 1) % 3 == 0 else [0, 2]
                services.match_report_result(match=m, by=organizer, wins=wins)
    rows = api.get(f"/api/tournaments/{tid}/teams/").json()["teams"]
    assert len(rows) == 5 and rows[0]["rank"] == 1
    assert max(r["points"] for r in rows) == 6 and all(r["points"] % 3 == 0 for r in rows)
    total_wins = sum(r["wins"] for r in rows)
    assert total_wins == 2 * 3  # two rounds × (two team wins + one bye)
    # No team met another twice.
    met = set()
    for number in (1, 2):
        for m in Match.objects.filter(
            round__tournament=event, round__number=number, bye=False, table__in=[1, 4]
        ):
            pair = frozenset(team_of[s.player_id][0] for s in m.seats.all())
            assert pair not in met
            met.add(pair)
    # A member's phone shows their team and seat.
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.get(username="p4"))
    page = client.get(f"/tournaments/{tid}/me/").content.decode()
    assert "Your team: Team 1, seat B" in page
    standings = client.get(f"/tournaments/{tid}/teams/").content.decode()
    assert 'data-testid="team-standings"' in standings and "A: p3" in standings
    assert 'data-testid="team-standings-link"' in client.get(f"/tournaments/{tid}/").content.decode()
