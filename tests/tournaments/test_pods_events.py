"""Pod events: pods by points, Vale placement by VP then summoned cards (shared places), Everseal defeats."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournaments import services
from tournaments.models import MatchSeat
from tournaments.reads.selectors import standings_compute

from .factories import make_event

pytestmark = pytest.mark.django_db


def test_vale_pods_place_by_victory_points_then_summoned_cards(games, organizer, api_client_for):
    event = make_event(organizer, games["vale"], players=8, rounds=2)
    assert event.match_format == "pods" and event.tiebreakers == "pods"
    round_ = services.round_pair_next(tournament=event, by=organizer)
    sizes = sorted(m.seats.count() for m in round_.matches.all())
    assert sizes == [4, 4]
    match = round_.matches.order_by("table").first()
    a, b, c, d = [s.player_id for s in match.seats.order_by("seat")]
    response = api_client_for(organizer).post(
        f"/api/matches/{match.pk}/result/",
        {"places": [{"player": a, "score": 60, "tiebreak": 9}, {"player": b, "score": 60, "tiebreak": 7},
                    {"player": c, "score": 45, "tiebreak": 8}, {"player": d, "score": 45, "tiebreak": 8}]},
        format="json",
    )  # fmt: skip
    assert response.status_code == 200, response.content
    places = {row["player"]: row["place"] for row in response.json()["places"]}
    assert places == {a: 1, b: 2, c: 3, d: 3}
    rows = {r["player"]: r for r in standings_compute(tournament=event)}
    # Shared 3rd place scores as 3rd (1 point each), never less than a lone 4th (0).
    assert rows[a]["points"] == 3 and rows[b]["points"] == 2 and rows[c]["points"] == 1 == rows[d]["points"]
    assert rows[a]["tiebreakers"]["tiebreak"] == 60


def test_everseal_pods_of_three_to_four_place_by_defeats(games, organizer):
    event = make_event(organizer, games["everseal"], players=7, rounds=2, match_format="pods")
    round_ = services.round_pair_next(tournament=event, by=organizer)
    assert sorted(m.seats.count() for m in round_.matches.all()) == [3, 4]
    match = round_.matches.order_by("table").first()
    ids = [s.player_id for s in match.seats.order_by("seat")]
    rows = [{"player": pid, "score": score} for pid, score in zip(ids, [len(ids) - 1, 1, 0, 0], strict=False)]
    services.match_report_result(match=match, by=organizer, places=rows)
    places = dict(MatchSeat.objects.filter(match=match).values_list("player_id", "place"))
    assert places[ids[0]] == 1 and places[ids[1]] == 2
    with pytest.raises(ValidationError):
        services.match_correct_result(
            match=match, by=organizer, places=[{"player": pid, "score": len(ids) - 1} for pid in ids]
        )


def test_a_pod_result_needs_every_player(games, organizer):
    event = make_event(organizer, games["vale"], players=4, rounds=1)
    match = services.round_pair_next(tournament=event, by=organizer).matches.first()
    first = match.seats.first().player_id
    with pytest.raises(ValidationError, match="missing"):
        services.match_report_result(match=match, by=organizer, places=[{"player": first, "score": 10}])


def test_pods_avoid_repeated_tables_when_they_can(games, organizer):
    event = make_event(organizer, games["vale"], players=8, rounds=2)
    r1 = services.round_pair_next(tournament=event, by=organizer)
    for m in r1.matches.all():
        ids = [s.player_id for s in m.seats.order_by("seat")]
        services.match_report_result(
            match=m,
            by=organizer,
            places=[{"player": p, "score": 10 * i, "tiebreak": 0} for i, p in enumerate(ids)],
        )
    r2 = services.round_pair_next(tournament=event, by=organizer)
    before = [{s.player_id for s in m.seats.all()} for m in r1.matches.all()]
    after = [{s.player_id for s in m.seats.all()} for m in r2.matches.all()]
    assert before != after
