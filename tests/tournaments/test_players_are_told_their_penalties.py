"""A player is told every penalty they received on My event, and a game lost to a penalty is named as one to both
players (it is not a game anyone played); the penalty form offers only players who play."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services

from .factories import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def paired(games, organizer, user, other_user):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["caster"], rounds=2)
    me = services.player_register(tournament=event, by=user)
    them = services.player_register(tournament=event, by=other_user)
    gone = services.player_register(tournament=event, by=organizer, name="Gone Early")
    services.player_drop(player=gone, by=organizer)
    round_ = services.round_pair_next(tournament=event, by=organizer)
    return event, round_, me, them


def test_a_game_loss_is_told_to_both_players_as_a_penalty(client, organizer, user, other_user, paired):
    event, round_, me, _them = paired
    services.penalty_add(
        tournament=event,
        by=organizer,
        player=me,
        round_number=round_.number,
        infraction="Marked cards",
        penalty="game_loss",
    )
    client.force_login(user)
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert "A judge gave you a game loss (Marked cards" in page
    client.force_login(other_user)
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert "received a game loss (Marked cards): you are given a game, which no one played." in page


def test_a_warning_is_told_to_the_player_only(client, organizer, user, other_user, paired):
    event, round_, me, _them = paired
    services.penalty_add(
        tournament=event,
        by=organizer,
        player=me,
        round_number=round_.number,
        infraction="Slow play",
        penalty="warning",
    )
    client.force_login(user)
    assert (
        "A judge gave you a warning (Slow play"
        in client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    )
    client.force_login(other_user)
    assert "Slow play" not in client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()


def test_the_penalty_form_offers_only_players_who_play(client, organizer, paired):
    event, _round, _me, _them = paired
    client.force_login(organizer)
    page = client.get(reverse("tournaments:penalties", args=[event.pk])).content.decode()
    form = page.split('data-testid="penalty-player"', 1)[1].split("</select>", 1)[0]
    assert "Gone Early" not in form and "alice" in form.lower()
