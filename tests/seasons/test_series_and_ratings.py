"""Series (store leagues) over finished events: points by place and size, best N, standings; ratings with
Glicko-2 once per event; a player's history."""

from __future__ import annotations

import pytest

from seasons import services as season_services
from seasons.engine.points import DEFAULT_TABLE, Finish, event_points, series_standings
from seasons.engine.ratings import DEFAULT, Game, rate_period
from seasons.models import EventFinish, RatedEvent, Rating
from tests.tournaments.factories import finish_round
from tournaments import services

pytestmark = pytest.mark.django_db


def test_points_follow_the_place_and_the_size_tier():
    assert event_points(DEFAULT_TABLE, 1, 8) == 1 + 6
    assert event_points(DEFAULT_TABLE, 3, 20) == 1 + 5  # places 3–4 in the 16+ tier
    assert event_points(DEFAULT_TABLE, 9, 20) == 1  # outside the brackets: taking part only
    assert event_points(DEFAULT_TABLE, 12, 40) == 1 + 3


def test_best_n_counts_and_ties_break_on_all_points_then_best_place():
    finishes = [
        Finish("u1", "Ann", 1, 1, 8), Finish("u1", "Ann", 2, 8, 8), Finish("u1", "Ann", 3, 2, 8),
        Finish("u2", "Bob", 1, 2, 8), Finish("u2", "Bob", 2, 1, 8), Finish("u2", "Bob", 3, 8, 8),
        Finish("u3", "Cy", 1, 1, 8),
    ]  # fmt: skip
    rows = series_standings(finishes, DEFAULT_TABLE, best_of=2)
    # Ann and Bob: best two are 7 + 5 = 12 each, and 15 over all three; best place 1 both: same rank.
    assert [(r.name, r.points, r.total, r.rank) for r in rows] == [
        ("Ann", 12, 15, 1), ("Bob", 12, 15, 1), ("Cy", 7, 7, 3)
    ]  # fmt: skip
    assert rows[0].counted == [1, 3]


def test_a_win_moves_ratings_apart_and_shrinks_the_uncertainty():
    after = rate_period({}, [Game(1, 2, 1.0)])
    assert after[1].rating > DEFAULT.rating > after[2].rating
    assert after[1].rd < DEFAULT.rd and after[2].rd < DEFAULT.rd
    # A draw between equals leaves both where they were.
    even = rate_period({}, [Game(1, 2, 0.5)])
    assert even[1].rating == pytest.approx(DEFAULT.rating)


def _finished_event(organizer, game, accounts, name, seed=1):  # type: ignore[no-untyped-def]
    from tests.tournaments.factories import make_event

    event = make_event(organizer, game, rounds=2, name=name, seed=seed)
    for account in accounts:
        services.player_register(tournament=event, by=account, user=account)
    services.player_register(tournament=event, by=organizer, name="Walk-in Guest")
    for _ in range(2):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer)
    return event


def test_a_league_over_finished_events_ranks_players_and_rates_them(
    games, organizer, make_user, api_client_for, api_client, django_capture_on_commit_callbacks, settings
):
    # Small events on purpose: the farming thresholds have their own test (test_ratings_cannot_be_farmed).
    settings.RATING_MIN_PLAYERS, settings.RATING_MIN_OPPONENTS = 2, 1
    accounts = [make_user(f"p{i}") for i in range(5)]
    client = api_client_for(organizer)
    answer = client.post(
        "/api/series/", {"name": "Spring League", "game": "caster", "best_of": 2}, format="json"
    )
    assert answer.status_code == 201, answer.content
    series = answer.json()["id"]
    events = []
    for i in range(3):
        event = _finished_event(organizer, games["caster"], accounts, f"Week {i + 1}", seed=i + 1)
        with django_capture_on_commit_callbacks(execute=True):
            services.tournament_finish(tournament=event, by=organizer)
        events.append(event)
        added = client.post(f"/api/series/{series}/events/", {"tournament": event.pk}, format="json")
        assert added.status_code == 201, added.content
    assert EventFinish.objects.filter(tournament=events[0]).count() == 6
    assert RatedEvent.objects.count() == 3
    standings = api_client.get(f"/api/series/{series}/standings/").json()["standings"]
    assert len(standings) == 6 and all(isinstance(row["points"], int) for row in standings)
    assert standings[0]["points"] >= standings[-1]["points"] and standings[0]["rank"] == 1
    assert all(len(row["counted"]) <= 2 for row in standings)
    guest = next(row for row in standings if row["user"] is None)
    assert guest["name"] == "Walk-in Guest" and guest["events"] == 3
    # Ratings: every account played, nobody is at the unrated start any more, the guest is not rated.
    ratings = {r.user.username: r for r in Rating.objects.select_related("user")}
    assert set(ratings) == {a.username for a in accounts}
    assert all(r.rd < 350 and r.events == 3 for r in ratings.values())
    # Finishing again (or a second signal) rates nothing twice.
    season_services.event_finished(tournament=events[0])
    assert Rating.objects.get(user=accounts[0]).events == 3
    history = api_client.get(f"/api/players/{accounts[0].username}/history/").json()
    assert [e["name"] for e in history["events"]] == ["Week 3", "Week 2", "Week 1"]
    assert history["ratings"][0]["game"] == "caster" and history["ratings"][0]["rd"] < 350
    page = api_client.get(f"/seasons/series/{series}/")
    assert page.status_code == 200 and "Spring League" in page.content.decode()
    assert api_client.get(f"/seasons/players/{accounts[0].username}/").status_code == 200


