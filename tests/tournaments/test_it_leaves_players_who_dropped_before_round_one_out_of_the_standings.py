"""MTR 2.10: a player who drops before round 1 (or does not show up) played nothing and is not listed in the
standings; a player who drops later stays listed as dropped."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.reads.selectors import standings_compute

from .factories import finish_round, make_event

pytestmark = pytest.mark.django_db


def test_it_does_not_list_a_player_who_dropped_before_round_one(games, organizer, api_client, client):
    event = make_event(organizer, games["caster"], players=5, rounds=2)
    early = event.players.get(name="Player 05")
    services.player_drop(player=early, by=organizer)
    services.round_pair_next(tournament=event, by=organizer)
    finish_round(event, organizer)
    later = event.players.get(name="Player 01")
    services.player_drop(player=later, by=organizer)

    rows = standings_compute(tournament=event)
    assert [r["rank"] for r in rows] == [1, 2, 3, 4]
    by_id = {r["player"]: r for r in rows}
    assert early.pk not in by_id
    assert by_id[later.pk]["dropped"] is True
    api_rows = api_client.get(f"/api/tournaments/{event.pk}/standings/").json()["standings"]
    assert early.pk not in {r["player"] for r in api_rows}
    page = client.get(reverse("tournaments:standings", args=[event.pk])).content.decode()
    assert "Player 05" not in page and "Player 01" in page


def test_it_does_not_list_a_no_show(games, organizer):
    event = make_event(organizer, games["caster"], players=4, rounds=2)
    services.checkin_open(tournament=event, by=organizer)
    for player in event.players.exclude(name="Player 04"):
        services.player_check_in(player=player, by=organizer)
    services.round_pair_next(tournament=event, by=organizer)
    absent = event.players.get(name="Player 04")
    absent.refresh_from_db()
    assert absent.no_show
    assert absent.pk not in {r["player"] for r in standings_compute(tournament=event)}
