"""Ratings count only the events the store marks as rated: a casual event moves nobody, and marking it rated
afterwards (then `ratings_rebuild`) counts it. Set on the event's form and through the API."""

from __future__ import annotations

import pytest
from django.urls import reverse

from seasons import services as season_services
from seasons.models import RatedEvent, Rating
from tests.tournaments.factories import finish_round, make_event
from tournaments import services

pytestmark = pytest.mark.django_db


def _finished(games, organizer, accounts, *, rated):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["caster"], rounds=3, rated=rated)
    for account in accounts:
        services.player_register(tournament=event, by=account, user=account)
    for _ in range(3):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer)
    services.tournament_finish(tournament=event, by=organizer)
    season_services.event_finished(tournament=event)
    return event


def test_a_casual_event_moves_no_rating_until_it_is_marked_rated(games, organizer, make_user):
    accounts = [make_user(f"r{i}") for i in range(6)]
    event = _finished(games, organizer, accounts, rated=False)
    assert not Rating.objects.exists() and not RatedEvent.objects.exists()
    services.tournament_update(tournament=event, by=organizer, rated=True)
    season_services.ratings_rebuild(game=event.game)
    assert Rating.objects.filter(game=event.game).count() == 6


def test_the_event_form_and_the_api_set_it(client, api_client_for, games, organizer):
    event = make_event(organizer, games["caster"], rounds=2)
    assert event.rated
    client.force_login(organizer)
    form = client.get(reverse("tournaments:edit", args=[event.pk])).content.decode()
    assert 'name="rated"' in form
    answer = api_client_for(organizer).patch(f"/api/tournaments/{event.pk}/", {"rated": False}, format="json")
    assert answer.status_code == 200 and answer.json()["rated"] is False