def test_series_requests_are_checked(games, organizer, user, make_user, api_client_for):
    client = api_client_for(organizer)
    assert client.post("/api/series/", {"name": "", "game": "caster"}, format="json").status_code == 400
    assert client.post("/api/series/", {"name": "X", "game": "nope"}, format="json").status_code == 400
    bad_table = client.post("/api/series/", {"name": "X", "game": "caster", "points_table": {"tiers": []}},
                            format="json")  # fmt: skip
    assert bad_table.status_code == 400 and "tiers" in str(bad_table.json())
    assert (
        api_client_for(user).post("/api/series/", {"name": "X", "game": "caster"}, format="json").status_code
        == 403
    )
    series = client.post("/api/series/", {"name": "League", "game": "caster"}, format="json").json()["id"]
    from tests.tournaments.factories import make_event

    other_game = make_event(organizer, games["yugioh"])
    wrong = client.post(f"/api/series/{series}/events/", {"tournament": other_game.pk}, format="json")
    # An event of another game cannot go with the series (422); one already in it is its state (409); an id
    # naming no event is 404 (README "Errors").
    assert wrong.status_code == 422 and "series is for" in str(wrong.json())
    someone_elses = make_event(make_user("rival", organizer=True), games["caster"])
    assert client.post(f"/api/series/{series}/events/", {"tournament": someone_elses.pk},
                       format="json").status_code == 403  # fmt: skip
    mine = make_event(organizer, games["caster"])
    assert (
        client.post(f"/api/series/{series}/events/", {"tournament": mine.pk}, format="json").status_code
        == 201
    )
    assert (
        client.post(f"/api/series/{series}/events/", {"tournament": mine.pk}, format="json").status_code
        == 409
    )
    assert (
        client.post(f"/api/series/{series}/events/", {"tournament": 10**12}, format="json").status_code == 404
    )
    assert client.get("/api/series/abc/standings/").status_code == 404
    assert client.get("/api/players/nobody/history/").status_code == 404


def test_ratings_can_be_rebuilt_after_a_correction(games, organizer, make_user, settings):
    settings.RATING_MIN_PLAYERS, settings.RATING_MIN_OPPONENTS = 2, 1
    from io import StringIO

    from django.core.management import call_command

    accounts = [make_user(f"r{i}") for i in range(4)]
    event = _finished_event(organizer, games["caster"], accounts, "Week 1")
    services.tournament_finish(tournament=event, by=organizer)
    season_services.event_finished(tournament=event)
    before = {r.user_id: r.rating for r in Rating.objects.all()}
    # A finished event's result corrected by hand: the rebuild rates it again from the corrected result.
    match = event.round_set.get(number=1).matches.filter(bye=False, seats__player__user__isnull=False).first()
    seats = list(match.seats.order_by("seat"))
    seats[0].wins, seats[1].wins = seats[1].wins, seats[0].wins
    for seat in seats:
        seat.save(update_fields=["wins"])
    out = StringIO()
    call_command("ratings_rebuild", "caster", stdout=out)
    assert "1 events rated again" in out.getvalue()
    after = {r.user_id: r.rating for r in Rating.objects.all()}
    assert set(after) == set(before) and after != before
    assert all(r.events == 1 for r in Rating.objects.all())
