"""The organizer's and players' pages for late entries, claims, links and the waitlist (English and
Russian)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import EntryChange, Player, Tournament

from .factories import make_event

pytestmark = pytest.mark.django_db


def form(**extra):
    return {"name": "Form Cup", "game_format": "caster:standard", "match_format": "bo3", "top_cut": "0",
            "round_minutes": "40", **extra}  # fmt: skip


@pytest.mark.parametrize("capacity", ["0", "-2", "lots"])
def test_the_event_form_refuses_a_bad_cap_with_the_reason(capacity, client, games, organizer):
    client.force_login(organizer)
    page = client.post(reverse("tournaments:create"), form(capacity=capacity), follow=True)
    assert "The player cap must be a whole number" in page.content.decode()
    assert not Tournament.objects.exists()


def test_the_event_form_sets_the_cap_and_the_late_entry_window(client, games, organizer):
    client.force_login(organizer)
    client.post(reverse("tournaments:create"), form(capacity="16", late_entry_until_round="3"))
    event = Tournament.objects.get()
    assert (event.capacity, event.late_entry_until_round) == (16, 3)
    client.post(reverse("tournaments:edit", args=[event.pk]), form(capacity="", late_entry_until_round="0"))
    event.refresh_from_db()
    assert (event.capacity, event.late_entry_until_round) == (None, 0)


def test_organizers_add_accounts_and_link_guests_from_the_event_page(
    client, games, organizer, user, other_user
):
    event = make_event(organizer, games["caster"], players=3)
    client.force_login(organizer)
    page = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert 'data-testid="account-form"' in page and "Link to an account" in page
    unknown = client.post(
        reverse("tournaments:guest_add", args=[event.pk]), {"username": "ghost"}, follow=True
    )
    assert "No account is called ghost" in unknown.content.decode()
    client.post(reverse("tournaments:guest_add", args=[event.pk]), {"username": "alice"})
    assert Player.objects.get(tournament=event, user=user).name == "alice"
    guest = event.players.get(name="Player 01")
    linked = client.post(reverse("tournaments:player_link", args=[event.pk, guest.pk]), {"username": "bob"},
                         follow=True)  # fmt: skip
    assert "Player 01 now belongs to the account bob." in linked.content.decode()
    assert Player.objects.get(pk=guest.pk).user == other_user
    assert EntryChange.objects.filter(player=guest, action="link", changed_by=organizer).exists()
    history = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert 'data-testid="entry-changes"' in history and "linked to an account (@bob)" in history
    client.force_login(user)
    refused = client.post(reverse("tournaments:player_link", args=[event.pk, event.players.get(name="Player 02").pk]),
                          {"username": "alice"}, follow=True)  # fmt: skip
    assert "Only the organizers" in refused.content.decode()
    assert event.players.get(name="Player 02").user is None


def test_a_newcomer_whose_name_was_added_in_bulk_is_asked_this_is_me(client, games, organizer):
    event = make_event(organizer, games["caster"])
    (guest,) = services.players_bulk_add(tournament=event, by=organizer, rows=["Erin Park"])
    url = reverse("tournaments:join_code", args=[event.join_code])
    signup = {"username": "erin", "email": "erin@example.com", "password1": "s3cret-Pass!x",
              "password2": "s3cret-Pass!x"}  # fmt: skip
    asked = client.post(url, signup, follow=True).content.decode()
    assert 'data-testid="claim-choice"' in asked and "This is me: Erin Park" in asked
    assert event.players.count() == 1
    done = client.post(url, {"claim": str(guest.pk)}, follow=True)
    assert done.redirect_chain[-1][0].endswith(reverse("tournaments:my_event", args=[event.pk]))
    assert Player.objects.get(pk=guest.pk).user.username == "erin" and event.players.count() == 1


def test_the_waitlist_shows_on_the_organizer_pages_and_in_russian_on_my_event(client, games, organizer, user):
    event = make_event(organizer, games["caster"], players=2, capacity=2)
    mine = services.player_join(code=event.join_code, by=user)
    assert mine.waitlisted
    client.force_login(organizer)
    page = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert "2 of 2 places taken." in page and "waitlist, number 1" in page
    check_in = client.get(reverse("tournaments:check_in", args=[event.pk])).content.decode()
    assert (
        f'data-testid="waitlisted-{mine.pk}"' in check_in and f'data-testid="mark-{mine.pk}"' not in check_in
    )
    client.force_login(user)
    ru = client.get(
        reverse("tournaments:my_event", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    assert "вы в листе ожидания, 1-й в очереди" in ru


def test_a_waitlisted_player_is_not_promised_a_table_in_round_1(client, games, organizer, user):
    """Found by the event-day-messes browser scenario: My event told a player in line "when the organizer
    pairs round 1, your table and opponent appear here", which only holds once a place frees."""
    event = make_event(organizer, games["caster"], players=1, capacity=1)
    services.player_join(code=event.join_code, by=user)
    client.force_login(user)
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert 'data-testid="waitlisted"' in page
    assert "your table and opponent appear here" not in page
    services.player_drop(player=event.players.get(user__isnull=True), by=organizer)
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert 'data-testid="promoted"' in page and "your table and opponent appear here" in page
