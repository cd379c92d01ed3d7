"""The end for everyone: a player outside the cut is told their Swiss place (not "wait for the next
round"); after Finish every My event page shows the final place and record, and the players' JSON has
``place``."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import Tournament
from tournaments.reads.outcomes import ordinal
from tournaments.reads.selectors import standings_compute

from .factories import finish_round, make_event

pytestmark = pytest.mark.django_db


def test_ordinals_read_as_words_in_english():
    assert [ordinal(n) for n in (1, 2, 3, 4, 5, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "5th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th",
    ]  # fmt: skip


def test_outside_the_cut_then_after_finish_everyone_sees_their_place(
    games, organizer, make_user, client, api_client_for
):
    event = make_event(organizer, games["caster"], rounds=3, top_cut=4)
    accounts = [make_user(f"p{i}") for i in range(9)]
    for account in accounts:
        services.player_join(code=event.join_code, by=account)
    services.tournament_start(tournament=event, by=organizer)
    for _ in range(3):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer)
    services.topcut_start(tournament=event, by=organizer)
    swiss = {r["player"]: r["swiss_rank"] for r in standings_compute(tournament=event)}
    by_user = {p.user_id: p for p in event.players.all()}
    outside = next(a for a in accounts if swiss[by_user[a.pk].pk] == 5)
    client.force_login(outside)
    page = client.get(f"/tournaments/{event.pk}/me/").content.decode()
    assert "The Swiss rounds are over: you finished 5th of 9 and did not make the top 4." in page
    assert "Wait for the next round to be paired" not in page
    assert "Your event is over: the top cut plays on" in page
    inside = next(a for a in accounts if swiss[by_user[a.pk].pk] == 1)
    client.force_login(inside)
    assert "did not make the top" not in client.get(f"/tournaments/{event.pk}/me/").content.decode()
    # In Russian too.
    client.force_login(outside)
    ru = client.get(f"/tournaments/{event.pk}/me/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "вы заняли 5-е место из 9 и не прошли в топ-4." in ru

    before = api_client_for(organizer).get(f"/api/tournaments/{event.pk}/players/").json()["players"]
    assert all(p["place"] is None for p in before)
    while Tournament.objects.get(pk=event.pk).status != Tournament.Status.FINISHED:
        event.refresh_from_db()
        finish_round(event, organizer)
        answer = api_client_for(organizer).post(f"/api/tournaments/{event.pk}/topcut/", format="json")
        if answer.status_code != 201:
            assert api_client_for(organizer).post(f"/api/tournaments/{event.pk}/finish/").status_code == 200
    players = api_client_for(organizer).get(f"/api/tournaments/{event.pk}/players/").json()["players"]
    assert sorted(p["place"] for p in players) == list(range(1, 10))
    final = {r["player"]: r["rank"] for r in standings_compute(tournament=event)}
    assert {p["id"]: p["place"] for p in players} == final
    for account in accounts:
        client.force_login(account)
        page = client.get(f"/tournaments/{event.pk}/me/").content.decode()
        place = final[by_user[account.pk].pk]
        assert f"Final standings: you finished {ordinal(place)} of 9, with a record of" in page, (
            account.username
        )
        assert "did not make the top" not in page


def test_a_finished_event_does_not_say_the_round_timer_has_not_started(games, organizer, make_user, client):
    """The last round's card stays on My event after Finish; its untimed clock line read "The round timer has
    not started." under "The event is over" (found by the event-day-messes browser scenario)."""
    event = make_event(organizer, games["caster"], rounds=1)
    accounts = [make_user(f"q{i}") for i in range(4)]
    for account in accounts:
        services.player_join(code=event.join_code, by=account)
    services.tournament_start(tournament=event, by=organizer)
    services.round_pair_next(tournament=event, by=organizer)
    client.force_login(accounts[0])
    assert "The round timer has not started." in client.get(f"/tournaments/{event.pk}/me/").content.decode()
    finish_round(event, organizer)
    services.tournament_finish(tournament=event, by=organizer)
    page = client.get(f"/tournaments/{event.pk}/me/").content.decode()
    assert "Final standings: you finished" in page
    assert "The round timer has not started." not in page
