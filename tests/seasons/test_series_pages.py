"""An organizer runs a store league from pages alone: creates a series, edits its points table and best N, adds
events from the series or from an event's page, removes one; nobody else can; the API offers the same."""

from __future__ import annotations

import pytest
from django.urls import reverse

from seasons.engine.points import DEFAULT_TABLE, TierLineError, tiers_from_text, tiers_to_text
from seasons.models import Series, SeriesEvent
from tests.tournaments.factories import make_event
from tournaments import services

pytestmark = pytest.mark.django_db


def test_the_points_table_reads_back_what_the_page_writes():
    assert tiers_from_text(tiers_to_text(DEFAULT_TABLE)) == DEFAULT_TABLE["tiers"]
    assert tiers_from_text("\n 8+ : 1=5 , 2=3\n\n") == [{"min_players": 8, "places": {"1": 5, "2": 3}}]
    with pytest.raises(TierLineError) as error:
        tiers_from_text("0+: 1=6\n16 players: first=10")
    assert error.value.line == 2


def test_an_organizer_creates_a_series_on_its_page(client, organizer, games):
    client.force_login(organizer)
    listing = client.get(reverse("seasons:series_list")).content.decode()
    assert 'data-testid="new-series"' in listing
    form = client.get(reverse("seasons:series_new")).content.decode()
    assert "0+: 1=6, 2=4, 4=3, 8=2" in form  # the default table, ready to edit
    answer = client.post(
        reverse("seasons:series_new"),
        {
            "name": "Friday League",
            "game": "yugioh",
            "best_of": "3",
            "participation": "2",
            "tiers": "0+: 1=8, 2=5",
        },
    )
    series = Series.objects.get(name="Friday League")
    assert answer.status_code == 302 and answer["Location"] == reverse("seasons:series", args=[series.pk])
    assert series.best_of == 3
    assert series.points_table == {
        "participation": 2,
        "tiers": [{"min_players": 0, "places": {"1": 8, "2": 5}}],
    }


def test_a_points_table_line_that_cannot_be_read_is_named_and_nothing_is_created(client, organizer, games):
    client.force_login(organizer)
    answer = client.post(
        reverse("seasons:series_new"),
        {
            "name": "Bad",
            "game": "yugioh",
            "best_of": "0",
            "participation": "1",
            "tiers": "0+: 1=6\nwinner gets 9",
        },
    )
    assert answer.status_code == 400
    assert "Line 2 of the points table cannot be read" in answer.content.decode()
    assert "Friday" not in answer.content.decode() and not Series.objects.exists()


def test_a_player_without_organizer_rights_gets_no_button_and_no_form(client, user, games):
    client.force_login(user)
    assert 'data-testid="new-series"' not in client.get(reverse("seasons:series_list")).content.decode()
    assert client.get(reverse("seasons:series_new")).status_code == 403


def test_the_owner_edits_best_n_and_points_and_the_standings_follow(client, organizer, games):
    series = Series.objects.create(name="League", game=games["yugioh"], created_by=organizer)
    client.force_login(organizer)
    page = client.get(reverse("seasons:series", args=[series.pk])).content.decode()
    assert 'data-testid="series-edit"' in page
    answer = client.post(
        reverse("seasons:series_edit", args=[series.pk]),
        {"name": "League 2", "best_of": "2", "participation": "0", "tiers": "0+: 1=3\n8+: 1=9, 4=2"},
    )
    assert answer.status_code == 302
    series.refresh_from_db()
    assert (series.name, series.best_of, series.points_table["tiers"][1]["places"]) == (
        "League 2", 2, {"1": 9, "4": 2}
    )  # fmt: skip


def test_another_organizer_cannot_edit_or_fill_the_series(client, organizer, make_user, games):
    series = Series.objects.create(name="League", game=games["yugioh"], created_by=organizer)
    rival = make_user("rival", organizer=True)
    event = make_event(rival, games["yugioh"], rounds=1)
    client.force_login(rival)
    assert (
        'data-testid="series-edit"'
        not in client.get(reverse("seasons:series", args=[series.pk])).content.decode()
    )
    assert client.post(reverse("seasons:series_edit", args=[series.pk]), {"name": "Mine"}).status_code == 403
    client.post(reverse("seasons:series_event_add", args=[series.pk]), {"tournament": event.pk})
    assert not SeriesEvent.objects.exists()


