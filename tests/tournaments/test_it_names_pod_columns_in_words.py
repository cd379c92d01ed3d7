"""Standings columns are named in words per game and shown rounded for people."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments.reads import selectors

from .factories import make_event

pytestmark = pytest.mark.django_db


def test_each_pod_game_names_its_own_columns(games, organizer):
    vale = make_event(organizer, games["vale"], rounds=1)
    everseal = make_event(organizer, games["everseal"], rounds=1, match_format="pods")
    assert [label for _key, label in selectors.standings_columns(vale)] == [
        "Victory points", "Summoned cards", "Opponents' points",
    ]  # fmt: skip
    assert [key for key, _label in selectors.standings_columns(everseal)] == ["tiebreak", "opp"]
    assert selectors.standings_columns(everseal)[0][1] == "Opponents defeated"
    with translation.override("ru"):
        assert selectors.standings_columns(vale)[0][1] == "Победные очки"


def test_swiss_columns_are_words_too(games, organizer):
    event = make_event(organizer, games["yugioh"], rounds=1)
    assert [label for _k, label in selectors.standings_columns(event)] == [
        "Opponents' match-win %", "Opponents' opponents' match-win %",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("key", "value", "shown"),
    [("opp", 2.3333333, "2.3"), ("tiebreak", 58.0, "58"), ("omw", 0.6666667, "66.7%"), ("gw", 1.0, "100.0%")],
)
def test_values_are_rounded_for_people(key, value, shown):
    assert selectors.tiebreak_for_people(key, value) == shown
