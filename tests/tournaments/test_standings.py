"""Standings worked examples; every expected fraction is computed by hand in the comments."""

from __future__ import annotations

import pytest

from tournaments.engine.standings import MatchRecord, StandingPlayer, compute_standings

pytestmark: list[pytest.MarkDecorator] = []


def duel(round_number: int, a: int, b: int, wins_a: int, wins_b: int, draws: int = 0) -> MatchRecord:
    return MatchRecord(round_number, (a, b), (wins_a, wins_b), draws)


def bye(round_number: int, pid: int) -> MatchRecord:
    return MatchRecord(round_number, (pid,), is_bye=True)


def rows_by_id(rows):
    return {row.player_id: row for row in rows}


# Five players, two rounds, with byes, an intentional draw and a drop (player 2 after round 2):
#   R1: 1 beats 2 2-0, 3 beats 4 2-1, 5 bye.   R2: 1-3 intentional draw, 5 beats 2 2-1, 4 bye.
FIVE = [StandingPlayer(i, f"P{i}", dropped=(i == 2)) for i in range(1, 6)]
FIVE_MATCHES = [
    duel(1, 1, 2, 2, 0),
    duel(1, 3, 4, 2, 1),
    bye(1, 5),
    MatchRecord(2, (1, 3), intentional_draw=True),
    duel(2, 5, 2, 2, 1),
    bye(2, 4),
]


def test_it_ranks_the_mtg_example_with_byes_drops_and_an_intentional_draw():
    rows = compute_standings(FIVE, FIVE_MATCHES, "mtg")
    # Points: 5 = 3+3, 1 = 3+1, 3 = 3+1, 4 = 0+3, 2 = 0. 1 and 3 tie; OMW decides (3 has 7/12 > 1/2).
    assert [row.player_id for row in rows] == [5, 3, 1, 4, 2]
    assert [row.rank for row in rows] == [1, 2, 3, 4, 5]
    by_id = rows_by_id(rows)
    assert [(by_id[i].points, by_id[i].wins, by_id[i].losses, by_id[i].draws) for i in range(1, 6)] == [
        (4, 1, 0, 1),
        (0, 0, 2, 0),
        (4, 1, 0, 1),
        (3, 1, 1, 0),
        (6, 2, 0, 0),
    ]
    assert by_id[2].dropped and not by_id[1].dropped
    # MW%: 1 = 4/6, 2 = 0 -> 1/3 (floor), 3 = 4/6, 4 = 3/6, 5 = 6/6.
    # GW%: 1 = (6 + 3) / (3 * 5) = 3/5 (the ID is 0-0-3: 3 drawn games, 1 point each),
    #      2 = 3/15 -> 1/3, 3 = (6 + 3) / 18 = 1/2, 4 = (3 + 6) / 15 = 3/5 (bye = 2-0), 5 = 12/15 = 4/5.
    expected = {
        1: {"omw": (1 / 3 + 2 / 3) / 2, "gw": 3 / 5, "ogw": (1 / 3 + 1 / 2) / 2},
        2: {"omw": (2 / 3 + 1) / 2, "gw": 1 / 3, "ogw": (3 / 5 + 4 / 5) / 2},
        3: {"omw": (1 / 2 + 2 / 3) / 2, "gw": 1 / 2, "ogw": (3 / 5 + 3 / 5) / 2},
        4: {"omw": 2 / 3, "gw": 3 / 5, "ogw": 1 / 2},
        5: {"omw": 1 / 3, "gw": 4 / 5, "ogw": 1 / 3},
    }
    for pid, keys in expected.items():
        assert by_id[pid].tiebreakers == pytest.approx(keys)


def test_it_breaks_mtg_ties_by_game_win_then_opponents_game_win():
    players = [StandingPlayer(i) for i in (1, 2, 3, 4)]
    rows = compute_standings(players, [duel(1, 1, 2, 2, 0), duel(1, 3, 4, 2, 1)], "mtg")
    # 1 and 3: OMW both 1/3 (floored 0/3); GW 6/6 = 1 beats 6/9 = 2/3.
    # 2 and 4: OMW both 1; GW 0 -> 1/3 and 3/9 = 1/3 tie; OGW 1 beats 2/3.
    assert [row.player_id for row in rows] == [1, 3, 2, 4]
    assert rows[1].tiebreakers == pytest.approx({"omw": 1 / 3, "gw": 2 / 3, "ogw": 1 / 3})
    assert rows[3].tiebreakers == pytest.approx({"omw": 1.0, "gw": 1 / 3, "ogw": 2 / 3})


