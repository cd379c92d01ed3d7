"""Unit tests for the Swiss pairing rules; expectations are derived by hand from the rules."""

from __future__ import annotations

import pytest

from tournaments.engine.pairing import PairingImpossible, PairingPlayer, pair_round, recommended_rounds

pytestmark: list[pytest.MarkDecorator] = []


def player(pid: int, points: int = 0, opponents: tuple[int, ...] = (), bye: bool = False, downs: int = 0):
    return PairingPlayer(pid, points, frozenset(opponents), bye, downs)


def pair_sets(result) -> set[frozenset[int]]:
    return {frozenset((pair.player_a, pair.player_b)) for pair in result.pairs}


def test_it_pairs_every_player_exactly_once_in_round_one():
    result = pair_round([player(i) for i in range(1, 11)], round_number=1, seed=7)
    seated = [pid for pair in result.pairs for pid in (pair.player_a, pair.player_b)]
    assert sorted(seated) == list(range(1, 11))
    assert [pair.table for pair in result.pairs] == [1, 2, 3, 4, 5]
    assert result.bye is None


def test_it_reproduces_a_round_from_the_same_inputs_and_seed_whatever_the_input_order():
    players = [player(i, points=3 * (i % 3), opponents=((i % 16) + 1,)) for i in range(1, 17)]
    first = pair_round(players, round_number=2, seed=99)
    again = pair_round(list(reversed(players)), round_number=2, seed=99)
    assert first == again
    assert first.seed == 99


def test_it_gives_a_different_round_one_for_a_different_seed():
    players = [player(i) for i in range(1, 33)]
    assert pair_sets(pair_round(players, 1, seed=1)) != pair_sets(pair_round(players, 1, seed=2))


def test_it_pairs_players_with_equal_points_when_possible():
    players = [player(i, points=3) for i in (1, 2, 3, 4)] + [player(i, points=0) for i in (5, 6, 7, 8)]
    result = pair_round(players, round_number=2, seed=3)
    for pair in result.pairs:
        assert (pair.player_a <= 4) == (pair.player_b <= 4)
    assert result.stats.pair_downs == 0


def test_it_never_pairs_a_rematch_even_if_that_costs_pair_downs():
    # 1-2 already met and 3-4 already met: the only legal pairings cross the groups, twice.
    players = [player(1, 3, (2,)), player(2, 3, (1,)), player(3, 0, (4,)), player(4, 0, (3,))]
    result = pair_round(players, round_number=2, seed=0)
    assert pair_sets(result) in (
        {frozenset({1, 3}), frozenset({2, 4})},
        {frozenset({1, 4}), frozenset({2, 3})},
    )
    assert result.stats.pair_downs == 2


def test_it_pairs_down_the_group_member_with_fewest_previous_pair_downs():
    players = [
        player(1, 6, downs=1),
        player(2, 6, downs=1),
        player(3, 6, downs=0),
        player(4, 3),
        player(5, 3),
        player(6, 3),
    ]
    result = pair_round(players, round_number=3, seed=5)
    partner_of_3 = next(
        pair.player_b if pair.player_a == 3 else pair.player_a
        for pair in result.pairs
        if 3 in (pair.player_a, pair.player_b)
    )
    assert partner_of_3 in {4, 5, 6}
    assert frozenset({1, 2}) in pair_sets(result)
    assert result.stats.paired_down == (3,)
    assert result.stats.pair_downs == 1


def test_it_floats_a_player_past_a_group_when_everyone_in_it_is_a_rematch():
    # Groups 6 / 3 3 / 0: two odd prefixes, so 2 crossings is the minimum; 1 already met 2 and 3.
    players = [player(1, 6, (2, 3)), player(2, 3, (1,)), player(3, 3, (1,)), player(4, 0)]
    result = pair_round(players, round_number=3, seed=1)
    assert pair_sets(result) == {frozenset({1, 4}), frozenset({2, 3})}
    assert result.stats.pair_downs == 2


