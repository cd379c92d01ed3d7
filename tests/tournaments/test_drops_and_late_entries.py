"""Drops are never paired again but stay in the standings; late entries take a loss per missed round."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from tournaments import services
from tournaments.reads.selectors import standings_compute

from .factories import finish_round, make_event

pytestmark = pytest.mark.django_db


def test_a_dropped_player_is_never_paired_again_but_stays_in_the_standings(games, organizer):
    event = make_event(organizer, games["caster"], players=6, rounds=4)
    services.round_pair_next(tournament=event, by=organizer)
    finish_round(event, organizer)
    dropper = event.players.order_by("id").first()
    services.player_drop(player=dropper, by=organizer)
    for _ in range(3):
        round_ = services.round_pair_next(tournament=event, by=organizer)
        assert not round_.matches.filter(seats__player=dropper).exists()
        finish_round(event, organizer)
    rows = {r["player"]: r for r in standings_compute(tournament=event)}
    assert rows[dropper.pk]["dropped"] is True
    assert len(rows) == 6


def test_a_player_drops_themselves_but_not_others(games, organizer, user, other_user):
    event = make_event(organizer, games["caster"], players=2, rounds=2)
    me = services.player_register(tournament=event, by=user)
    other = services.player_register(tournament=event, by=other_user)
    with pytest.raises(PermissionDenied):
        services.player_drop(player=other, by=user)
    services.player_drop(player=me, by=user)
    with pytest.raises(ValidationError):
        services.player_drop(player=me, by=user)


def test_a_late_entry_joins_with_a_loss_for_each_missed_round(games, organizer):
    event = make_event(organizer, games["caster"], players=4, rounds=4)
    for _ in range(2):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer)
    late = services.player_add_late(tournament=event, by=organizer, name="Latecomer")
    assert late.joined_round == 3
    row = next(r for r in standings_compute(tournament=event) if r["player"] == late.pk)
    assert row["losses"] == 2 and row["points"] == 0 and row["wins"] == 0
    round3 = services.round_pair_next(tournament=event, by=organizer)
    assert round3.matches.filter(seats__player=late).exists()


def test_a_late_entry_without_losses_starts_at_zero_rounds(games, organizer):
    event = make_event(organizer, games["caster"], players=4, rounds=4, late_entry_losses=False)
    services.round_pair_next(tournament=event, by=organizer)
    finish_round(event, organizer)
    late = services.player_add_late(tournament=event, by=organizer, name="Latecomer")
    row = next(r for r in standings_compute(tournament=event) if r["player"] == late.pk)
    assert row["losses"] == 0


def test_late_entries_are_for_organizers_while_rounds_run(games, organizer, user):
    event = make_event(organizer, games["caster"], players=4, rounds=2)
    with pytest.raises(ValidationError):
        services.player_add_late(tournament=event, by=organizer, name="Too early")
    services.round_pair_next(tournament=event, by=organizer)
    with pytest.raises(PermissionDenied):
        services.player_add_late(tournament=event, by=user, name="Me")
