"""HTML pages: organizers run an event through forms; players see and do only what is theirs."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Match, Tournament

from .factories import finish_round, make_event

pytestmark = pytest.mark.django_db


def test_the_list_and_detail_pages_render_for_anyone(client, games, organizer):
    event = make_event(organizer, games["caster"], players=4, rounds=2)
    assert client.get(reverse("tournaments:list")).status_code == 200
    page = client.get(reverse("tournaments:detail", args=[event.pk]))
    assert page.status_code == 200 and b"Player 01" in page.content
    assert b"organizer-controls" not in page.content


def test_an_organizer_creates_and_pairs_through_forms(client, games, organizer):
    client.force_login(organizer)
    response = client.post(
        reverse("tournaments:create"),
        {"name": "Form Cup", "game_format": "caster:standard", "match_format": "bo3", "rounds": "2", "top_cut": "0",
         "late_entry_losses": "on", "round_minutes": "40"},
    )  # fmt: skip
    event = Tournament.objects.get(name="Form Cup")
    assert response.status_code == 302 and event.round_minutes == 40 and event.rounds == 2
    for name in ("Ann", "Ben", "Cid", "Dee"):
        client.post(reverse("tournaments:guest_add", args=[event.pk]), {"name": name})
    assert event.players.count() == 4
    # Pairing is irreversible: without the confirmation page's marker the POST only leads to that page.
    response = client.post(reverse("tournaments:pair", args=[event.pk]))
    assert response.status_code == 302 and response["Location"] == reverse(
        "tournaments:confirm", args=[event.pk, "pair"]
    )
    assert not event.round_set.exists()
    confirm_page = client.get(response["Location"]).content.decode()
    assert 'name="confirmed" value="yes"' in confirm_page and "Pair round 1?" in confirm_page
    response = client.post(reverse("tournaments:pair", args=[event.pk]), {"confirmed": "yes"})
    assert response.status_code == 302
    round_page = client.get(reverse("tournaments:round", args=[event.pk, 1]))
    assert round_page.status_code == 200 and b"Ann" in round_page.content
    match = event.round_set.get(number=1).matches.first()
    client.post(reverse("tournaments:report", args=[match.pk]), {"wins_a": "2", "wins_b": "1", "draws": "0"})
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL
    client.post(reverse("tournaments:timer", args=[event.pk, 1]), {"minutes": "50"})
    assert event.round_set.get(number=1).timer_ends_at is not None


def test_a_refused_action_shows_the_reason(client, games, organizer):
    event = make_event(organizer, games["caster"], players=1)
    client.force_login(organizer)
    response = client.post(reverse("tournaments:pair", args=[event.pk]), {"confirmed": "yes"}, follow=True)
    assert b"At least two players" in response.content


def test_a_player_cannot_open_organizer_pages(client, games, organizer, user):
    event = make_event(organizer, games["caster"], players=2)
    client.force_login(user)
    assert client.get(reverse("tournaments:edit", args=[event.pk])).status_code == 403
    assert client.get(reverse("tournaments:create")).status_code == 403
    client.post(reverse("tournaments:pair", args=[event.pk]), {"confirmed": "yes"})
    assert not event.round_set.exists()


def test_expired_timer_flags_unfinished_matches(client, games, organizer):
    from datetime import timedelta

    from django.utils import timezone

    event = make_event(organizer, games["caster"], players=4, rounds=2)
    round_ = services.round_pair_next(tournament=event, by=organizer)
    first, second = round_.matches.order_by("table")
    services.match_report_result(match=first, by=organizer, wins=[2, 0])
    round_.timer_ends_at = timezone.now() - timedelta(seconds=5)
    round_.save()
    page = client.get(reverse("tournaments:round", args=[event.pk, 1])).content.decode()
    assert page.count('data-testid="overtime"') == 1
    assert f'data-match="{second.pk}" class="overdue"' in page
    # The organizer's dashboard lists the late table first and flags it too.
    client.force_login(organizer)
    dashboard = client.get(reverse("tournaments:round", args=[event.pk, 1])).content.decode()
    assert dashboard.count('data-testid="overtime"') == 1
    assert dashboard.index(f'data-match="{second.pk}"') < dashboard.index(f'data-match="{first.pk}"')


def test_standings_and_bracket_pages(client, games, organizer):
    event = make_event(organizer, games["caster"], players=4, rounds=1, top_cut=2)
    services.round_pair_next(tournament=event, by=organizer)
    finish_round(event, organizer)
    page = client.get(reverse("tournaments:standings", args=[event.pk]))
    assert page.status_code == 200 and b"OMW%" in page.content
    services.topcut_start(tournament=event, by=organizer)
    assert client.get(reverse("tournaments:bracket", args=[event.pk])).status_code == 200


def test_decklists_are_private_until_published(client, games, organizer, user, other_user):
    from .factories import make_deck, ygo_cards, ygo_payload

    game = games["yugioh"]
    cards = ygo_cards(game)
    event = make_event(organizer, game, deck_registration=True, rounds=1, publish_decklists=True)
    mine = services.player_register(tournament=event, by=user, deck=make_deck(user, game, ygo_payload(cards)))
    theirs = services.player_register(
        tournament=event, by=other_user, deck=make_deck(other_user, game, ygo_payload(cards))
    )
    client.force_login(user)
    assert client.get(reverse("tournaments:player_deck", args=[event.pk, mine.pk])).status_code == 200
    assert client.get(reverse("tournaments:player_deck", args=[event.pk, theirs.pk])).status_code == 404
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.FINISHED)
    assert client.get(reverse("tournaments:player_deck", args=[event.pk, theirs.pk])).status_code == 200


def test_the_deck_check_page_lists_differences(client, games, organizer, user):
    from .factories import make_deck, ygo_cards, ygo_payload

    game = games["yugioh"]
    cards = ygo_cards(game)
    event = make_event(organizer, game, deck_registration=True, rounds=1)
    player = services.player_register(
        tournament=event, by=user, deck=make_deck(user, game, ygo_payload(cards))
    )
    client.force_login(organizer)
    lines = ["#main", *[c.external_id for c in cards["main"] for _ in range(3)][:-1]]
    lines += ["#extra", cards["extra"][0].external_id, "!side"] + [
        c.external_id for c in cards["side"][:3] for _ in range(2)
    ]
    page = client.post(
        reverse("tournaments:deck_check", args=[event.pk, player.pk]), {"text": "\n".join(lines)}
    )
    assert page.status_code == 200
    assert b"deck-diffs" in page.content and b"Test Monster 13" in page.content


def test_the_creator_appoints_co_organizers(client, games, organizer, make_user):
    helper = make_user("helper")
    event = make_event(organizer, games["caster"], players=2)
    client.force_login(organizer)
    client.post(
        reverse("tournaments:edit", args=[event.pk]),
        {"name": event.name, "co_organizers": "helper", "late_entry_losses": "on", "round_minutes": "50"},
    )
    assert list(event.co_organizers.all()) == [helper]
    client.force_login(helper)
    assert client.get(reverse("tournaments:edit", args=[event.pk])).status_code == 200