def test_it_gives_the_bye_to_a_lowest_ranked_player_who_has_not_had_one():
    players = [player(1, 6), player(2, 6), player(3, 3), player(4, 3), player(5, 0, bye=True)]
    result = pair_round(players, round_number=3, seed=11)
    assert result.bye in {3, 4}
    seated = sorted(pid for pair in result.pairs for pid in (pair.player_a, pair.player_b))
    assert seated == sorted({1, 2, 3, 4, 5} - {result.bye})


def test_it_moves_the_bye_up_when_every_lower_candidate_would_force_a_rematch():
    # Bye to 2 leaves 1-3 (rematch), bye to 3 leaves 1-2 (rematch): only 1 can take it.
    players = [player(1, 3, (2, 3)), player(2, 0, (1,)), player(3, 0, (1,))]
    result = pair_round(players, round_number=3, seed=4)
    assert result.bye == 1
    assert pair_sets(result) == {frozenset({2, 3})}


def test_it_refuses_a_second_bye_when_everyone_already_had_one():
    players = [player(i, bye=True) for i in (1, 2, 3)]
    with pytest.raises(PairingImpossible, match="already had a bye"):
        pair_round(players, round_number=4, seed=0)


def test_it_refuses_to_pair_when_everyone_has_played_everyone():
    ids = (1, 2, 3, 4)
    players = [player(i, 3, tuple(j for j in ids if j != i)) for i in ids]
    with pytest.raises(PairingImpossible, match="rematch"):
        pair_round(players, round_number=4, seed=0)


def test_it_numbers_tables_by_the_top_points_of_each_pair():
    players = [player(1, 9), player(2, 9), player(3, 6), player(4, 6), player(5, 3), player(6, 3)]
    result = pair_round(players, round_number=4, seed=8)
    assert [pair_sets_one(pair) for pair in result.pairs] == [
        frozenset({1, 2}),
        frozenset({3, 4}),
        frozenset({5, 6}),
    ]


def pair_sets_one(pair) -> frozenset[int]:
    return frozenset((pair.player_a, pair.player_b))


def test_it_rejects_a_duplicated_player():
    with pytest.raises(ValueError, match="twice"):
        pair_round([player(1), player(1)], round_number=1, seed=0)


@pytest.mark.parametrize(
    ("players", "top_cut", "rounds"),
    [
        (8, 0, None),
        (9, 0, 5),
        (16, 0, 5),
        (16, 8, 4),
        (17, 8, 5),
        (32, 0, 5),
        (33, 0, 6),
        (64, 0, 6),
        (65, 0, 7),
        (128, 0, 7),
        (129, 0, 8),
        (226, 0, 8),
        (227, 0, 9),
        (409, 0, 9),
        (410, 0, 10),
        (16384, 8, 10),
    ],
)
def test_it_recommends_the_mtr_number_of_rounds(players: int, top_cut: int, rounds: int | None):
    assert recommended_rounds(players, top_cut) == rounds


def test_it_pairs_a_group_where_the_greedy_order_paints_itself_into_a_corner():
    # Ten 3-point players who have played everyone in their group except their "partner" (i, i + 5):
    # the only pairing without pair-downs is exactly those five pairs, and any other first choice
    # strands players. A 0-point group below gives the search somewhere to float players wrongly.
    top = list(range(1, 11))
    partner = {i: i + 5 if i <= 5 else i - 5 for i in top}
    players = [player(i, 3, tuple(j for j in top if j not in (i, partner[i]))) for i in top]
    players += [player(i, 0) for i in range(11, 17)]
    result = pair_round(players, round_number=5, seed=3)
    assert {frozenset((i, partner[i])) for i in top} <= pair_sets(result)
    assert result.stats.pair_downs == 0


