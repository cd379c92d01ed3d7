"""A player drops themselves from their phone through the same confirmation an organizer uses; a drop before the
start reads "dropped before the start" (never "after round 0")."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Player

from .factories import make_event

pytestmark = pytest.mark.django_db


def test_a_player_drops_from_my_event_after_confirming(client, games, organizer, user):
    event = make_event(organizer, games["caster"], players=3, rounds=2)
    me = services.player_register(tournament=event, by=user)
    services.round_pair_next(tournament=event, by=organizer)
    client.force_login(user)
    my_event = reverse("tournaments:my_event", args=[event.pk])
    page = client.get(my_event).content.decode()
    assert 'data-testid="self-drop"' in page
    confirm = client.get(
        reverse("tournaments:confirm", args=[event.pk, "drop"]), {"player": me.pk, "next": my_event}
    )
    assert confirm.status_code == 200 and 'data-testid="confirm-yes"' in confirm.content.decode()
    done = client.post(
        reverse("tournaments:drop", args=[event.pk, me.pk]), {"confirmed": "yes", "next": my_event}
    )
    assert done.status_code == 302 and done["Location"] == my_event
    assert Player.objects.get(pk=me.pk).dropped_at_round == 1
    page = client.get(my_event).content.decode()
    assert "You have dropped from this event." in page and 'data-testid="self-drop"' not in page


def test_a_player_cannot_drop_someone_else(client, games, organizer, user, other_user):
    event = make_event(organizer, games["caster"], rounds=2)
    services.player_register(tournament=event, by=user)
    other = services.player_register(tournament=event, by=other_user)
    client.force_login(user)
    assert (
        client.get(reverse("tournaments:confirm", args=[event.pk, "drop"]), {"player": other.pk}).status_code
        == 403
    )
    client.post(reverse("tournaments:drop", args=[event.pk, other.pk]), {"confirmed": "yes"})
    assert Player.objects.get(pk=other.pk).dropped_at_round is None


def test_a_drop_before_the_start_reads_before_the_start(client, games, organizer, user):
    event = make_event(organizer, games["caster"], rounds=2)
    me = services.player_register(tournament=event, by=user)
    services.player_drop(player=me, by=user)
    client.force_login(organizer)
    page = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert "dropped before the start" in page and "after round 0" not in page
