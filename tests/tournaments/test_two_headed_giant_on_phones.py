"""Two-Headed Giant on phones: both heads of a team see "Team (a & b) vs Team (c & d)", either head can save the
team's games, and the other team — either of its heads — is asked to confirm; the partner of the head who
reported is not. A team event refuses solo joins by code, and Start refuses before changing anything when an
entry has no team."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.tournaments.test_two_headed_giant_seat_b import _partner, _two_headed
from tournaments import services
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def _heads(event):  # type: ignore[no-untyped-def]
    game = Match.objects.get(round__tournament=event, bye=False)
    a, b = (s.player for s in game.seats.order_by("seat"))
    return game, (a, _partner(a)), (b, _partner(b))


def test_both_heads_see_the_teams_and_either_reports_and_the_other_team_confirms(
    client, games, organizer, make_user, api_client_for
):
    api, event = _two_headed(organizer, make_user, api_client_for, teams=2)
    assert api.post(f"/api/tournaments/{event.pk}/rounds/").status_code == 201
    game, ours, theirs = _heads(event)
    url = reverse("tournaments:my_event", args=[event.pk])
    seat_b = ours[1]
    client.force_login(seat_b.user)
    page = client.get(url).content.decode()
    versus = page.split('data-testid="my-team-versus"', 1)[1].split("</p>", 1)[0]
    assert (
        f"({ours[0].name} &amp; {ours[1].name}) vs" in versus
        and f"({theirs[0].name} &amp; {theirs[1].name})" in versus
    )
    assert 'data-testid="game-form-1"' in page  # seat B saves the team's games
    services.match_save_game(match=game, by=seat_b.user, number=1, first=ours[0].pk, winner=ours[0].pk)
    services.match_save_game(match=game, by=seat_b.user, number=2, first=theirs[0].pk, winner=ours[0].pk)
    game.refresh_from_db()
    assert game.status == "reported" and game.reported_by_id == seat_b.user_id
    client.force_login(ours[0].user)  # the partner of the head who reported: waits for the other team
    page = client.get(url).content.decode()
    assert 'data-testid="confirm"' not in page
    client.force_login(theirs[1].user)  # seat B of the other team confirms for it
    page = client.get(url).content.decode()
    assert 'data-testid="confirm"' in page


def test_a_team_event_refuses_a_solo_join_by_code(client, games, organizer, make_user, api_client_for, user):
    _api, event = _two_headed(organizer, make_user, api_client_for, teams=2)
    client.force_login(user)
    answer = client.post(reverse("tournaments:join_code", args=[event.join_code]), {})
    assert answer.status_code == 302 and answer["Location"] == reverse("tournaments:detail", args=[event.pk])
    with pytest.raises(ValidationError, match="team event"):
        services.player_join(code=event.join_code, by=user)
    assert not event.players.filter(user=user).exists()


def test_start_refuses_an_entry_without_a_team_before_changing_anything(
    games, organizer, make_user, api_client_for
):
    _api, event = _two_headed(organizer, make_user, api_client_for, teams=2)
    services.player_register(tournament=event, by=organizer, name="Lone Wolf")
    with pytest.raises(ValidationError, match="Lone Wolf"):
        services.tournament_start(tournament=event, by=organizer)
    event.refresh_from_db()
    assert event.status == Tournament.Status.REGISTRATION and not event.round_set.exists()
