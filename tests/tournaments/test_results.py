"""Match results: games → match result, byes 2-0, intentional draws 0-0-3, who goes first per game."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournaments import services
from tournaments.models import Match
from tournaments.reads.selectors import standings_compute

from .factories import make_event

pytestmark = pytest.mark.django_db


def _round1(organizer, game, players=4, **kw):  # type: ignore[no-untyped-def]
    event = make_event(organizer, game, players=players, rounds=3, **kw)
    round_ = services.round_pair_next(tournament=event, by=organizer)
    return event, list(round_.matches.order_by("table"))


def _ids(match):  # type: ignore[no-untyped-def]
    return [s.player_id for s in match.seats.order_by("seat")]


def test_it_turns_games_into_the_match_result(games, organizer):
    _event, (match, _other) = _round1(organizer, games["caster"])
    a, b = _ids(match)
    services.match_report_result(
        match=match, by=organizer,
        games=[{"winner": a, "first": a}, {"winner": None, "first": b}, {"winner": a, "first": a}],
    )  # fmt: skip
    match.refresh_from_db()
    assert [s.wins for s in match.seats.order_by("seat")] == [2, 0] and match.draws == 1
    assert [(g.winner_seat, g.first_seat) for g in match.games.all()] == [(0, 0), (None, 1), (0, 0)]


def test_a_bye_counts_as_a_two_nil_win(games, organizer):
    event, matches = _round1(organizer, games["caster"], players=3)
    bye = next(m for m in matches if m.bye)
    assert bye.status == Match.Status.FINAL
    row = next(r for r in standings_compute(tournament=event) if r["player"] == _ids(bye)[0])
    assert row["points"] == 3 and row["wins"] == 1
    assert row["tiebreakers"]["gw"] == pytest.approx(1.0)
    with pytest.raises(ValidationError, match="bye"):
        services.match_report_result(match=bye, by=organizer, wins=[0, 2])


def test_an_intentional_draw_is_zero_zero_three(games, organizer):
    event, (match, _other) = _round1(organizer, games["caster"])
    services.match_report_result(match=match, by=organizer, wins=[0, 0], draws=3)
    rows = {r["player"]: r for r in standings_compute(tournament=event)}
    a, _b = _ids(match)
    assert rows[a]["points"] == 1 and rows[a]["draws"] == 1
    assert rows[a]["tiebreakers"]["gw"] == pytest.approx(1 / 3)


@pytest.mark.parametrize("wins", [[3, 0], [2, 2], [0, 0]])
def test_it_refuses_impossible_best_of_three_scores(games, organizer, wins):
    _event, (match, _other) = _round1(organizer, games["caster"])
    with pytest.raises(ValidationError):
        services.match_report_result(match=match, by=organizer, wins=wins)
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING


def test_best_of_one_allows_one_game_win(games, organizer):
    _event, (match, _other) = _round1(organizer, games["caster"], match_format="bo1")
    with pytest.raises(ValidationError):
        services.match_report_result(match=match, by=organizer, wins=[2, 0])
    services.match_report_result(match=match, by=organizer, wins=[1, 0])


def test_no_game_after_the_match_is_decided(games, organizer):
    _event, (match, _other) = _round1(organizer, games["caster"])
    a, b = _ids(match)
    with pytest.raises(ValidationError, match="already decided"):
        services.match_report_result(
            match=match, by=organizer,
            games=[{"winner": a, "first": a}, {"winner": a, "first": b}, {"winner": b, "first": b}],
        )  # fmt: skip


def test_twin_deck_the_loser_of_the_previous_game_goes_first(games, organizer):
    _event, (match, _other) = _round1(organizer, games["twindeck"])
    a, b = _ids(match)
    # Game 2: b lost game 1, so b must go first; a going first breaks rule 2.3.
    with pytest.raises(ValidationError, match="Game 2"):
        services.match_report_result(
            match=match, by=organizer, games=[{"winner": a, "first": a}, {"winner": a, "first": a}]
        )
    services.match_report_result(
        match=match, by=organizer, games=[{"winner": a, "first": a}, {"winner": a, "first": b}]
    )


def test_twin_deck_after_a_drawn_game_the_toss_decides_again(games, organizer):
    _event, (match, _other) = _round1(organizer, games["twindeck"])
    a, b = _ids(match)
    services.match_report_result(
        match=match, by=organizer,
        games=[{"winner": None, "first": a}, {"winner": a, "first": a}, {"winner": a, "first": b}],
    )  # fmt: skip


def test_yugioh_the_loser_chooses_so_either_may_go_first(games, organizer):
    _event, (match, _other) = _round1(organizer, games["yugioh"], format_slug="advanced")
    a, b = _ids(match)
    # The loser of duel 1 (b) may choose to go second: a going first again is legal.
    services.match_report_result(
        match=match, by=organizer,
        games=[{"winner": a, "first": a}, {"winner": b, "first": a}, {"winner": a, "first": a}],
    )  # fmt: skip


def test_it_needs_who_went_first(games, organizer):
    _event, (match, _other) = _round1(organizer, games["caster"])
    a, _b = _ids(match)
    with pytest.raises(ValidationError, match="first"):
        services.match_report_result(match=match, by=organizer, games=[{"winner": a}])
