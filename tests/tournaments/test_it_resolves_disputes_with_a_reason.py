"""The organizer's round dashboard puts what needs them first; a dispute is resolved with a reason, audited."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from tournaments import services
from tournaments.models import Match
from tournaments.reads import selectors

from .factories import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_(games, organizer, user, other_user, make_user):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["caster"], rounds=3)
    for u in (user, other_user, make_user("carol"), make_user("dave"), make_user("erin")):
        services.player_register(tournament=event, by=u)
    return services.round_pair_next(tournament=event, by=organizer)


def test_disputes_come_first_with_their_reason_and_late_matches_are_flagged(round_, organizer, user):
    matches = list(round_.matches.filter(bye=False).order_by("table"))
    done, disputed = matches[0], matches[1]
    services.match_report_result(match=done, by=organizer, wins=[2, 0])
    reporter = disputed.seats.get(seat=0).player.user
    services.match_report_result(match=disputed, by=reporter, wins=[2, 0])
    opponent = disputed.seats.get(seat=1).player.user
    services.match_dispute(match=disputed, by=opponent, reason="I won game 2")
    rows = selectors.round_dashboard(round_=round_, now=timezone.now())
    assert rows[0].match.pk == disputed.pk and rows[0].dispute_reason == "I won game 2"
    assert [r.outstanding for r in rows] == sorted((r.outstanding for r in rows), reverse=True)
    assert next(r for r in rows if r.match.pk == done.pk).outstanding is False
    services.round_timer_start(round_=round_, by=organizer, minutes=1)
    round_.refresh_from_db()
    late = selectors.round_dashboard(round_=round_, now=timezone.now() + timedelta(minutes=2))
    assert [r.overtime for r in late] == [r.outstanding and not r.match.bye for r in late]


def test_a_dispute_is_resolved_only_with_a_reason(round_, organizer, api_client_for):
    match = round_.matches.filter(bye=False).order_by("table").first()
    seats = list(match.seats.order_by("seat"))
    reporter = seats[0].player.user or seats[1].player.user
    services.match_report_result(match=match, by=reporter, wins=[2, 1])
    disputer = next(s.player.user for s in seats if s.player.user and s.player.user != reporter)
    services.match_dispute(match=match, by=disputer, reason="it was 1-2")
    client = api_client_for(organizer)
    refused = client.post(f"/api/matches/{match.pk}/resolve/", {"wins": [1, 2]}, format="json")
    assert refused.status_code == 400 and Match.objects.get(pk=match.pk).status == "disputed"
    resolved = client.post(
        f"/api/matches/{match.pk}/resolve/", {"wins": [1, 2], "reason": "judge call"}, format="json"
    )
    assert (
        resolved.status_code == 200
        and resolved.json()["status"] == "final"
        and resolved.json()["wins"] == [1, 2]
    )
    change = match.result_changes.order_by("-id").first()
    assert (change.action, change.reason, change.old["wins"]) == ("resolve", "judge call", [2, 1])
    with pytest.raises(ValidationError, match="reason"):
        services.match_correct_result(match=match, by=organizer, wins=[2, 0])


def test_a_result_an_organizer_sets_on_a_dispute_names_the_organizer_as_its_reporter(
    games, organizer, user, other_user, client
):
    from django.urls import reverse

    from tournaments import services
    from tournaments.models import Match

    from .factories import make_event

    event = make_event(organizer, games["caster"], rounds=2)
    services.player_register(tournament=event, by=user)
    services.player_register(tournament=event, by=other_user)
    match = services.round_pair_next(tournament=event, by=organizer).matches.get()
    services.match_report_result(match=match, by=user, wins=[2, 0])
    services.match_dispute(match=Match.objects.get(pk=match.pk), by=other_user, reason="It was 1-2")
    services.match_resolve_dispute(
        match=Match.objects.get(pk=match.pk), by=organizer, reason="Judge's call", wins=[1, 2]
    )
    match.refresh_from_db()
    assert match.reported_by == organizer
    client.force_login(other_user)
    page = client.get(reverse("tournaments:match", args=[match.pk])).content.decode()
    assert f"reported by {organizer.username}" in page and f"reported by {user.username}" not in page