def test_it_orders_players_equal_in_every_key_by_id_with_sequential_ranks():
    players = [StandingPlayer(7), StandingPlayer(3)]
    rows = compute_standings(players, [duel(1, 7, 3, 1, 1, draws=1)], "mtg")
    # A 1-1-1 draw: 1 point each, GW = (3 + 1) / 9 = 4/9, MW = 1/3.
    assert [(row.rank, row.player_id, row.points, row.draws) for row in rows] == [(1, 3, 1, 1), (2, 7, 1, 1)]
    assert rows[0].tiebreakers == pytest.approx({"omw": 1 / 3, "gw": 4 / 9, "ogw": 4 / 9})


def test_it_counts_a_missed_round_as_a_match_loss_without_opponent():
    players = [StandingPlayer(1), StandingPlayer(2), StandingPlayer(3)]
    matches = [duel(1, 1, 2, 2, 0), MatchRecord(1, (3,), missed=True), duel(2, 3, 2, 2, 0), bye(2, 1)]
    by_id = rows_by_id(compute_standings(players, matches, "mtg"))
    # Late entry 3: loss (0-2) then a 2-0 win: MW 3/6, GW 6/12; only opponent is 2 (MW 0 -> 1/3).
    assert (by_id[3].points, by_id[3].wins, by_id[3].losses) == (3, 1, 1)
    assert by_id[3].tiebreakers == pytest.approx({"omw": 1 / 3, "gw": 1 / 2, "ogw": 1 / 3})


def test_it_ranks_the_yugioh_example_without_a_floor():
    rows = compute_standings(FIVE, FIVE_MATCHES, "yugioh")
    # MW% unfloored: 1 = 2/3, 2 = 0, 3 = 2/3, 4 = 1/2, 5 = 1.
    # omw: 1 = (0 + 2/3)/2 = 1/3, 2 = (2/3 + 1)/2 = 5/6, 3 = (1/2 + 2/3)/2 = 7/12, 4 = 2/3, 5 = 0.
    # oomw: 1 = (5/6 + 7/12)/2 = 17/24, 2 = (1/3 + 0)/2 = 1/6, 3 = (2/3 + 1/3)/2 = 1/2, 4 = 7/12, 5 = 5/6.
    assert [row.player_id for row in rows] == [5, 3, 1, 4, 2]
    by_id = rows_by_id(rows)
    expected = {
        1: (1 / 3, 17 / 24),
        2: (5 / 6, 1 / 6),
        3: (7 / 12, 1 / 2),
        4: (2 / 3, 7 / 12),
        5: (0.0, 5 / 6),
    }
    for pid, (omw, oomw) in expected.items():
        assert by_id[pid].tiebreakers == pytest.approx({"omw": omw, "oomw": oomw})


def test_it_uses_oomw_when_yugioh_points_and_omw_tie():
    players = [StandingPlayer(i) for i in (1, 2, 3, 4, 5, 6)]
    matches = [duel(1, 1, 2, 2, 0), duel(1, 3, 4, 2, 0), duel(1, 5, 6, 2, 0), duel(2, 1, 3, 2, 0)]
    matches += [duel(2, 2, 5, 2, 0), duel(2, 4, 6, 2, 0)]
    rows = compute_standings(players, matches, "yugioh")
    # MW: 1 = 1, 2 = 1/2, 3 = 1/2, 4 = 1/2, 5 = 1/2, 6 = 0.
    # 3 (opps 4, 1) omw 3/4; 5 (opps 6, 2) omw 1/4; 2 (opps 1, 5) omw 3/4; 4 (opps 3, 6) omw 1/4.
    # 2 vs 3 tie on omw: oomw 2 = (omw1 + omw5)/2 = (1/2 + 1/4)/2 = 3/8, 3 = (omw4 + omw1)/2 = 3/8 -> id.
    # 4 vs 5 tie on omw: oomw 4 = (omw3 + omw6)/2 = (3/4 + 1/2)/2 = 5/8, 5 = (omw6 + omw2)/2 = 5/8 -> id.
    assert [row.player_id for row in rows] == [1, 2, 3, 4, 5, 6]
    assert rows_by_id(rows)[4].tiebreakers == pytest.approx({"omw": 1 / 4, "oomw": 5 / 8})


def test_it_ranks_the_pokemon_example_excluding_byes_from_win_rates():
    rows = compute_standings(FIVE, FIVE_MATCHES, "pokemon")
    # Win%: 1 = 1 win / 2 = 1/2, 2 = 0 -> 1/4, 3 = 1/2, 4 = 0 of 1 (bye excluded) -> 1/4, 5 = 1/1 = 1.
    # owp: 1 = (1/4 + 1/2)/2 = 3/8, 2 = (1/2 + 1)/2 = 3/4, 3 = (1/4 + 1/2)/2 = 3/8, 4 = 1/2, 5 = 1/4.
    # oowp: 1 = (3/4 + 3/8)/2 = 9/16, 3 = (1/2 + 3/8)/2 = 7/16 -> 1 ranks above 3.
    assert [row.player_id for row in rows] == [5, 1, 3, 4, 2]
    by_id = rows_by_id(rows)
    assert by_id[1].tiebreakers == pytest.approx({"owp": 3 / 8, "oowp": 9 / 16})
    assert by_id[3].tiebreakers == pytest.approx({"owp": 3 / 8, "oowp": 7 / 16})
    assert by_id[2].tiebreakers == pytest.approx({"owp": 3 / 4, "oowp": (3 / 8 + 1 / 4) / 2})