def test_the_owner_adds_and_removes_events_on_the_series_page(client, organizer, games):
    series = Series.objects.create(name="League", game=games["yugioh"], created_by=organizer)
    week1 = make_event(organizer, games["yugioh"], rounds=1, name="Week 1")
    make_event(organizer, games["caster"], rounds=1, name="Caster night")
    client.force_login(organizer)
    page = client.get(reverse("seasons:series", args=[series.pk])).content.decode()
    assert "Week 1" in page and "Caster night" not in page  # only events of the series' game are offered
    client.post(reverse("seasons:series_event_add", args=[series.pk]), {"tournament": week1.pk})
    assert list(series.events.all()) == [week1]
    client.post(reverse("seasons:series_event_remove", args=[series.pk, week1.pk]))
    assert not series.events.exists()


def test_an_event_page_adds_the_event_to_one_of_the_organizers_series(client, organizer, games):
    series = Series.objects.create(name="League", game=games["yugioh"], created_by=organizer)
    event = make_event(organizer, games["yugioh"], rounds=1, name="Week 2")
    client.force_login(organizer)
    detail = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert reverse("seasons:event_series", args=[event.pk]) in detail
    choices = client.get(reverse("seasons:event_series", args=[event.pk])).content.decode()
    assert f'data-testid="add-to-series-{series.pk}"' in choices
    answer = client.post(
        reverse("seasons:series_event_add", args=[series.pk]), {"tournament": event.pk, "back": "event"}
    )
    assert answer["Location"] == reverse("tournaments:detail", args=[event.pk])
    assert "counts already" in client.get(reverse("seasons:event_series", args=[event.pk])).content.decode()


def test_the_series_pages_read_in_russian(client, organizer, games):
    series = Series.objects.create(name="League", game=games["yugioh"], created_by=organizer)
    client.force_login(organizer)
    client.cookies["django_language"] = "ru"
    assert (
        "Изменить название, очки" in client.get(reverse("seasons:series", args=[series.pk])).content.decode()
    )
    assert "Очки за места" in client.get(reverse("seasons:series_edit", args=[series.pk])).content.decode()


def test_the_api_edits_a_series_and_takes_an_event_out(api_client_for, organizer, games):
    series = Series.objects.create(name="League", game=games["yugioh"], created_by=organizer)
    event = make_event(organizer, games["yugioh"], rounds=1)
    SeriesEvent.objects.create(series=series, tournament=event)
    api = api_client_for(organizer)
    patched = api.patch(f"/api/series/{series.pk}/", {"best_of": 5}, format="json")
    assert (
        patched.status_code == 200 and patched.json()["best_of"] == 5 and patched.json()["name"] == "League"
    )
    assert api.patch(f"/api/series/{series.pk}/", {"best_of": -1}, format="json").status_code == 400
    assert api.delete(f"/api/series/{series.pk}/events/{event.pk}/").status_code == 204
    # Removed already: the series event the path names is gone (404).
    assert api.delete(f"/api/series/{series.pk}/events/{event.pk}/").status_code == 404


def test_the_series_counts_only_entrants_who_play(api_client_for, organizer, make_user, games):
    series = Series.objects.create(name="League", game=games["yugioh"], created_by=organizer)
    event = make_event(organizer, games["yugioh"], rounds=1, capacity=2)
    first = services.player_register(tournament=event, by=organizer, name="p1")
    for name in ("p2", "p3", "p4"):  # p3 and p4 wait in line
        services.player_register(tournament=event, by=organizer, name=name)
    services.player_drop(player=first, by=organizer)  # before round 1: p3 moves up
    SeriesEvent.objects.create(series=series, tournament=event)
    events = api_client_for(organizer).get(f"/api/series/{series.pk}/events/").json()["events"]
    assert events[0]["players"] == 2
