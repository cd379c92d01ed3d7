"""Standings from stored matches match a hand-computed MTR example (bye, draw, drop), through the API."""

from __future__ import annotations

import pytest

from tournaments.models import Match, MatchSeat, Player, Round

from .factories import make_event

pytestmark = pytest.mark.django_db


def _match(round_, table, seats, *, draws=0, bye=False):  # type: ignore[no-untyped-def]
    match = Match.objects.create(round=round_, table=table, bye=bye, draws=draws, status=Match.Status.FINAL)
    for seat, (player, wins) in enumerate(seats):
        MatchSeat.objects.create(match=match, player=player, seat=seat, wins=wins)


def test_it_matches_the_hand_computed_mtr_example(games, organizer, api_client):
    event = make_event(organizer, games["caster"], rounds=2)
    a, b, c, d, e = (Player.objects.create(tournament=event, name=n) for n in "ABCDE")
    r1 = Round.objects.create(tournament=event, number=1, seed=1)
    _match(r1, 1, [(a, 2), (b, 0)])
    _match(r1, 2, [(c, 1), (d, 1)], draws=1)
    _match(r1, 3, [(e, 2)], bye=True)
    d.dropped_at_round = 1
    d.save()
    r2 = Round.objects.create(tournament=event, number=2, seed=1)
    _match(r2, 1, [(a, 1), (e, 2)])
    _match(r2, 2, [(b, 2), (c, 0)])

    rows = api_client.get(f"/api/tournaments/{event.pk}/standings/").json()["standings"]
    by_name = {r["name"]: r for r in rows}
    assert [r["name"] for r in rows] == ["E", "A", "B", "C", "D"]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5]
    # Hand computation (MTR Appendix C): MW% floored at 1/3; a bye is no opponent but a 2-0 win for GW%.
    expected = {
        "A": (3, {"omw": 0.75, "gw": 9 / 15, "ogw": (0.5 + 0.8) / 2}),
        "B": (3, {"omw": (0.5 + 1 / 3) / 2, "gw": 6 / 12, "ogw": (0.6 + 1 / 3) / 2}),
        "C": (1, {"omw": (1 / 3 + 0.5) / 2, "gw": 1 / 3, "ogw": (4 / 9 + 0.5) / 2}),
        "D": (1, {"omw": 1 / 3, "gw": 4 / 9, "ogw": 1 / 3}),
        "E": (6, {"omw": 0.5, "gw": 12 / 15, "ogw": 0.6}),
    }
    for name, (points, tiebreakers) in expected.items():
        row = by_name[name]
        assert row["points"] == points, name
        for key, value in tiebreakers.items():
            assert row["tiebreakers"][key] == pytest.approx(value, abs=1e-6), (name, key)
    assert by_name["D"]["dropped"] is True and by_name["C"]["draws"] == 1


def test_yugioh_policy_reports_omw_and_oomw(games, organizer, api_client):
    event = make_event(organizer, games["yugioh"], rounds=1, format_slug="advanced")
    a, b = (Player.objects.create(tournament=event, name=n) for n in "AB")
    r1 = Round.objects.create(tournament=event, number=1, seed=1)
    _match(r1, 1, [(a, 2), (b, 1)])
    rows = api_client.get(f"/api/tournaments/{event.pk}/standings/").json()["standings"]
    assert set(rows[0]["tiebreakers"]) == {"omw", "oomw"}
    assert rows[0]["name"] == "A" and rows[0]["tiebreakers"]["omw"] == 0.0
    assert rows[1]["tiebreakers"]["omw"] == 1.0
