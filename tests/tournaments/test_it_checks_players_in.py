"""Check-in: players check in from their phone, organizers mark anyone; starting drops the no-shows, and that
can be undone until round 1 has a result."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from tournaments import services
from tournaments.models import EntryChange, Player

from .factories import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(games, organizer, user, other_user):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["caster"], players=3, rounds=3)
    services.player_register(tournament=event, by=user)
    services.player_register(tournament=event, by=other_user)
    return event


def test_players_check_in_once_it_is_open_and_organizers_mark_anyone(event, organizer, user, api_client_for):
    mine = event.players.get(user=user)
    url = f"/api/tournaments/{event.pk}/players/{mine.pk}/check-in/"
    assert api_client_for(user).post(url, {}, format="json").status_code == 409  # not open yet
    services.checkin_open(tournament=event, by=organizer)
    response = api_client_for(user).post(url, {}, format="json")
    assert response.status_code == 200 and response.json()["checked_in"] is True
    guest = event.players.get(name="Player 01")
    services.player_check_in(player=guest, by=organizer)
    assert EntryChange.objects.filter(player=guest, action="check_in").exists()
    other = event.players.exclude(user=None).exclude(user=user).get()
    with pytest.raises(PermissionDenied):
        services.player_check_in(player=other, by=user)


def test_starting_drops_the_no_shows_and_it_can_be_undone_until_round_one_has_results(
    event, organizer, user, api_client_for
):
    services.checkin_open(tournament=event, by=organizer)
    present = list(event.players.order_by("id")[:3])
    for player in present:
        services.player_check_in(player=player, by=organizer)
    event = services.tournament_start(tournament=event, by=organizer)
    no_shows = set(event.players.filter(no_show=True).values_list("id", flat=True))
    assert len(no_shows) == 2 and all(p.dropped_at_round == 0 for p in event.players.filter(no_show=True))
    round_one = services.round_pair_next(tournament=event, by=organizer)
    seated = set(round_one.matches.values_list("seats__player", flat=True))
    assert not seated & no_shows
    mine = event.players.get(user=user)
    late = api_client_for(user).post(
        f"/api/tournaments/{event.pk}/players/{mine.pk}/check-in/", {}, format="json"
    )
    assert late.status_code == 409 and "started" in str(late.json())
    restored = api_client_for(organizer).post(f"/api/tournaments/{event.pk}/no-shows/restore/")
    assert restored.status_code == 200 and {p["id"] for p in restored.json()["players"]} == no_shows
    seated = set(round_one.matches.values_list("seats__player", flat=True))
    assert seated == set(event.players.values_list("id", flat=True))  # round 1 paired again with them


def test_no_shows_stay_out_once_round_one_has_a_result(event, organizer):
    services.checkin_open(tournament=event, by=organizer)
    for player in event.players.order_by("id")[:4]:
        services.player_check_in(player=player, by=organizer)
    round_one = services.round_pair_next(tournament=event, by=organizer)
    match = round_one.matches.filter(bye=False).first()
    services.match_report_result(match=match, by=organizer, wins=[2, 0])
    with pytest.raises(ValidationError, match="late entry"):
        services.no_shows_restore(tournament=event, by=organizer)
    assert Player.objects.filter(tournament=event, no_show=True).count() == 1


def test_without_check_in_nobody_is_dropped(event, organizer):
    services.round_pair_next(tournament=event, by=organizer)
    assert not event.players.filter(dropped_at_round__isnull=False).exists()
