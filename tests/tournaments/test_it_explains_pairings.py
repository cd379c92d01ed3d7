"""Pairings that explain themselves: the round report, the bit-for-bit rerun, and "why this opponent"."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tournaments import services
from tournaments.engine.pairing import pair_down_lower_bound, pair_downs_of
from tournaments.models import Match, MatchSeat
from tournaments.pairings import report as pairing_report

from .factories import finish_round, make_event

pytestmark = pytest.mark.django_db

REPORT_KEYS = {"rematches", "byes", "pair_downs", "pair_downs_lower_bound", "seed", "manual_changes"}


def _random_results(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    return lambda match: rng.choice([[2, 0], [0, 2], [2, 1], [1, 2]])


def test_the_lower_bound_counts_boundaries_with_an_odd_number_of_players_above():
    # 3 players on 6, 2 on 3, 2 on 0: the 6|3 boundary has 3 above (odd), the 3|0 boundary 5 above (odd).
    points = {1: 6, 2: 6, 3: 6, 4: 3, 5: 3, 6: 0, 7: 0}
    assert pair_down_lower_bound(points) == 2
    # The bye to a 0-point player leaves 6 paired: 3 above the first boundary, 5 above the second.
    points[8] = 0
    assert pair_down_lower_bound(points, bye=8) == 2
    # A 6-point player meeting a 0-point one crosses two boundaries.
    assert pair_downs_of(points, [(1, 6), (2, 3), (4, 5), (7, 8)]) == 2


def test_every_round_reports_no_rematch_and_its_pair_downs_at_the_lower_bound(games, organizer, api_client):
    event = make_event(organizer, games["caster"], players=13, rounds=4)
    for number in range(1, 5):
        services.round_pair_next(tournament=event, by=organizer)
        answer = api_client.get(f"/api/tournaments/{event.pk}/rounds/{number}/report/")
        assert answer.status_code == 200, answer.content
        report = answer.json()
        assert set(report) == REPORT_KEYS
        assert report["rematches"] == []
        assert report["pair_downs"] == report["pair_downs_lower_bound"]
        assert report["seed"] == event.round_set.get(number=number).seed
        assert report["manual_changes"] == []
        (bye,) = report["byes"]
        assert bye["reason"] in {"lowest_without_bye", "lower_players_had_byes", "lower_bye_forces_rematch"}
        finish_round(event, organizer, outcome=_random_results(number))


def test_the_bye_report_says_the_lowest_ranked_player_without_a_bye_got_it(games, organizer, api_client):
    event = make_event(organizer, games["caster"], players=5, rounds=3)
    services.round_pair_next(tournament=event, by=organizer)
    report = api_client.get(f"/api/tournaments/{event.pk}/rounds/1/report/").json()
    assert report["byes"][0]["reason"] == "lowest_without_bye"
    assert report["byes"][0]["points"] == 0


def test_a_rematch_made_by_hand_shows_in_the_report(games, organizer, api_client):
    event = make_event(organizer, games["caster"], players=4, rounds=3)
    services.round_pair_next(tournament=event, by=organizer)
    first = {
        frozenset(m.seats.values_list("player_id", flat=True))
        for m in event.round_set.get(number=1).matches.all()
    }
    finish_round(event, organizer)
    round2 = services.round_pair_next(tournament=event, by=organizer)
    # Re-seat round 2 as round 1 (what a manual change could do): the report must name the rematch.
    pairs = [sorted(p) for p in first]
    MatchSeat.objects.filter(match__round=round2).delete()
    for match, pair in zip(round2.matches.order_by("table"), pairs, strict=True):
        for seat, pid in enumerate(pair):
            MatchSeat.objects.create(match=match, seat=seat, player_id=pid)
    report = api_client.get(f"/api/tournaments/{event.pk}/rounds/2/report/").json()
    assert len(report["rematches"]) == 2
    assert {p["player"] for p in report["rematches"][0]["players"]} in [set(p) for p in pairs]
    # And the rerun from the stored seed no longer matches what the round holds.
    assert not pairing_report.round_rerun(round2).identical


def test_the_command_reruns_every_round_from_its_seed_bit_for_bit(games, organizer):
    event = make_event(organizer, games["caster"], players=11, rounds=3)
    for number in range(1, 4):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer, outcome=_random_results(10 + number))
    out = StringIO()
    call_command("pairing_verify", str(event.pk), stdout=out)
    assert out.getvalue().count("identical") == 3
    # A result corrected after the next round was paired changes that round's inputs: the command says so.
    match = Match.objects.filter(round__tournament=event, round__number=1, bye=False).first()
    seats = list(match.seats.order_by("seat"))
    seats[0].wins, seats[1].wins = seats[1].wins, seats[0].wins
    MatchSeat.objects.bulk_update(seats, ["wins"])
    with pytest.raises(CommandError, match="differ"):
        call_command("pairing_verify", str(event.pk), stdout=StringIO())


def test_a_top_cut_round_has_no_pairing_report_and_says_why(games, organizer, api_client):
    event = make_event(organizer, games["caster"], players=4, rounds=1, top_cut=2)
    services.round_pair_next(tournament=event, by=organizer)
    finish_round(event, organizer)
    services.topcut_start(tournament=event, by=organizer)
    answer = api_client.get(f"/api/tournaments/{event.pk}/rounds/2/report/")
    assert answer.status_code == 404
    assert "Swiss" in str(answer.json())
    assert api_client.get(f"/api/tournaments/{event.pk}/rounds/x/report/").status_code == 404
    assert api_client.get(f"/api/tournaments/{event.pk}/rounds/9/report/").status_code == 404


def test_why_this_opponent_is_one_line_per_player(games, organizer):
    event = make_event(organizer, games["caster"], players=5, rounds=3)
    services.round_pair_next(tournament=event, by=organizer)
    finish_round(event, organizer)
    round2 = services.round_pair_next(tournament=event, by=organizer)
    reasons = pairing_report.opponent_reasons(round2)
    assert set(reasons) == set(event.players.values_list("id", flat=True))
    codes = {code for code, _params in reasons.values()}
    assert codes <= {"same_points", "paired_down", "paired_up", "lowest_without_bye", "lower_players_had_byes",
                     "lower_bye_forces_rematch"}  # fmt: skip
    # 5 players after round 1: two on 3 points, two on 0 and the bye's receiver on 3: someone is paired down.
    assert "paired_down" in codes and "paired_up" in codes
    # My event's cheap reading of the two players' points agrees with the report's whole-event one.
    facts = pairing_report._facts(round2)
    for match in round2.matches.filter(bye=False):
        ids = list(match.seats.values_list("player_id", flat=True))
        assert pairing_report.pairing_points_of(round2, event, ids) == {pid: facts.points[pid] for pid in ids}


def test_the_report_page_and_my_event_say_why(games, organizer, make_user, client):
    event = make_event(organizer, games["caster"], players=4, rounds=3)
    ann = make_user("ann")
    services.player_register(tournament=event, by=ann, user=ann)
    services.round_pair_next(tournament=event, by=organizer)
    page = client.get(f"/tournaments/{event.pk}/rounds/1/report/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "lowest-ranked player without a bye" in text and str(event.round_set.get(number=1).seed) in text
    assert client.get(f"/tournaments/{event.pk}/rounds/7/report/").status_code == 404
    client.force_login(ann)
    mine = client.get(f"/tournaments/{event.pk}/me/").content.decode()
    assert 'data-testid="why-opponent"' in mine
    assert "same points (0)" in mine or "lowest-ranked player without a bye" in mine
