"""A drop can be taken back until the player would have been paired again."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from tournaments import services
from tournaments.models import EntryChange

from .factories import finish_round, make_event

pytestmark = pytest.mark.django_db


def test_a_drop_is_undone_before_the_next_round_is_paired(games, organizer, api_client_for):
    event = make_event(organizer, games["caster"], players=6, rounds=3)
    services.round_pair_next(tournament=event, by=organizer)
    player = event.players.first()
    services.player_drop(player=player, by=organizer)
    response = api_client_for(organizer).post(f"/api/tournaments/{event.pk}/players/{player.pk}/undo-drop/")
    assert response.status_code == 200 and response.json()["dropped"] is False
    assert EntryChange.objects.filter(player=player, action="undo_drop").exists()
    finish_round(event, organizer)
    round_two = services.round_pair_next(tournament=event, by=organizer)
    assert round_two.matches.filter(seats__player=player).exists()


def test_a_drop_stays_once_a_round_was_paired_without_the_player(games, organizer, user):
    event = make_event(organizer, games["caster"], players=6, rounds=3)
    services.round_pair_next(tournament=event, by=organizer)
    player = event.players.first()
    services.player_drop(player=player, by=organizer)
    finish_round(event, organizer)
    services.round_pair_next(tournament=event, by=organizer)
    with pytest.raises(ValidationError, match="late entry"):
        services.player_drop_undo(player=player, by=organizer)
    with pytest.raises(PermissionDenied):
        services.player_drop_undo(player=player, by=user)
    player.refresh_from_db()
    assert player.dropped_at_round == 1