def test_it_caps_a_dropped_pokemon_player_win_rate_at_75_percent():
    players = [StandingPlayer(1, dropped=True), StandingPlayer(2), StandingPlayer(3), StandingPlayer(4)]
    rows = rows_by_id(compute_standings(players, [duel(1, 1, 2, 2, 0), duel(1, 3, 4, 2, 0)], "pokemon"))
    # 1 won everything but dropped: 1 -> 3/4; 3 won everything and stayed: 1.
    assert rows[2].tiebreakers["owp"] == pytest.approx(3 / 4)
    assert rows[4].tiebreakers["owp"] == pytest.approx(1.0)
    assert rows[1].tiebreakers["owp"] == pytest.approx(1 / 4)


def pod(round_number: int, places: dict[int, int], values: dict[int, tuple[int, ...]]) -> MatchRecord:
    ids = tuple(places)
    return MatchRecord(
        round_number,
        ids,
        places=tuple(places[i] for i in ids),
        tiebreak_values=tuple(values[i] for i in ids),
    )


R1_POD = pod(1, {1: 1, 2: 2, 3: 2, 4: 4}, {1: (10, 5), 2: (7, 3), 3: (7, 3), 4: (2, 1)})


def test_it_scores_pods_by_players_beaten_and_breaks_ties_by_opponents_strength():
    players = [StandingPlayer(i) for i in (1, 2, 3, 4)]
    rows = compute_standings(players, [R1_POD], "pods")
    # Points on the 4-pod scale 3/2/1/0: 1 -> 3, 2 and 3 share 2nd and each score a 2nd place -> 2, 4 -> 0.
    # 2 and 3 tie on VP 7 and summoned 3; opp: 2 faced 1, 3, 4 = (3+2+0)/3 = 5/3, 3 faced 1, 2, 4 = 5/3 too,
    # so the id decides.
    assert [(row.player_id, row.points) for row in rows] == [(1, 3), (2, 2), (3, 2), (4, 0)]
    assert rows[1].tiebreakers == pytest.approx({"tiebreak": 7, "tiebreak2": 3, "opp": 5 / 3})
    assert (rows[0].wins, rows[1].losses) == (1, 1)


def test_it_breaks_pod_ties_by_victory_points_before_opponents():
    players = [StandingPlayer(i) for i in (1, 2, 3, 4)]
    matches = [pod(1, {1: 1, 2: 2, 3: 2, 4: 4}, {1: (10, 5), 2: (7, 3), 3: (8, 0), 4: (2, 1)})]
    assert [row.player_id for row in compute_standings(players, matches, "pods")] == [1, 3, 2, 4]


def test_it_totals_pod_events_over_rounds_with_shared_first_places():
    players = [StandingPlayer(i, dropped=(i == 4)) for i in (1, 2, 3, 4)]
    r2 = pod(2, {1: 1, 2: 1, 3: 3}, {1: (8, 2), 2: (8, 2), 3: (4, 4)})
    by_id = rows_by_id(compute_standings(players, [R1_POD, r2], "pods"))
    # R2 (a 3-pod on the event's 4-pod scale): 1 and 2 share 1st and score a 1st place each (3, more than a
    # lone 2nd ever gets), 3 is 3rd (1). Totals 1: 6, 2: 5, 3: 3, 4: 0.
    # opp of 1: R1 faced 2, 3, 4 (5, 3, 0), R2 faced 2, 3 (5, 3): 16/5. opp of 4: (6 + 5 + 3)/3 = 14/3.
    assert [by_id[i].points for i in (1, 2, 3, 4)] == [6, 5, 3, 0]
    assert (by_id[1].wins, by_id[1].draws, by_id[2].draws, by_id[3].losses) == (1, 1, 1, 2)
    assert by_id[1].tiebreakers == pytest.approx({"tiebreak": 18, "tiebreak2": 7, "opp": 16 / 5})
    assert by_id[4].tiebreakers["opp"] == pytest.approx(14 / 3)


def test_it_rejects_a_match_with_an_unknown_player():
    with pytest.raises(ValueError, match="unknown player"):
        compute_standings([StandingPlayer(1)], [duel(1, 1, 9, 2, 0)], "mtg")
