"""Mending one match: swaps, pairing by hand, byes and losses by hand, fixed tables — each audited."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from tournaments import services
from tournaments.models import Match, MatchSeat, PairingChange
from tournaments.reads import records

from .factories import finish_round, make_event

pytestmark = pytest.mark.django_db


def _tables(round_):
    """{table: sorted player names} of a round."""
    out = {}
    for m in round_.matches.prefetch_related("seats__player"):
        out[m.table] = sorted(s.player.name for s in m.seats.all())
    return out


def _paired(games, organizer, players=8):
    event = make_event(organizer, games["yugioh"], players=players, rounds=3)
    return event, services.round_pair_next(tournament=event, by=organizer)


def _seats(round_):
    return list(MatchSeat.objects.filter(match__round=round_, match__bye=False).select_related("player", "match")
                .order_by("match__table", "seat"))  # fmt: skip


def test_it_swaps_two_players_between_tables_and_audits_it(games, organizer):
    _event, round_ = _paired(games, organizer)
    s = _seats(round_)
    a, b = s[0], s[2]  # table 1 seat 0, table 2 seat 0
    change = services.pairing_swap(round_=round_, by=organizer, player_a=a.player, player_b=b.player)
    tables = _tables(round_)
    assert b.player.name in tables[a.match.table] and a.player.name in tables[b.match.table]
    assert change.kind == "swap" and change.actor == organizer and change.round == round_
    assert change.detail["names"] == [a.player.name, b.player.name]
    assert PairingChange.objects.filter(round=round_).count() == 1


def test_it_refuses_swaps_that_make_no_sense(games, organizer, user):
    _event, round_ = _paired(games, organizer)
    s = _seats(round_)
    with pytest.raises(ValidationError, match="two different players"):
        services.pairing_swap(round_=round_, by=organizer, player_a=s[0].player, player_b=s[0].player)
    with pytest.raises(ValidationError, match="already at the same table"):
        services.pairing_swap(round_=round_, by=organizer, player_a=s[0].player, player_b=s[1].player)
    with pytest.raises(PermissionDenied):
        services.pairing_swap(round_=round_, by=user, player_a=s[0].player, player_b=s[2].player)
    other, _r = _paired(games, organizer, players=4)
    stranger = other.players.first()
    with pytest.raises(ValidationError, match="not in this event"):
        services.pairing_swap(round_=round_, by=organizer, player_a=s[0].player, player_b=stranger)
    services.match_report_result(match=s[4].match, by=organizer, wins=[2, 1])
    with pytest.raises(ValidationError, match="already has results"):
        services.pairing_swap(round_=round_, by=organizer, player_a=s[0].player, player_b=s[2].player)
    assert not PairingChange.objects.exists()


def test_it_pairs_two_players_by_hand_and_their_opponents_meet(games, organizer):
    _event, round_ = _paired(games, organizer)
    s = _seats(round_)
    a, x, b, y = s[0].player, s[1].player, s[2].player, s[3].player
    services.pairing_pair(round_=round_, by=organizer, player_a=a, player_b=b)
    tables = _tables(round_)
    assert sorted([a.name, b.name]) in tables.values() and sorted([x.name, y.name]) in tables.values()
    with pytest.raises(ValidationError, match="already play each other"):
        services.pairing_pair(round_=round_, by=organizer, player_a=a, player_b=b)


def test_a_bye_by_hand_pairs_the_left_opponent_with_the_round_bye(games, organizer):
    event, round_ = _paired(games, organizer, players=7)
    holder = MatchSeat.objects.get(match__round=round_, match__bye=True).player
    s = _seats(round_)
    given, left = s[0].player, s[1].player
    change = services.pairing_bye(round_=round_, by=organizer, player=given)
    byes = set(
        MatchSeat.objects.filter(match__round=round_, match__bye=True).values_list("player__name", flat=True)
    )
    assert byes == {given.name}
    assert sorted([left.name, holder.name]) in _tables(round_).values()
    assert change.detail["opponent_now_plays"] == holder.name
    with pytest.raises(ValidationError, match="already has a bye"):
        services.pairing_bye(round_=round_, by=organizer, player=given)
    # The bye counts as a win in the standings once the round is played.
    finish_round(event, organizer)
    rows = {r.player_id: r for r in records.compute_rows(records.load_history(event), event.tiebreakers)}
    assert rows[given.pk].points == 3


def test_a_match_loss_by_hand_is_a_result_in_the_audit_trail(games, organizer):
    _event, round_ = _paired(games, organizer)
    s = _seats(round_)
    loser, winner = s[0].player, s[1].player
    services.pairing_loss(round_=round_, by=organizer, player=loser, reason="Arrived after the round began")
    match = Match.objects.get(pk=s[0].match_id)
    assert match.status == "final"
    wins = {seat.player_id: seat.wins for seat in match.seats.all()}
    assert wins == {loser.pk: 0, winner.pk: 2}
    assert match.result_changes.get().action == "match_loss"
    assert PairingChange.objects.get(kind="loss").detail["reason"] == "Arrived after the round began"


def test_a_fixed_table_is_kept_now_and_in_later_rounds(games, organizer):
    event, round_ = _paired(games, organizer)
    player = _seats(round_)[0].player
    services.player_fix_table(player=player, by=organizer, table=3)
    seat = MatchSeat.objects.get(match__round=round_, player=player)
    assert seat.match.table == 3
    assert sorted(round_.matches.values_list("table", flat=True)) == [1, 2, 3, 4]
    finish_round(event, organizer)
    round2 = services.round_pair_next(tournament=event, by=organizer)
    assert MatchSeat.objects.get(match__round=round2, player=player).match.table == 3
    other = event.players.exclude(pk=player.pk).first()
    with pytest.raises(ValidationError, match="already kept for"):
        services.player_fix_table(player=other, by=organizer, table=3)
    with pytest.raises(ValidationError, match="from 1 to 10000"):
        services.player_fix_table(player=other, by=organizer, table="-2")
    assert PairingChange.objects.filter(kind="fixed_table").count() == 1


def test_a_draft_round_is_seen_by_the_organizers_only_until_published(
    client, games, organizer, make_user, api_client_for
):
    from tournaments.live.my_event import my_event_pairing, my_event_state

    event = make_event(organizer, games["yugioh"], rounds=3, draft_pairings=True)
    users = [make_user(f"d{i}") for i in range(4)]
    for u in users:
        services.player_register(tournament=event, by=u)
    round_ = services.round_pair_next(tournament=event, by=organizer)
    assert round_.draft
    player = event.players.get(user=users[0])
    assert my_event_pairing(tournament_id=event.pk, player_id=player.pk) is None
    assert my_event_state(tournament_id=event.pk, player_id=player.pk)["round"] is None
    assert api_client_for(users[0]).get(f"/api/tournaments/{event.pk}/rounds/").json()["rounds"] == []
    assert len(api_client_for(organizer).get(f"/api/tournaments/{event.pk}/rounds/").json()["rounds"]) == 1
    client.force_login(users[0])
    assert client.get(f"/tournaments/{event.pk}/rounds/1/").status_code == 404
    assert "has not been paired yet" in client.get(f"/tournaments/{event.pk}/pairings/").content.decode()
    # The organizer mends the draft, then publishes it.
    seats = _seats(round_)
    services.pairing_swap(round_=round_, by=organizer, player_a=seats[0].player, player_b=seats[2].player)
    client.force_login(organizer)
    assert 'data-testid="draft-banner"' in client.get(f"/tournaments/{event.pk}/rounds/1/").content.decode()
    response = api_client_for(organizer).post(f"/api/tournaments/{event.pk}/rounds/1/publish/")
    assert response.status_code == 200 and response.json()["draft"] is False
    assert my_event_pairing(tournament_id=event.pk, player_id=player.pk)["round"].number == 1
    with pytest.raises(ValidationError, match="already published"):
        services.round_publish(round_=round_, by=organizer)
    client.force_login(users[0])
    assert client.get(f"/tournaments/{event.pk}/rounds/1/").status_code == 200


def test_the_pairing_report_lists_each_manual_change_with_who_made_it(games, organizer, api_client_for):
    event, round_ = _paired(games, organizer)
    s = _seats(round_)
    services.pairing_swap(round_=round_, by=organizer, player_a=s[0].player, player_b=s[2].player)
    report = (
        api_client_for(organizer).get(f"/api/tournaments/{event.pk}/rounds/{round_.number}/report/").json()
    )
    [change] = report["manual_changes"]
    assert change["kind"] == "swap" and change["by"] == organizer.username
    assert sorted(change["detail"]["players"]) == sorted([s[0].player.pk, s[2].player.pk])
