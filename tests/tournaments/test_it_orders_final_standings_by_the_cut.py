"""Final standings put the top cut first by how far each player went, then everyone by Swiss rank."""

from __future__ import annotations

import pytest

from tournaments import services

from .factories import finish_round, make_event

pytestmark = pytest.mark.django_db


def test_the_cut_is_ordered_winner_finalist_semifinalists_then_swiss(games, organizer, api_client_for):
    event = make_event(organizer, games["caster"], players=8, rounds=3, top_cut=4)
    for _ in range(3):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer)
    semis = services.topcut_start(tournament=event, by=organizer)
    assert str(semis.stage) == "Semifinals"
    finish_round(event, organizer, outcome=lambda m: [0, 2])  # the lower seeds win
    final = services.topcut_advance(tournament=event, by=organizer)
    assert str(final.stage) == "Final"
    finish_round(event, organizer)
    # The final's winner is known once its result is final, before the event is finished.
    rows = api_client_for(organizer).get(f"/api/tournaments/{event.pk}/standings/").json()["standings"]
    assert rows[0]["top_cut"] == "winner"
    services.tournament_finish(tournament=event, by=organizer)
    rows = api_client_for(organizer).get(f"/api/tournaments/{event.pk}/standings/").json()["standings"]
    assert [r["top_cut"] for r in rows] == ["winner", "final", "semifinal", "semifinal"] + [None] * 4
    assert [r["rank"] for r in rows] == list(range(1, 9))
    semifinalists = rows[2:4]
    assert semifinalists[0]["swiss_rank"] < semifinalists[1]["swiss_rank"]
    rest = rows[4:]
    assert [r["swiss_rank"] for r in rest] == sorted(r["swiss_rank"] for r in rest)
    winner = final.matches.get().seats.order_by("seat").first().player_id
    assert rows[0]["player"] == winner