def test_it_finds_the_only_pairing_when_a_group_has_played_nearly_everyone():
    # Group of 6 at 9 points: everyone played everyone except a perfect matching among {1..6} that a
    # greedy pass meets last; below, 7..12 are fresh. Extra floats are needed nowhere.
    top = list(range(1, 7))
    allowed = {frozenset({1, 6}), frozenset({2, 5}), frozenset({3, 4}), frozenset({1, 2})}
    players = [
        player(i, 9, tuple(j for j in top if j != i and frozenset({i, j}) not in allowed)) for i in top
    ]
    players += [player(i, 3) for i in range(7, 13)]
    result = pair_round(players, round_number=6, seed=0)
    assert {frozenset({1, 6}), frozenset({2, 5}), frozenset({3, 4})} <= pair_sets(result)
    assert result.stats.pair_downs == 0


@pytest.mark.parametrize("below", [100, 600])  # 600: more players than the whole-round matching limit
def test_it_needs_extra_pair_downs_deep_in_a_large_constrained_event_without_giving_up(below: int):
    # A 5-point group of 41 players in which everyone already played everyone except one player, who
    # played nobody there: no pairing inside the group exists beyond that player's single pair, so many
    # players must float down. The old bounded search gave up here.
    group = list(range(1, 42))
    players = [player(1, 5)]
    players += [player(i, 5, tuple(j for j in group if j not in (1, i))) for i in group[1:]]
    players += [player(i, 2) for i in range(42, 42 + below)]
    players += [player(i, 0) for i in range(42 + below, 101 + below)]
    result = pair_round(players, round_number=9, seed=12)
    by_id = {p.id: p for p in players}
    for pair in result.pairs:
        assert pair.player_b not in by_id[pair.player_a].opponents
    assert result.bye is None
    # 39 of the 41 must float (one pairs with player 1), and the 2-point group then has an odd size.
    assert result.stats.pair_downs == 39 + 1


def test_it_still_refuses_when_a_large_group_has_played_everyone_and_no_one_else_is_left():
    ids = list(range(1, 9))
    players = [player(i, 3 * (i % 2), tuple(j for j in ids if j != i)) for i in ids]
    with pytest.raises(PairingImpossible, match="rematch"):
        pair_round(players, round_number=8, seed=0)


def clique(ids: range, points: int) -> list[PairingPlayer]:
    """Players who have all played each other (the strongest, or the weakest, late in a long event)."""
    return [player(i, points, tuple(j for j in ids if j != i)) for i in ids]


def test_it_solves_a_large_round_stuck_at_its_top_tables_with_a_small_window():
    # The three 12-point players have played each other, so all three must pair down: 3 crossings below
    # them, and the 9-point group then holds an odd 1,003 players, 1 more. The exact matching only needs
    # to see the top of the round, not its 2,004 players.
    players = clique(range(1, 4), 12)
    players += [player(i, 9) for i in range(4, 1004)] + [player(i, 6) for i in range(1004, 2005)]
    result = pair_round(players, round_number=12, seed=5)
    assert result.stats.pair_downs == 3 + 1
    assert 0 < result.stats.window_players < 50
    partners = {pid for pair in result.pairs for pid in (pair.player_a, pair.player_b) if pair.player_a <= 3}
    assert all(4 <= pid < 1004 for pid in partners - {1, 2, 3})


def test_it_solves_trouble_at_the_top_and_at_the_bottom_of_a_round_with_two_small_windows():
    # Three strongest and three weakest players have each played each other: 3 crossings under the top,
    # 1 under the odd 1,003, 3 above the bottom; the middle is paired by the fast search.
    players = clique(range(1, 4), 15) + clique(range(2004, 2007), 0)
    players += [player(i, 9) for i in range(4, 1004)] + [player(i, 6) for i in range(1004, 2004)]
    result = pair_round(players, round_number=15, seed=2)
    assert result.stats.pair_downs == 3 + 1 + 3
    assert 0 < result.stats.window_players < 50
    by_id = {p.id: p for p in players}
    assert all(pair.player_b not in by_id[pair.player_a].opponents for pair in result.pairs)
