"""Who may report, confirm, dispute and correct results; every change leaves an audit row."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from tournaments import services
from tournaments.models import Match, ResultChange

from .factories import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(games, organizer, user, other_user, make_user):  # type: ignore[no-untyped-def]
    """A 4-player event where alice and bob meet in round 1 (seeded so they share table 1)."""
    event = make_event(organizer, games["caster"], rounds=3)
    alice = services.player_register(tournament=event, by=user)
    bob = services.player_register(tournament=event, by=other_user)
    carol_user = make_user("carol")
    carol = services.player_register(tournament=event, by=carol_user)
    dave = services.player_register(tournament=event, by=make_user("dave"))
    round_ = services.round_pair_next(tournament=event, by=organizer)
    mine = round_.matches.get(seats__player=alice)
    opponent = mine.seats.exclude(player=alice).get().player
    other = round_.matches.exclude(pk=mine.pk).get()
    return {"event": event, "match": mine, "other": other, "alice": alice, "opponent": opponent,
            "bob": bob, "carol": carol, "dave": dave}  # fmt: skip


def _opponent_user(duel):  # type: ignore[no-untyped-def]
    return duel["opponent"].user


def test_a_player_reports_and_the_opponent_confirms(duel, user):
    match = duel["match"]
    services.match_report_result(match=match, by=user, wins=[2, 0])
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    opponent_user = _opponent_user(duel)
    with pytest.raises(PermissionDenied):
        services.match_confirm_result(match=match, by=user)  # not your own report
    services.match_confirm_result(match=match, by=opponent_user)
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert list(match.result_changes.values_list("action", flat=True)) == ["report", "confirm"]


def test_a_player_cannot_report_someone_elses_match(duel, user):
    with pytest.raises(PermissionDenied):
        services.match_report_result(match=duel["other"], by=user, wins=[2, 0])
    assert not ResultChange.objects.exists()


def test_only_organizers_correct_results_and_the_change_is_recorded(duel, user, organizer):
    match = duel["match"]
    services.match_report_result(match=match, by=user, wins=[2, 0])
    with pytest.raises(PermissionDenied):
        services.match_correct_result(match=match, by=user, wins=[2, 1])
    services.match_correct_result(match=match, by=organizer, wins=[1, 2], reason="slip was wrong")
    change = match.result_changes.order_by("-id").first()
    assert change.action == "correct" and change.changed_by == organizer
    assert change.old["wins"] == [2, 0] and change.new["wins"] == [1, 2]
    assert change.reason == "slip was wrong"
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL


def test_a_dispute_is_visible_to_the_organizer(duel, user):
    from tournaments.reads.selectors import attention_matches

    match = duel["match"]
    services.match_report_result(match=match, by=user, wins=[2, 0])
    opponent_user = _opponent_user(duel)
    services.match_dispute(match=match, by=opponent_user, reason="I won game 2")
    assert match in attention_matches(duel["event"])
    assert match.result_changes.order_by("-id").first().reason == "I won game 2"


def test_a_player_cannot_change_a_confirmed_result(duel, user, organizer):
    match = duel["match"]
    services.match_report_result(match=match, by=organizer, wins=[2, 0])
    with pytest.raises(ValidationError):
        services.match_report_result(match=match, by=user, wins=[0, 2])


def test_a_round_can_be_re_paired_only_while_it_has_no_results(duel, organizer):
    event = duel["event"]
    round_ = event.round_set.get(number=1)
    old_seed = round_.seed
    services.round_repair(round_=round_, by=organizer, seed=old_seed + 1)
    round_.refresh_from_db()
    assert round_.seed == old_seed + 1 and round_.matches.count() == 2
    services.match_report_result(match=round_.matches.first(), by=organizer, wins=[2, 0])
    with pytest.raises(ValidationError, match="already has results"):
        services.round_repair(round_=round_, by=organizer)


def test_a_player_cannot_pair_or_re_pair(duel, user):
    with pytest.raises(PermissionDenied):
        services.round_pair_next(tournament=duel["event"], by=user)
    with pytest.raises(PermissionDenied):
        services.round_repair(round_=duel["event"].round_set.get(number=1), by=user)


def test_the_next_round_waits_for_confirmed_results(duel, organizer, user):
    services.match_report_result(match=duel["match"], by=user, wins=[2, 0])
    services.match_report_result(match=duel["other"], by=organizer, wins=[2, 0])
    with pytest.raises(ValidationError, match="confirmed"):
        services.round_pair_next(tournament=duel["event"], by=organizer)


def test_a_co_organizer_may_enter_results(duel, make_user):
    helper = make_user("helper")
    event = duel["event"]
    services.tournament_update(tournament=event, by=event.created_by, co_organizers=[helper])
    services.match_report_result(match=duel["other"], by=helper, wins=[2, 1])
    duel["other"].refresh_from_db()
    assert duel["other"].status == Match.Status.FINAL


def test_api_audit_trail_lists_changes(duel, organizer, api_client_for, user):
    match = duel["match"]
    services.match_report_result(match=match, by=user, wins=[2, 0])
    services.match_correct_result(match=match, by=organizer, wins=[2, 1])
    body = api_client_for(organizer).get(f"/api/matches/{match.pk}/audit/").json()
    assert [c["action"] for c in body["changes"]] == ["report", "correct"]
    assert body["changes"][1]["old"]["wins"] == [2, 0] and body["changes"][1]["changed_by"] == "olga"
    outsider = next(duel[k].user for k in ("bob", "carol", "dave") if duel[k] != duel["opponent"])
    assert api_client_for(outsider).get(f"/api/matches/{match.pk}/audit/").status_code == 403
