"""A game saved one by one while its match goes on changes its two players' pages and the event's change
counter, not the standings or the pairings pages: those are not computed or rendered again for every game
of a room reporting at once. The game that decides the match is a result, and the standings follow it."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import Tournament

from .factories import make_event

pytestmark = pytest.mark.django_db(transaction=True)


def _counters(event: Tournament) -> tuple[int, int, int]:
    event.refresh_from_db()
    return event.live_version, event.pairings_version, event.standings_version


def test_a_game_of_a_match_going_on_bumps_only_the_live_counter(games, organizer, user, other_user) -> None:
    event = make_event(organizer, games["caster"], rounds=1)
    for person in (user, other_user):
        services.player_register(tournament=event, by=person)
    services.tournament_start(tournament=event, by=organizer)
    round_ = services.round_pair_next(tournament=event, by=organizer)
    match = round_.matches.filter(bye=False).get()
    alice = event.players.get(user=user)
    bob = match.seats.exclude(player=alice).get().player
    live, pairings, standings = _counters(event)

    services.match_save_game(match=match, by=user, number=1, first=alice.pk, winner=alice.pk)
    assert _counters(event) == (live + 1, pairings, standings)

    services.match_save_game(match=match, by=user, number=2, first=bob.pk, winner=alice.pk)  # 2-0: reported
    match.refresh_from_db()
    assert match.status == "reported"
    assert _counters(event) == (live + 2, pairings, standings + 1)

    # A correction that reopens a reported match changes what the standings count: a result again.
    services.match_save_game(match=match, by=user, number=2, first=bob.pk, winner=bob.pk)
    match.refresh_from_db()
    assert match.status == "pending"
    assert _counters(event) == (live + 3, pairings, standings + 2)


def test_standings_opened_while_results_pour_in_are_computed_at_most_every_two_seconds(
    games, organizer, make_user, settings, monkeypatch
) -> None:
    from tournaments.live import standings as live_standings

    settings.LIVE_STANDINGS_EVERY_S = 10
    event = make_event(organizer, games["caster"], rounds=2)
    for n in range(6):
        services.player_register(tournament=event, by=make_user(f"pour{n}"))
    services.tournament_start(tournament=event, by=organizer)
    round_ = services.round_pair_next(tournament=event, by=organizer)
    opened = live_standings.standings_data(event.pk, fresh=True)
    computed = sum(live_standings.compute_count.values())
    for match in round_.matches.filter(bye=False)[:2]:  # results between two opens of the page
        services.match_report_result(match=match, by=organizer, wins=[2, 0])
        assert live_standings.standings_data(event.pk, fresh=True)[0] == opened[0]
    assert sum(live_standings.compute_count.values()) == computed
    now = live_standings.time.time()
    monkeypatch.setattr(live_standings.time, "time", lambda: now + live_standings.OPENED_EVERY_S + 0.1)
    newest = live_standings.standings_data(event.pk, fresh=True)
    assert newest[0] > opened[0] and sum(live_standings.compute_count.values()) == computed + 1
