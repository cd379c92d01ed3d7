"""Setup options (defaults by game, editable until round 1) and the registration deadline freeze."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from tournaments import services
from tournaments.models import Player, Tournament

from .factories import make_event, ygo_cards, ygo_payload

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("game", "match_format", "tiebreakers"),
    [
        ("yugioh", "bo3", "yugioh"),
        ("caster", "bo3", "mtg"),
        ("twindeck", "bo3", "mtg"),
        ("vale", "pods", "pods"),
    ],
)
def test_match_format_and_tiebreakers_default_by_game(games, organizer, game, match_format, tiebreakers):
    event = make_event(organizer, games[game])
    assert (event.match_format, event.tiebreakers, event.rounds) == (match_format, tiebreakers, None)


def test_rounds_and_cut_are_editable_until_round_one(games, organizer):
    event = make_event(organizer, games["caster"], players=4)
    services.tournament_update(tournament=event, by=organizer, rounds=3, top_cut=2)
    event.refresh_from_db()
    assert (event.rounds, event.top_cut) == (3, 2)
    with pytest.raises(ValidationError, match="Top cut must be 0"):
        services.tournament_update(tournament=event, by=organizer, top_cut=1)
    services.round_pair_next(tournament=event, by=organizer)
    with pytest.raises(ValidationError, match="round 1"):
        services.tournament_update(tournament=event, by=organizer, rounds=4)
    services.tournament_update(tournament=event, by=organizer, name="Renamed")  # still editable


def test_rounds_default_from_attendance_when_round_one_is_paired(games, organizer):
    event = make_event(organizer, games["caster"], players=20)
    services.round_pair_next(tournament=event, by=organizer)
    event.refresh_from_db()
    assert event.rounds == 5


def test_the_deadline_freezes_registration_and_decks_lazily_and_for_good(games, organizer, user, other_user):
    game = games["yugioh"]
    cards = ygo_cards(game)
    deadline = timezone.now() + timedelta(hours=1)
    event = make_event(organizer, game, deck_registration=True, registration_deadline=deadline)
    player = services.player_register(tournament=event, by=user)
    services.player_submit_deck(player=player, by=user, payload=ygo_payload(cards))
    assert Tournament.objects.get(pk=event.pk).registration_frozen_at is None

    after = deadline + timedelta(seconds=1)
    event.refresh_from_db()
    assert services.decks_frozen(event, now=after)
    # The first access after the deadline stamps the freeze with the deadline itself.
    assert Tournament.objects.get(pk=event.pk).registration_frozen_at == deadline
    with pytest.raises(ValidationError, match="frozen"):
        services.player_submit_deck(player=player, by=user, payload=ygo_payload(cards, main_copies=2))
    with pytest.raises(ValidationError, match="closed"):
        services.player_register(tournament=event, by=other_user)
    # Moving the deadline afterwards does not reopen anything.
    with pytest.raises(ValidationError, match="deadline cannot move"):
        services.tournament_update(
            tournament=event, by=organizer, registration_deadline=timezone.now() + timedelta(days=1)
        )
    assert sum(line["count"] for line in Player.objects.get(pk=player.pk).deck["sections"]["main"]) == 42


def test_after_the_deadline_the_pages_say_closed_and_settings_still_save(client, games, organizer, user):
    event = make_event(
        organizer, games["caster"], players=2, registration_deadline=timezone.now() - timedelta(minutes=5)
    )
    client.force_login(user)
    page = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert "Registration is closed." in page and 'data-testid="join-form"' not in page
    assert Tournament.objects.get(pk=event.pk).registration_frozen_at is not None
    client.force_login(organizer)
    form = {"name": "Renamed", "rounds": "2", "top_cut": "0", "round_minutes": "50",
            "registration_deadline": (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")}  # fmt: skip
    client.post(reverse("tournaments:edit", args=[event.pk]), form)
    event.refresh_from_db()
    assert event.name == "Renamed" and event.rounds == 2 and event.registration_deadline < timezone.now()
    # An organizer can still seat a walk-in before round 1.
    client.post(reverse("tournaments:guest_add", args=[event.pk]), {"name": "Walk-in"})
    assert event.players.filter(name="Walk-in").exists()
