"""MTR 7.x "play within your pod": a draft's first Swiss rounds pair each pod apart (an odd pod gets its own
bye), later rounds across the event."""

from __future__ import annotations

import pytest

from limited.models import DraftPod
from tests.tournaments.factories import finish_round
from tournaments import services as tournament_services
from tournaments.models import MatchSeat, Tournament
from tournaments.pairings.report import round_rerun

from .conftest import create_limited_event, sign_up

pytestmark = pytest.mark.django_db


def test_the_first_rounds_stay_within_the_pods(twindeck, api_client_for, make_user, organizer):
    org = api_client_for(organizer)
    created = create_limited_event(
        org, {"kind": "draft", "product": "td-sample", "seed": 21, "physical": True, "pod_rounds": 2},
        deck_registration=False, rounds=3,
    )  # fmt: skip
    assert created.status_code == 201, created.content
    event_id = created.json()["id"]
    sign_up(api_client_for, make_user, event_id, created.json()["join_code"], 11)
    org.post(f"/api/tournaments/{event_id}/draft/start/")
    pods = [set(p.seats) for p in DraftPod.objects.order_by("number")]
    assert sorted(len(p) for p in pods) == [5, 6]
    tournament = Tournament.objects.get(pk=event_id)
    for number in (1, 2, 3):
        round_ = tournament_services.round_pair_next(tournament=tournament, by=organizer)
        tables = {}
        for seat in MatchSeat.objects.filter(match__round=round_).select_related("match"):
            tables.setdefault(seat.match_id, set()).add(seat.player_id)
        in_one_pod = [any(players <= pod for pod in pods) for players in tables.values()]
        assert sum(1 for m in round_.matches.all() if m.bye) == 1  # the pod of five's bye
        if number <= 2:
            assert all(in_one_pod), number
        assert round_rerun(round_).identical  # the pairing report pairs the pods apart too
        finish_round(tournament, organizer)
    assert sorted(t for t in round_.matches.values_list("table", flat=True)) == list(range(1, 7))
