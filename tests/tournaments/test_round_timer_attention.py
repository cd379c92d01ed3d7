"""The round timer is visible to players; when it runs out, matches without a result reach the organizer."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tournaments import services
from tournaments.reads import selectors

from .factories import make_event

pytestmark = pytest.mark.django_db


def test_late_results_join_the_organizers_to_do_list(client, games, organizer, user):
    event = make_event(organizer, games["caster"], players=4, rounds=2)
    round_ = services.round_pair_next(tournament=event, by=organizer)
    done, late = round_.matches.order_by("table")
    services.match_report_result(match=done, by=organizer, wins=[2, 0])
    assert list(selectors.attention_matches(event)) == []
    services.round_timer_start(round_=round_, by=organizer, minutes=1)
    assert list(selectors.attention_matches(event)) == []  # time is not up yet
    assert [m.pk for m in selectors.attention_matches(event, now=timezone.now() + timedelta(minutes=2))] == [
        late.pk
    ]
    round_.refresh_from_db()
    round_.timer_ends_at = timezone.now() - timedelta(seconds=1)
    round_.save(update_fields=["timer_ends_at"])
    client.force_login(organizer)
    page = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert page.count('data-testid="late-result"') == 1
    # Players see the timer too (without the organizer's controls), and the flag on the late table.
    client.force_login(user)
    page = client.get(reverse("tournaments:round", args=[event.pk, 1])).content.decode()
    assert 'id="round-timer"' in page and 'data-testid="start-timer"' not in page
    assert page.count('data-testid="overtime"') == 1
    assert (
        'data-testid="late-result"'
        not in client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    )
