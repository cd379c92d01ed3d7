"""Two-Headed Giant, seat B's phone: its record is the team's (the shared game is seated on seat A), and its
live page changes when the team's game gets a result — the fingerprint follows the game seat B plays."""

from __future__ import annotations

import pytest

from tests.tournaments.test_two_headed_giant_seat_b import _partner, _two_headed
from tournaments.live.my_event import my_event_fingerprint, my_event_state
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def test_seat_bs_phone_shows_the_teams_record_and_changes_with_the_teams_game(
    games, organizer, make_user, api_client_for
):  # type: ignore[no-untyped-def]
    api, event = _two_headed(organizer, make_user, api_client_for, teams=2)
    assert api.post(f"/api/tournaments/{event.pk}/rounds/").status_code == 201
    game = Match.objects.get(round__tournament=event)
    winner, loser = (s.player for s in game.seats.order_by("seat"))
    seat_b = _partner(winner)
    before = my_event_fingerprint(tournament_id=event.pk, player_id=seat_b.pk)
    assert api.post(f"/api/matches/{game.pk}/result/", {"wins": [2, 0]}, format="json").status_code == 200
    assert my_event_fingerprint(tournament_id=event.pk, player_id=seat_b.pk) != before
    for member, record in ((winner, (1, 0)), (seat_b, (1, 0)), (loser, (0, 1)), (_partner(loser), (0, 1))):
        state = my_event_state(tournament_id=event.pk, player_id=member.pk)
        assert state is not None
        assert (state["record"]["wins"], state["record"]["losses"]) == record, member.name
