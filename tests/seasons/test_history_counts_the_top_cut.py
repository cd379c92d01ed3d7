"""A player's history counts the top-cut matches as the rating does: the finish's record is Swiss plus cut."""

from __future__ import annotations

import pytest

from seasons import services as season_services
from seasons.models import EventFinish, Rating
from tests.tournaments.factories import finish_round, make_event
from tournaments import services
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def test_the_finish_record_and_the_rating_count_the_same_matches(games, organizer, make_user):
    event = make_event(organizer, games["caster"], rounds=2, top_cut=2)
    accounts = [make_user(f"cut{i}") for i in range(4)]
    for account in accounts:
        services.player_register(tournament=event, by=account, user=account)
    for _ in range(2):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer)
    final = services.topcut_start(tournament=event, by=organizer).matches.get()
    services.match_report_result(match=final, by=organizer, wins=[2, 1])
    services.tournament_finish(tournament=event, by=organizer)
    season_services.event_finished(tournament=event)  # the receiver runs after commit, never inside a test
    played = {
        account.pk: Match.objects.filter(seats__player__user=account, bye=False).count()
        for account in accounts
    }
    for finish in EventFinish.objects.filter(tournament=event):
        rating = Rating.objects.get(user_id=finish.user_id, game=event.game)
        assert finish.wins + finish.losses + finish.draws == played[finish.user_id] == rating.matches
    champion = EventFinish.objects.get(tournament=event, place=1)
    assert champion.wins >= 1 and played[champion.user_id] == 3
