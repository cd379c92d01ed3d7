"""A season of weekly events: how long the series standings and the ratings take to update after each event.

    .venv/bin/python bench/bench_season.py [--events 52] [--players 64] [--accounts 150]

Runs on a throw-away test database (SQLite file; PostgreSQL when DATABASE_URL is set). Each week an event of
``--players`` players drawn from ``--accounts`` accounts is played through the services (Swiss rounds by
attendance, random best-of-three results written in bulk), finished, and added to one series (best 10). Timed
after each event, outside the play: freezing its finishes and applying its matches to the Glicko-2 ratings
(``seasons.services.event_finished``), then the series standings over every event so far
(``seasons.selectors.series_standings_compute``). Prints each event's figures, then medians and worst.
Target: the update after an event < 1 s at 52 events × 64 players.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from throwaway_db import throwaway_database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=52)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--accounts", type=int, default=150)
    args = parser.parse_args()
    if args.accounts < args.players:
        parser.error("--accounts must be at least --players")
    with throwaway_database("season") as connection:
        run(args.events, args.players, args.accounts, connection.vendor)


def run(events: int, players: int, accounts: int, vendor: str) -> None:
    from accounts.models import User
    from cards.games import games_sync
    from cards.models import Game
    from seasons import selectors, services
    from seasons.models import Series
    from tournaments import services as t_services
    from tournaments import signals
    from tournaments.models import Match, MatchSeat, Player

    # The receiver would do the work on the finish's commit, untimed: time the same call explicitly instead.
    signals.tournament_changed.disconnect(dispatch_uid="seasons.event_finished")
    games_sync()
    game = Game.objects.get(slug="caster")
    organizer = User.objects.create_user("bench-organizer", password="x", is_organizer=True)
    users = User.objects.bulk_create([User(username=f"bench-{i:04d}") for i in range(accounts)])
    series = services.series_create(by=organizer, name="Bench Season", game=game, best_of=10)
    rng = random.Random(25)
    print(
        f"{vendor}: {events} weekly events × {players} players from {accounts} accounts (series best of 10)"
    )
    print(
        f"{'event':>5} {'play s':>7} {'finishes+ratings s':>19} {'standings s':>12} {'update s':>9} {'rows':>5}"
    )
    ratings_s, standings_s, updates = [], [], []
    for week in range(1, events + 1):
        started = time.perf_counter()
        event = t_services.tournament_create(
            created_by=organizer, name=f"Week {week}", game=game, format_slug="standard", seed=week
        )
        Player.objects.bulk_create(
            [Player(tournament=event, user=u, name=u.username) for u in rng.sample(users, players)]
        )
        # Round 1 fixes the number of Swiss rounds from the attendance (MTR Appendix E).
        round_ = t_services.round_pair_next(tournament=event, by=organizer)
        _fill_results(round_, rng, Match, MatchSeat)
        event.refresh_from_db()
        for _ in range(1, event.rounds or 1):
            round_ = t_services.round_pair_next(tournament=event, by=organizer)
            _fill_results(round_, rng, Match, MatchSeat)
        t_services.tournament_finish(tournament=event, by=organizer)
        services.series_add_event(series=Series.objects.get(pk=series.pk), by=organizer, tournament=event)
        played = time.perf_counter() - started

        start = time.perf_counter()
        services.event_finished(tournament=event)
        rated = time.perf_counter() - start
        start = time.perf_counter()
        rows, _names = selectors.series_standings_compute(Series.objects.get(pk=series.pk))
        standing = time.perf_counter() - start
        ratings_s.append(rated)
        standings_s.append(standing)
        updates.append(rated + standing)
        print(
            f"{week:>5} {played:>7.2f} {rated:>19.3f} {standing:>12.3f} {rated + standing:>9.3f} {len(rows):>5}"
        )
    print(
        f"finishes+ratings median {statistics.median(ratings_s):.3f} s, worst {max(ratings_s):.3f} s; "
        f"standings median {statistics.median(standings_s):.3f} s, worst {max(standings_s):.3f} s; "
        f"update after an event median {statistics.median(updates):.3f} s, worst {max(updates):.3f} s (target < 1 s)"
    )


def _fill_results(round_, rng: random.Random, Match, MatchSeat) -> None:  # type: ignore[no-untyped-def]
    """Random best-of-three results for every open match, written in bulk (outside the timings)."""
    seats = list(MatchSeat.objects.filter(match__round=round_, match__bye=False).order_by("match_id", "seat"))
    by_match: dict[int, list] = {}
    for seat in seats:
        by_match.setdefault(seat.match_id, []).append(seat)
    for pair in by_match.values():
        a, b = rng.choice([(2, 0), (2, 1), (1, 2), (0, 2)])
        pair[0].wins, pair[1].wins = a, b
    MatchSeat.objects.bulk_update(seats, ["wins"], batch_size=1000)
    Match.objects.filter(round=round_, bye=False).update(status="final")


if __name__ == "__main__":
    main()
