"""Top cut: single elimination seeded from the standings, the higher seed chooses, byes for top seeds."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournaments import services
from tournaments.models import Round, Tournament
from tournaments.reads.selectors import standings_compute, tournament_champion

from .factories import finish_round, make_event

pytestmark = pytest.mark.django_db


def _swiss_done(organizer, game, players, top_cut, rounds=3):  # type: ignore[no-untyped-def]
    event = make_event(organizer, game, players=players, rounds=rounds, top_cut=top_cut)
    for _ in range(rounds):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer)
    return event


def test_top_eight_is_seeded_one_eight_four_five_two_seven_three_six(games, organizer):
    event = _swiss_done(organizer, games["caster"], 16, 8)
    rank = {r["player"]: r["rank"] for r in standings_compute(tournament=event)}
    cut = services.topcut_start(tournament=event, by=organizer)
    assert cut.kind == Round.Kind.TOP_CUT
    pairs = [[rank[s.player_id] for s in m.seats.order_by("seat")] for m in cut.matches.order_by("table")]
    assert pairs == [[1, 8], [4, 5], [2, 7], [3, 6]]
    assert all(m.chooser_id == m.seats.get(seat=0).player_id for m in cut.matches.all())


def test_the_bracket_advances_to_a_champion(games, organizer):
    event = _swiss_done(organizer, games["caster"], 8, 4)
    services.topcut_start(tournament=event, by=organizer)
    finish_round(event, organizer, outcome=lambda m: [0, 2])  # lower seeds win the semis
    final = services.topcut_advance(tournament=event, by=organizer)
    assert final.matches.count() == 1
    finish_round(event, organizer)
    # The end is explicit: no round follows the final, the organizer finishes the event.
    with pytest.raises(ValidationError, match="finish the event"):
        services.topcut_advance(tournament=event, by=organizer)
    services.tournament_finish(tournament=event, by=organizer)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    assert tournament_champion(event) is not None


def test_a_cut_match_cannot_end_in_a_draw(games, organizer):
    event = _swiss_done(organizer, games["caster"], 8, 4)
    cut = services.topcut_start(tournament=event, by=organizer)
    with pytest.raises(ValidationError, match="draw"):
        services.match_report_result(match=cut.matches.first(), by=organizer, wins=[1, 1], draws=1)


def test_a_non_power_of_two_cut_gives_byes_to_the_top_seeds(games, organizer):
    event = _swiss_done(organizer, games["caster"], 8, 4)
    # Two of the top four drop before the cut: only three players... use a cut of 4 with 3 eligible players.
    rows = standings_compute(tournament=event)
    for row in rows[3:]:
        services.player_drop(player=event.players.get(pk=row["player"]), by=organizer)
    cut = services.topcut_start(tournament=event, by=organizer)
    byes = list(cut.matches.filter(bye=True))
    assert len(byes) == 1 and byes[0].seats.get().player_id == rows[0]["player"]


def test_the_cut_waits_for_the_last_swiss_round(games, organizer):
    event = make_event(organizer, games["caster"], players=8, rounds=3, top_cut=4)
    services.round_pair_next(tournament=event, by=organizer)
    with pytest.raises(ValidationError):
        services.topcut_start(tournament=event, by=organizer)
