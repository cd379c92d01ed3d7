"""First player rules per policy."""

from __future__ import annotations

import pytest

from tournaments.engine.first_player import Action, Decision, GameRecord, next_decision, validate_games

pytestmark: list[pytest.MarkDecorator] = []

PLAYERS = (1, 2)


@pytest.mark.parametrize(
    ("policy", "action"), [("loser_goes_first", Action.GOES_FIRST), ("loser_chooses", Action.CHOOSES)]
)
def test_it_starts_every_match_with_a_toss(policy: str, action: Action):
    assert next_decision(policy, PLAYERS, []) == Decision(toss=True, player=None, action=action)


def test_it_makes_the_loser_go_first_in_the_twin_deck_game():
    decision = next_decision("loser_goes_first", PLAYERS, [GameRecord(winner=1, first_player=1)])
    assert decision == Decision(toss=False, player=2, action=Action.GOES_FIRST)


def test_it_lets_the_loser_choose_under_the_yugioh_rule():
    decision = next_decision("loser_chooses", PLAYERS, [GameRecord(winner=2)])
    assert decision == Decision(toss=False, player=1, action=Action.CHOOSES)


@pytest.mark.parametrize("policy", ["loser_goes_first", "loser_chooses"])
def test_it_tosses_again_after_a_drawn_game(policy: str):
    games = [GameRecord(winner=1), GameRecord(winner=None)]
    assert next_decision(policy, PLAYERS, games).toss


def test_it_accepts_a_consistent_twin_deck_sequence():
    games = [
        GameRecord(winner=1, first_player=2),
        GameRecord(winner=2, first_player=2),
        GameRecord(winner=None, first_player=1),
        GameRecord(winner=1, first_player=2),
    ]
    assert validate_games("loser_goes_first", PLAYERS, games) == []


def test_it_warns_when_the_winner_went_first_next_game_in_the_twin_deck_game():
    games = [GameRecord(winner=1, first_player=2), GameRecord(winner=1, first_player=1)]
    problems = validate_games("loser_goes_first", PLAYERS, games)
    assert [p.game_number for p in problems] == [2]
    assert (problems[0].code, problems[0].params) == ("should_have_gone_first", {"expected": 2, "actual": 1})


def test_it_allows_the_chooser_to_go_second_but_warns_when_the_wrong_player_chose():
    games = [
        GameRecord(winner=1, first_player=1),
        GameRecord(winner=2, first_player=1, chooser=1),
        GameRecord(winner=1, first_player=2, chooser=1),
    ]
    assert [p.game_number for p in validate_games("loser_chooses", PLAYERS, games)] == [2]


def test_it_warns_about_a_player_outside_the_match():
    problems = validate_games("loser_chooses", PLAYERS, [GameRecord(winner=3, first_player=1)])
    assert [p.game_number for p in problems] == [1]
    assert (problems[0].code, problems[0].params) == ("not_a_player", {"role": "winner", "player": 3})


def test_it_rejects_an_unknown_policy():
    with pytest.raises(ValueError):
        next_decision("winner_goes_first", PLAYERS, [])


@pytest.mark.parametrize(
    ("policy", "action"), [("loser_goes_first", Action.GOES_FIRST), ("loser_chooses", Action.CHOOSES)]
)
def test_it_gives_game_one_of_a_seeded_match_to_the_higher_seed(policy: str, action: Action):
    assert next_decision(policy, PLAYERS, [], seeded=2) == Decision(toss=False, player=2, action=action)
    # Only game 1: afterwards the policy's loser rule applies as in the Swiss rounds.
    assert next_decision(policy, PLAYERS, [GameRecord(winner=2)], seeded=2).player == 1


def test_it_warns_when_someone_else_than_the_higher_seed_chose_game_one():
    games = [GameRecord(winner=1, first_player=1, chooser=1)]
    problems = validate_games("loser_chooses", PLAYERS, games, seeded=2)
    assert [(p.code, dict(p.params)) for p in problems] == [
        ("should_have_chosen", {"expected": 2, "actual": 1})
    ]
    assert (
        validate_games("loser_chooses", PLAYERS, [GameRecord(winner=1, first_player=1, chooser=2)], seeded=2)
        == []
    )


def test_it_warns_when_a_chooser_is_reported_where_nobody_chooses():
    problems = validate_games("loser_goes_first", PLAYERS, [GameRecord(winner=1, first_player=1, chooser=1)])
    assert [p.code for p in problems] == ["nobody_chooses"]


def test_it_refuses_a_seed_who_is_not_in_the_match():
    with pytest.raises(ValueError, match="not in this match"):
        next_decision("loser_chooses", PLAYERS, [], seeded=7)
