"""Every state a player's My event can be in says truthfully what happens next: registered, checked in,
waitlisted, paired, waiting for the opponent's confirmation, asked to confirm, bye, dropped, late entry, out of
the Swiss before the cut, eliminated in the cut, the cut's champion, finished, and a pod. (The day-2 cut, the
waitlist after the start and Two-Headed Giant have their own files.)"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Match

from .factories import finish_round, make_event

pytestmark = pytest.mark.django_db


def _page(client, event, account) -> str:  # type: ignore[no-untyped-def]
    client.force_login(account)
    return client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()


def _next(page: str) -> str:
    if 'data-testid="next-step"' not in page:
        return page
    return page.split('data-testid="next-step">', 1)[1].split("</p>", 1)[0]


@pytest.fixture
def four(games, organizer, make_user):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["caster"], rounds=2, top_cut=2)
    accounts = [make_user(f"st{i}") for i in range(4)]
    entries = [services.player_register(tournament=event, by=a, user=a) for a in accounts]
    return event, accounts, entries


def test_registered_before_check_in(client, four):
    event, accounts, _ = four
    page = _page(client, event, accounts[0])
    assert "Check-in opens shortly before round 1" in page
    assert "Next: when the organizer pairs round 1, your table and opponent appear here." in page


def test_check_in_open_then_checked_in(client, organizer, four):
    event, accounts, entries = four
    services.checkin_open(tournament=event, by=organizer)
    assert 'data-testid="check-in"' in _page(client, event, accounts[0])
    services.player_check_in(player=entries[0], by=accounts[0])
    page = _page(client, event, accounts[0])
    assert "You are checked in." in page and "Next: when the organizer pairs round 1" in page


def test_waitlisted_before_the_start(client, games, organizer, make_user):
    event = make_event(organizer, games["caster"], players=2, capacity=2, rounds=2)
    late = make_user("late")
    services.player_register(tournament=event, by=late, user=late)
    assert "number 1 in line. If a place frees before the start you move up by yourself" in _page(
        client, event, late
    )


def test_paired_and_playing(client, organizer, four):
    event, accounts, _ = four
    services.round_pair_next(tournament=event, by=organizer)
    assert "Play, then save each game here as soon as it ends" in _next(_page(client, event, accounts[0]))


def test_reported_waits_for_the_opponent_who_is_asked_to_confirm(client, organizer, four):
    event, accounts, entries = four
    services.round_pair_next(tournament=event, by=organizer)
    match = Match.objects.get(seats__player=entries[0])
    services.match_report_result(match=match, by=accounts[0], wins=[2, 0])
    assert "Once the result is confirmed, wait for the next round." in _next(
        _page(client, event, accounts[0])
    )
    opponent = next(s.player.user for s in match.seats.all() if s.player_id != entries[0].pk)
    assert 'data-testid="confirm"' in _page(client, event, opponent)


def test_a_bye(client, games, organizer, make_user):
    event = make_event(organizer, games["caster"], rounds=2)
    accounts = [make_user(f"bye{i}") for i in range(3)]
    for account in accounts:
        services.player_register(tournament=event, by=account, user=account)
    round_ = services.round_pair_next(tournament=event, by=organizer)
    byed = round_.matches.get(bye=True).seats.get().player.user
    page = _page(client, event, byed)
    assert "You have a bye this round (a win)." in page
    assert "The next round is paired when every table has finished" in _next(page)


def test_dropped_after_a_round(client, organizer, four):
    event, accounts, entries = four
    services.round_pair_next(tournament=event, by=organizer)
    finish_round(event, organizer)
    services.player_drop(player=entries[0], by=accounts[0])
    services.round_pair_next(tournament=event, by=organizer)
    page = _page(client, event, accounts[0])
    assert "You have dropped: you are not paired again" in _next(page)
    assert "Wait for the next round" not in page


def test_a_late_entry_waits_for_their_first_round(client, games, organizer, make_user):
    event = make_event(organizer, games["caster"], players=4, rounds=3, late_entry_until_round=2)
    services.tournament_start(tournament=event, by=organizer)
    if not event.round_set.exists():
        services.round_pair_next(tournament=event, by=organizer)
    late = make_user("lately")
    services.player_add_late(tournament=event, by=organizer, user=late)
    assert "You entered late: you play from round 2" in _next(_page(client, event, late))


def test_out_of_the_swiss_eliminated_and_champion_in_the_cut_then_finished(client, organizer, four):
    event, _accounts, entries = four
    for _ in range(2):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer)
    final = services.topcut_start(tournament=event, by=organizer).matches.get()
    finalists = {s.player_id for s in final.seats.all()}
    outside = next(e for e in entries if e.pk not in finalists)
    assert "did not make the top 2" in _page(client, event, outside.user)
    services.match_report_result(match=final, by=organizer, wins=[2, 0])
    winner, loser = (s.player.user for s in final.seats.order_by("seat"))
    assert "You won the final!" in _next(_page(client, event, winner))
    assert "You are out of the top cut." in _next(_page(client, event, loser))
    services.tournament_finish(tournament=event, by=organizer)
    page = _page(client, event, loser)
    assert (
        "The event is over. Thank you for playing!" in _next(page) and "Final standings: you finished" in page
    )


def test_a_pod_player(client, games, organizer, make_user):
    event = make_event(organizer, games["vale"], rounds=1, format_slug="standard")
    accounts = [make_user(f"pod{i}") for i in range(4)]
    for account in accounts:
        services.player_register(tournament=event, by=account, user=account)
    services.round_pair_next(tournament=event, by=organizer)
    page = _page(client, event, accounts[0])
    assert "Your pod" in page and "Play, then save" in _next(page)
