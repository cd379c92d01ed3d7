"""Top cut bracket tests; expected brackets written out from the standard seeding."""

from __future__ import annotations

import pytest

from tournaments.engine.standings import StandingRow
from tournaments.engine.topcut import (
    BracketMatch,
    Entrant,
    advance,
    bracket_order,
    entrants_from_standings,
    first_round,
    higher_seed,
)

pytestmark: list[pytest.MarkDecorator] = []


def entrants(n: int) -> list[Entrant]:
    # Player ids are 100 + seed so a mix-up between seeds and ids shows.
    return [Entrant(seed, 100 + seed) for seed in range(1, n + 1)]


def seeds(matches: list[BracketMatch]) -> list[tuple[int, int | None]]:
    return [(m.a.seed, m.b.seed if m.b else None) for m in matches]


def test_it_orders_a_bracket_of_8_as_1_8_4_5_2_7_3_6():
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_it_orders_a_bracket_of_16_so_seeds_1_and_2_meet_only_in_the_final():
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_it_rejects_a_bracket_size_that_is_not_a_power_of_two():
    with pytest.raises(ValueError, match="power of two"):
        bracket_order(6)


def test_it_builds_the_first_round_of_a_top_8():
    assert seeds(first_round(entrants(8))) == [(1, 8), (4, 5), (2, 7), (3, 6)]


def test_it_gives_byes_to_the_top_seeds_when_the_cut_is_not_a_power_of_two():
    matches = first_round(entrants(6))
    assert seeds(matches) == [(1, None), (4, 5), (2, None), (3, 6)]
    assert [m.is_bye for m in matches] == [True, False, True, False]


def test_it_advances_winners_keeping_the_bracket_structure():
    quarterfinals = first_round(entrants(8))
    # Upsets: 5 beats 4 and 7 beats 2.
    semifinals = advance(quarterfinals, {0: 101, 1: 105, 2: 107, 3: 103})
    assert seeds(semifinals) == [(1, 5), (3, 7)]
    final = advance(semifinals, {0: 105, 1: 103})
    assert seeds(final) == [(3, 5)]
    with pytest.raises(ValueError, match="final"):
        advance(final, {0: 103})


def test_it_advances_byes_without_a_reported_winner():
    semifinals = advance(first_round(entrants(6)), {1: 104, 3: 106})
    assert seeds(semifinals) == [(1, 4), (2, 6)]


def test_it_rejects_a_winner_who_did_not_play_the_match():
    with pytest.raises(ValueError, match="did not play"):
        advance(first_round(entrants(4)), {0: 101, 1: 101})


def test_it_lets_the_higher_seed_choose():
    assert higher_seed(Entrant(5, 1), Entrant(3, 2)) == Entrant(3, 2)
    assert first_round(entrants(8))[1].chooser == Entrant(4, 104)


def test_it_seeds_the_cut_from_standings_skipping_dropped_players():
    rows = [
        StandingRow(rank, pid, "", 9 - rank, 0, 0, 0, dropped)
        for rank, pid, dropped in [
            (1, 10, False),
            (2, 20, True),
            (3, 30, False),
            (4, 40, False),
            (5, 50, False),
        ]
    ]
    assert entrants_from_standings(rows, 3) == [Entrant(1, 10), Entrant(2, 30), Entrant(3, 40)]
