"""Every change a live page shows sends tournament_changed after commit (the pages' ETag counter)."""

from __future__ import annotations

import pytest

from tournaments import services

from .factories import make_event, on_commit_signals

pytestmark = pytest.mark.django_db


def test_each_step_of_an_event_is_announced(
    games, organizer, user, other_user, django_capture_on_commit_callbacks
):
    event = make_event(organizer, games["caster"], rounds=1, top_cut=2)

    def run(action):  # type: ignore[no-untyped-def]
        return on_commit_signals(django_capture_on_commit_callbacks, action)

    assert run(lambda: services.player_register(tournament=event, by=user)) == ["players"]
    services.player_register(tournament=event, by=other_user)
    guest = services.player_register(tournament=event, by=organizer, name="Guest")
    assert run(lambda: services.checkin_open(tournament=event, by=organizer)) == ["check_in"]
    alice = event.players.get(user=user)
    assert run(lambda: services.player_check_in(player=alice, by=user)) == ["check_in"]
    services.player_check_in(player=event.players.get(user=other_user), by=organizer)
    assert run(lambda: services.tournament_start(tournament=event, by=organizer)) == ["start"]
    assert run(lambda: services.player_drop_undo(player=guest, by=organizer)) == ["players"]  # a no-show back
    assert run(lambda: services.player_drop(player=guest, by=organizer)) == ["drop"]
    paired = []
    assert run(lambda: paired.append(services.round_pair_next(tournament=event, by=organizer))) == ["round"]
    round_ = paired[0]
    assert run(lambda: services.round_timer_start(round_=round_, by=organizer)) == ["timer"]
    match = round_.matches.filter(bye=False).get(seats__player=alice)
    bob = match.seats.exclude(player=alice).get().player
    assert run(
        lambda: services.match_save_game(match=match, by=user, number=1, first=alice.pk, winner=alice.pk)
    ) == ["game"]  # the match is still pending: nothing the standings or pairings show changed
    assert run(
        lambda: services.match_save_game(match=match, by=user, number=2, first=bob.pk, winner=alice.pk)
    ) == ["result"]  # the game that decides the match reports it
    match.refresh_from_db()
    assert run(lambda: services.match_dispute(match=match, by=bob.user, reason="no")) == ["result"]
    assert run(
        lambda: services.match_resolve_dispute(match=match, by=organizer, reason="checked the slip")
    ) == ["result"]
    assert run(lambda: services.player_drop(player=bob, by=organizer)) == ["drop"]
    assert run(lambda: services.player_drop_undo(player=bob, by=organizer)) == ["drop"]
    assert run(lambda: services.topcut_start(tournament=event, by=organizer)) == ["top_cut"]
    final = event.round_set.order_by("-number").first().matches.get()
    services.match_report_result(match=final, by=organizer, wins=[2, 0])
    assert run(lambda: services.tournament_finish(tournament=event, by=organizer)) == ["finish"]
