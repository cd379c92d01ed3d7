"""Ratings cannot be farmed with a sock account: an organizer running 2-player events against a sock (three
of them lifted it from 1500 to 1753) moves no rating, because an event counts only with enough rated
players, and a match only between players who each met enough different opponents. Every rated event is
kept in a player's rating history, which organizers can audit on a page."""

from __future__ import annotations

import pytest
from django.test import Client

from seasons import services as season_services
from seasons.models import Rating, RatingChange
from tests.tournaments.factories import finish_round, make_event
from tournaments import services

pytestmark = pytest.mark.django_db


def _event(organizer, game, accounts, name: str, rounds: int):  # type: ignore[no-untyped-def]
    event = make_event(organizer, game, rounds=rounds, name=name)
    for account in accounts:
        services.player_register(tournament=event, by=account, user=account)
    for _ in range(rounds):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer)
    services.tournament_finish(tournament=event, by=organizer)
    season_services.event_finished(tournament=event)
    return event


def test_three_two_player_events_against_a_sock_move_no_rating(games, organizer, make_user) -> None:
    farmer, sock = make_user("farmer"), make_user("sock")
    for week in range(3):
        _event(organizer, games["caster"], [sock, farmer], f"Farm {week}", rounds=1)
    assert not Rating.objects.filter(user__in=[sock, farmer]).exists()
    assert not RatingChange.objects.exists()


def test_a_real_field_is_rated_and_audited_by_organizers(games, organizer, make_user) -> None:
    players = [make_user(f"p{i}") for i in range(6)]
    event = _event(organizer, games["caster"], players, "Friday", rounds=3)
    rated = Rating.objects.filter(user__in=players)
    assert rated.count() == 6 and all(r.events == 1 for r in rated)
    change = RatingChange.objects.get(user=players[0], tournament=event)
    assert change.matches >= 2 and change.opponents >= 2
    assert change.rating_before == 1500 and change.rating_after == Rating.objects.get(user=players[0]).rating
    client = Client()
    url = f"/seasons/players/{players[0].username}/ratings/"
    assert client.get(url).status_code in (302, 403)
    client.force_login(players[1])
    assert client.get(url).status_code == 403  # players do not audit each other
    client.force_login(organizer)
    page = client.get(url)
    assert page.status_code == 200 and "Friday" in page.content.decode()
    assert 'data-testid="rating-audit"' in page.content.decode()
    player_page = client.get(f"/seasons/players/{players[0].username}/").content.decode()
    assert 'data-testid="rating-audit-link"' in player_page
    ru = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "История рейтинга" in ru and "Разных соперников" in ru
