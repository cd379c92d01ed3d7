"""A day-2 cut from pages alone, told truthfully: the organizer adds a phase with a preview of who advances, the
pairing's confirm page says what it starts, a cut player's phone says they did not make it (the line and their
place) instead of "wait for the next round", and the phase standings show the points its pairing uses."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Phase
from tournaments.reads import phases, records

from .factories import finish_round, make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def day_one(games, organizer, make_user):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["caster"], rounds=2)
    accounts = [make_user(f"p{i:02d}") for i in range(8)]
    for account in accounts:
        services.player_register(tournament=event, by=account, user=account)
    rng = random.Random(3)
    for _ in range(2):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer, outcome=lambda match: rng.choice([[2, 0], [0, 2]]))
    points = {
        r.player_id: r.points for r in records.compute_rows(records.load_history(event), event.tiebreakers)
    }
    return event, accounts, points


def test_the_phases_page_previews_the_cut_then_adds_the_phase(client, organizer, day_one):
    event, _accounts, points = day_one
    client.force_login(organizer)
    assert (
        reverse("tournaments:phases", args=[event.pk])
        in client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    )
    form = {"rounds": "1", "min_points": "3", "points": "carry"}
    preview = client.post(reverse("tournaments:phases", args=[event.pk]), {**form, "do": "preview"})
    advance = sum(1 for value in points.values() if value >= 3)
    text = preview.content.decode()
    assert (
        f"By today's standings {advance} players advance at 3 points or more; {8 - advance} are cut." in text
    )
    assert not Phase.objects.exists()  # a preview writes nothing
    added = client.post(reverse("tournaments:phases", args=[event.pk]), {**form, "do": "add"})
    assert added.status_code == 302
    phase = Phase.objects.get()
    assert (phase.rounds, phase.min_points, phase.carry_points, phase.first_round) == (1, 3, True, 3)


def test_a_phase_the_form_cannot_take_is_refused_with_the_reason(client, organizer, day_one):
    event, _accounts, _points = day_one
    client.force_login(organizer)
    answer = client.post(
        reverse("tournaments:phases", args=[event.pk]), {"rounds": "99", "do": "add"}, follow=True
    )
    assert "Rounds must be between 1 and 20" in answer.content.decode()
    assert not Phase.objects.exists()


def test_a_player_cannot_open_the_phases_page(client, day_one):
    event, accounts, _points = day_one
    client.force_login(accounts[0])
    assert client.get(reverse("tournaments:phases", args=[event.pk])).status_code == 403


def test_the_pairing_confirm_page_says_the_round_starts_the_phase(client, organizer, day_one):
    event, _accounts, points = day_one
    services.phase_create(tournament=event, by=organizer, rounds=1, min_points=3)
    client.force_login(organizer)
    page = client.get(reverse("tournaments:confirm", args=[event.pk, "pair"])).content.decode()
    advance = sum(1 for value in points.values() if value >= 3)
    assert f"This starts phase 2: {advance} players advance, {8 - advance} are cut" in page


def test_a_cut_player_is_told_the_line_and_their_place_and_an_advancing_one_their_table(
    client, organizer, day_one
):
    event, accounts, _points = day_one
    services.phase_create(tournament=event, by=organizer, rounds=1, min_points=3)
    services.round_pair_next(tournament=event, by=organizer)
    phase = Phase.objects.get()
    rows = records.compute_rows(records.load_history(event), event.tiebreakers)
    cut_row = next(r for r in rows if r.player_id not in phase.entrants)
    place = [r.player_id for r in rows].index(cut_row.player_id) + 1
    cut_account = next(a for a in accounts if event.players.get(pk=cut_row.player_id).user_id == a.pk)
    client.force_login(cut_account)
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert "You did not make the cut for phase 2 (3 points needed)" in page
    assert f"of {len(rows)}." in page and str(place) in page
    assert "Wait for the next round to be paired" not in page
    assert "Your event is over: phase 2 plays on" in page
    in_account = next(a for a in accounts if event.players.get(user=a).pk in phase.entrants)
    client.force_login(in_account)
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert "You did not make the cut" not in page and 'data-testid="my-table"' in page


def test_carried_phase_standings_show_the_points_the_pairing_uses(organizer, day_one):
    event, _accounts, points = day_one
    services.phase_create(tournament=event, by=organizer, rounds=1, min_points=3)
    services.round_pair_next(tournament=event, by=organizer)
    phase = Phase.objects.get()
    rows = phases.phase_rows(event, phase)
    assert {r.player_id: r.points for r in rows} == {pid: points[pid] for pid in phase.entrants}
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))


def test_the_cut_is_told_in_russian(client, organizer, day_one):
    event, accounts, _points = day_one
    services.phase_create(tournament=event, by=organizer, rounds=1, min_points=3)
    services.round_pair_next(tournament=event, by=organizer)
    phase = Phase.objects.get()
    cut_player = event.players.exclude(pk__in=phase.entrants).first()
    client.force_login(next(a for a in accounts if a.pk == cut_player.user_id))
    client.cookies["django_language"] = "ru"
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert "Вы не прошли отсечку перед этапом 2" in page
