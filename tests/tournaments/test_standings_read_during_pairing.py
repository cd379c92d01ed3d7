"""Standings read while a round is being paired: whatever commits between the reads, the page answers.

The standings page once answered 500 when requested during a pairing: the matches were read, then a
round committed, then the seats of that round named matches the first read had not seen.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from tournaments.models import Match, MatchSeat, Player, Round
from tournaments.reads import records

from .factories import make_event

pytestmark = pytest.mark.django_db


def _pair_round(event: Any, number: int, players: list[Player]) -> None:
    round_ = Round.objects.create(tournament=event, number=number, seed=number)
    for table, (a, b) in enumerate(zip(players[::2], players[1::2], strict=True), start=1):
        match = Match.objects.create(round=round_, table=table)
        MatchSeat.objects.create(match=match, player=a, seat=0)
        MatchSeat.objects.create(match=match, player=b, seat=1)


def _late_player_and_round_after_query(event: Any, after: int) -> Any:
    """A database hook: right after the load's `after`-th statement, a late player joins and a round is paired."""
    state = {"count": 0, "done": False}

    def hook(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        result = execute(sql, params, many, context)
        state["count"] += 1
        if state["count"] == after and not state["done"]:
            state["done"] = True
            late = Player.objects.create(tournament=event, name="Late", joined_round=2)
            rest = list(Player.objects.filter(tournament=event).exclude(pk=late.pk))[:3]
            _pair_round(event, 2, [late, *rest])
        return result

    return hook


@pytest.mark.parametrize("after", [1, 2, 3, 4])
def test_it_reads_a_consistent_history_whatever_commits_between_its_reads(games, organizer, after):
    event = make_event(organizer, games["caster"], rounds=3)
    players = [Player.objects.create(tournament=event, name=n) for n in "ABCD"]
    _pair_round(event, 1, players)
    with connection.execute_wrapper(_late_player_and_round_after_query(event, after)):
        history = records.load_history(event)
    seated = {seat.player_id for match in history.matches for seat in match.seats}
    assert seated <= set(history.players)
    assert {m.round_number for m in history.matches} >= set(range(1, history.swiss_rounds_played + 1))
    records.compute_rows(history, event.tiebreakers)


def test_the_standings_page_answers_while_a_round_is_paired(games, organizer, client):
    event = make_event(organizer, games["caster"], rounds=3)
    players = [Player.objects.create(tournament=event, name=n) for n in "ABCD"]
    _pair_round(event, 1, players)
    for after in (1, 2, 3):
        Round.objects.filter(tournament=event, number=2).delete()
        Player.objects.filter(tournament=event, name="Late").delete()
        with connection.execute_wrapper(_late_player_and_round_after_query(event, after)):
            response = client.get(f"/api/tournaments/{event.pk}/standings/")
        assert response.status_code == 200, (after, response.content[:300])
