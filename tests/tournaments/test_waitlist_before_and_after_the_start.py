"""The cap and the waitlist are one rule before and after the start: freed places go to the line in order (after
the start as late entries, told on their phone and asked to confirm they are here), raising the cap serves the
line before anyone new, an organizer may let in any waitlisted player or add one over the cap (shown, audited),
and a phone never says both "number 1 in line" and "no place freed up"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import EntryChange, Player

from .factories import finish_round, make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def full_running(games, organizer, make_user):  # type: ignore[no-untyped-def]
    """Four playing, round 1 paired and played; late entry open until the end of round 2."""
    event = make_event(organizer, games["caster"], players=4, capacity=4, rounds=3, late_entry_until_round=2)
    services.tournament_start(tournament=event, by=organizer)
    if not event.round_set.exists():
        services.round_pair_next(tournament=event, by=organizer)
    finish_round(event, organizer)
    waiting = [make_user(f"wait{i}") for i in range(2)]
    entries = [services.player_add_late(tournament=event, by=organizer, user=account) for account in waiting]
    return event, waiting, entries


def test_late_entries_into_a_full_event_wait_in_line_and_their_phone_says_so(client, full_running):
    event, accounts, entries = full_running
    assert [e.waitlisted for e in entries] == [True, True]
    client.force_login(accounts[1])
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert "number 2 in line" in page and "until the end of round 2" in page
    assert "no place freed up" not in page


def test_raising_the_cap_after_the_start_serves_the_line_before_a_new_entrant(
    games, organizer, full_running, make_user
):
    event, _accounts, entries = full_running
    services.tournament_update(tournament=event, by=organizer, capacity=5)
    first = Player.objects.get(pk=entries[0].pk)
    assert not first.waitlisted and first.joined_round == 2
    newcomer = services.player_add_late(tournament=event, by=organizer, name="Newcomer")
    assert newcomer.waitlisted  # the second in line is still waiting: nobody jumps it
    assert services.waitlist_position(newcomer) == 2


def test_a_drop_after_the_start_moves_the_first_in_line_up_as_a_late_entry(client, organizer, full_running):
    event, accounts, entries = full_running
    services.player_drop(player=event.players.filter(waitlisted=False).first(), by=organizer)
    promoted = Player.objects.get(pk=entries[0].pk)
    assert not promoted.waitlisted and promoted.joined_round == 2
    assert EntryChange.objects.filter(player=promoted, action="promote").exists()
    client.force_login(accounts[0])
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert "A place freed up" in page and "You play from round 2. Confirm you are here" in page
    answer = client.post(
        reverse("tournaments:player_check_in", args=[event.pk, promoted.pk]), {"present": "1"}
    )
    assert answer.status_code in (200, 302)
    promoted.refresh_from_db()
    assert promoted.checked_in_at is not None
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert "You confirmed you are here" in page


def test_an_organizer_lets_in_any_waitlisted_player_over_the_cap(client, organizer, full_running):
    event, _accounts, entries = full_running
    client.force_login(organizer)
    check_in = client.get(reverse("tournaments:check_in", args=[event.pk])).content.decode()
    assert f'data-testid="admit-{entries[1].pk}"' in check_in
    client.post(reverse("tournaments:waitlist_admit", args=[event.pk, entries[1].pk]))
    second = Player.objects.get(pk=entries[1].pk)
    assert not second.waitlisted and second.joined_round == 2
    change = EntryChange.objects.get(player=second, action="admit")
    assert change.new["over_cap"] is True and change.changed_by == organizer
    check_in = client.get(reverse("tournaments:check_in", args=[event.pk])).content.decode()
    assert f'data-testid="over-cap-{second.pk}"' in check_in
    assert Player.objects.get(pk=entries[0].pk).waitlisted  # the first in line keeps their place in it


def test_an_organizer_adds_a_late_player_over_the_cap_from_the_event_page(client, organizer, full_running):
    event, _accounts, _entries = full_running
    client.force_login(organizer)
    client.post(
        reverse("tournaments:guest_add", args=[event.pk]), {"name": "Judge's friend", "over_cap": "on"}
    )
    added = Player.objects.get(tournament=event, name="Judge's friend")
    assert not added.waitlisted
    assert EntryChange.objects.get(player=added, action="late_entry").new["over_cap"] is True


def test_once_late_entry_closes_the_line_is_told_no_place_freed_up_and_nothing_else(
    client, organizer, full_running
):
    event, accounts, _entries = full_running
    for _ in range(2):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer)
    client.force_login(accounts[0])
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert "no place freed up for you" in page
    assert "in line" not in page


def test_check_in_counts_only_players_with_a_place(client, games, organizer):
    event = make_event(organizer, games["caster"], players=3, capacity=2)
    services.checkin_open(tournament=event, by=organizer)
    first, second = event.players.filter(waitlisted=False).order_by("id")
    services.player_check_in(player=first, by=organizer)
    services.player_check_in(player=second, by=organizer)
    services.player_drop(player=second, by=organizer)  # the third moves up, not yet checked in
    client.force_login(organizer)
    page = client.get(reverse("tournaments:check_in", args=[event.pk])).content.decode()
    assert "1 of 2" in page


def test_the_waitlist_reads_in_russian(client, full_running):
    event, accounts, _entries = full_running
    client.force_login(accounts[0])
    client.cookies["django_language"] = "ru"
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert "Турнир уже начался и заполнен" in page
