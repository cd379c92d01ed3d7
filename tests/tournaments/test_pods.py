"""Pod sizes, Swiss pod seating and pod placements."""

from __future__ import annotations

import pytest

from tournaments.engine.pods import (
    EversealResult,
    PodPlayer,
    PodsImpossible,
    ValeResult,
    assign_pods,
    everseal_places,
    places_from_scores,
    pod_sizes,
    vale_places,
)

pytestmark: list[pytest.MarkDecorator] = []


@pytest.mark.parametrize(
    ("n", "low", "high", "sizes"),
    [
        (10, 3, 4, [4, 3, 3]),
        (12, 3, 4, [4, 4, 4]),
        (11, 3, 4, [4, 4, 3]),
        (6, 3, 4, [3, 3]),
        (9, 2, 4, [3, 3, 3]),
        (5, 2, 4, [3, 2]),
        (3, 3, 4, [3]),
    ],
)
def test_it_uses_the_fewest_balanced_pods(n: int, low: int, high: int, sizes: list[int]):
    assert pod_sizes(n, low, high) == sizes


@pytest.mark.parametrize(("n", "low", "high"), [(2, 3, 4), (5, 3, 4)])
def test_it_refuses_player_counts_that_cannot_fill_pods(n: int, low: int, high: int):
    with pytest.raises(PodsImpossible):
        pod_sizes(n, low, high)


def test_it_seats_players_with_similar_points_together():
    players = [PodPlayer(i, 6 if i <= 4 else 0) for i in range(1, 9)]
    result = assign_pods(players, 3, 4, seed=3, previous_tablemates={})
    assert [set(pod.player_ids) for pod in result.pods] == [{1, 2, 3, 4}, {5, 6, 7, 8}]
    assert [pod.table for pod in result.pods] == [1, 2]


def test_it_swaps_players_between_adjacent_pods_to_avoid_repeated_tablemates():
    players = [PodPlayer(i, 0) for i in range(1, 7)]
    # 1, 2, 3 and 4, 5, 6 already shared pods: any pod of three mixing the two trios still repeats,
    # but swapping keeps repeats at 1 + 1 instead of 3 + 3.
    met = {1: {2, 3}, 2: {1, 3}, 3: {1, 2}, 4: {5, 6}, 5: {4, 6}, 6: {4, 5}}
    for seed in range(5):
        result = assign_pods(players, 3, 3, seed=seed, previous_tablemates=met)
        assert result.repeated_tablemates == 2


def test_it_reproduces_pods_from_the_seed_whatever_the_input_order():
    players = [PodPlayer(i, i % 2) for i in range(1, 12)]
    first = assign_pods(players, 3, 4, seed=42, previous_tablemates={1: {2}, 2: {1}})
    assert assign_pods(players[::-1], 3, 4, seed=42, previous_tablemates={1: {2}, 2: {1}}) == first


def test_it_shares_places_on_equal_scores():
    assert places_from_scores([(1, (5,)), (2, (7,)), (3, (5,)), (4, (1,))]) == {2: 1, 1: 2, 3: 2, 4: 4}


def test_it_places_vale_by_victory_points_then_summoned_cards():
    results = [ValeResult(1, 10, 2), ValeResult(2, 10, 5), ValeResult(3, 4, 9), ValeResult(4, 10, 5)]
    assert vale_places(results) == {2: 1, 4: 1, 1: 3, 3: 4}


def test_it_places_everseal_by_defeats_dealt():
    results = [EversealResult(1, 1), EversealResult(2, 3), EversealResult(3, 1), EversealResult(4, 0)]
    assert everseal_places(results) == {2: 1, 1: 2, 3: 2, 4: 4}


def test_it_refuses_two_everseal_players_who_defeated_everyone():
    with pytest.raises(ValueError, match="only one"):
        everseal_places([EversealResult(1, 2), EversealResult(2, 2), EversealResult(3, 0)])
