"""Pod rounds whose player count does not split into the game's pod sizes: a short pod or a pod bye."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournaments import services
from tournaments.engine.pod_rounds import PodPlanImpossible, plan_pod_round
from tournaments.reads.selectors import standings_compute

from .factories import make_event


def _report_by_seat(match, by) -> None:  # type: ignore[no-untyped-def]
    """Seat 0 defeats everyone; the others defeat nobody (Everseal scores = opponents defeated)."""
    ids = [s.player_id for s in match.seats.order_by("seat")]
    services.match_report_result(
        match=match,
        by=by,
        places=[{"player": pid, "score": len(ids) - 1 if i == 0 else 0} for i, pid in enumerate(ids)],
    )


@pytest.mark.django_db
def test_five_everseal_players_get_a_pod_of_three_and_a_two_player_game_at_the_bottom(games, organizer):
    event = make_event(organizer, games["everseal"], players=5, rounds=2, match_format="pods")
    r1 = services.round_pair_next(tournament=event, by=organizer)
    assert [m.seats.count() for m in r1.matches.order_by("table")] == [3, 2]
    assert not r1.matches.filter(bye=True).exists()
    for match in r1.matches.all():
        _report_by_seat(match, organizer)
    r2 = services.round_pair_next(tournament=event, by=organizer)
    tables = [[s.player_id for s in m.seats.all()] for m in r2.matches.order_by("table")]
    assert [len(t) for t in tables] == [3, 2]
    # The short pod holds the two lowest on points.
    points = {row["player"]: row["points"] for row in standings_compute(tournament=event)}
    bottom = sorted(points.values())[:2]
    assert sorted(points[pid] for pid in tables[1]) == bottom


@pytest.mark.django_db
def test_the_last_player_left_gets_a_pod_bye_worth_a_full_pod_win_and_never_two(games, organizer):
    event = make_event(organizer, games["everseal"], players=3, rounds=3, match_format="pods")
    r1 = services.round_pair_next(tournament=event, by=organizer)
    _report_by_seat(r1.matches.get(), organizer)
    keep, *others = [s.player for s in r1.matches.get().seats.order_by("-seat")]
    for player in others:
        services.player_drop(player=player, by=organizer)
    r2 = services.round_pair_next(tournament=event, by=organizer)
    bye = r2.matches.get()
    assert bye.bye and bye.status == "final" and [s.player_id for s in bye.seats.all()] == [keep.pk]
    row = next(r for r in standings_compute(tournament=event) if r["player"] == keep.pk)
    # Winning a pod of four (the largest Everseal pod) is worth 3; so is the pod bye. Round 1's shared 2nd
    # place scores as a 2nd place on that scale: 2.
    assert row["points"] == 3 + 2 and row["wins"] == 1
    with pytest.raises(ValidationError, match="bye"):
        services.round_pair_next(tournament=event, by=organizer)


def test_a_game_that_cannot_be_played_by_two_gives_the_bye_to_the_lowest_without_one() -> None:
    points = {1: 6, 2: 3, 3: 0, 4: 0, 5: 3}
    plan = plan_pod_round(points, min_size=3, max_size=4, two_player_games=False, had_bye=set(), seed=7)
    assert plan.min_size == 3 and len(plan.byes) == 1 and plan.byes[0] in {3, 4}
    # The same seed gives the same bye; the one who had a bye is skipped.
    again = plan_pod_round(points, min_size=3, max_size=4, two_player_games=False, had_bye=set(), seed=7)
    assert again == plan
    skip = plan_pod_round(points, min_size=3, max_size=4, two_player_games=False, had_bye={3, 4}, seed=7)
    assert skip.byes[0] in {2, 5}
    with pytest.raises(PodPlanImpossible):
        plan_pod_round(points, min_size=3, max_size=4, two_player_games=False, had_bye=set(points), seed=7)


def test_counts_that_split_need_neither_a_short_pod_nor_a_bye() -> None:
    for n in (3, 4, 6, 7, 8, 9, 10, 11):
        plan = plan_pod_round(
            dict.fromkeys(range(n), 0), min_size=3, max_size=4, two_player_games=True, had_bye=(), seed=1
        )
        assert plan.min_size == 3 and plan.byes == ()
    short = plan_pod_round(dict.fromkeys(range(5), 0), min_size=3, max_size=4, two_player_games=True,
                           had_bye=(), seed=1)  # fmt: skip
    assert short.min_size == 2 and short.byes == ()
