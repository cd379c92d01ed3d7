"""Posting a Swiss round end to end at 16,384 players: pair + save + notify + first renders.

    .venv/bin/python bench/bench_round_post.py [--players 16384] [--rounds 5] [--postgres] [--target 1.0]
                                               [--cpu] [--profile FILE]

A throw-away database (bench/throwaway_db.py): SQLite, or PostgreSQL with ``--postgres`` (DATABASE_URL, default
postgres://deckhall:deckhall@127.0.0.1:5432/deckhall). The players are bulk-created, round 1 is paired and
every result written in bulk, so round 2 onwards is the Swiss case that matters (score groups, opponents).
Each of rounds 2..N is then posted through the real service the views and API use
(``tournaments.services.round_pair_next``) and the first shared renders are fetched through the real pages
(the players' pairings page and the projector's, both rendered by the live layer's ``shared_entry``).

Printed per round and as median / worst over the rounds, in seconds:

- ``history`` the event's match history read (records.load_history)
- ``inputs``  the engine's inputs built from it (pairing_inputs.round_inputs: points, opponents, byes)
- ``pair``    the pairing engine (engine.pairing.pair_round)
- ``save``    inserting the matches and seats
- ``other``   the rest of the service (locks, checks, the round row, fixed tables)
- ``commit``  the transaction's commit
- ``notify``  the after-commit signals (the live change counters)
- ``render``  the first GET of the pairings page and of the projector's pairings page (each renders once)
- ``post``    the service alone (the phases above)
- ``total``   post + render: what the organizer's click costs before every screen in the room can update

The renders go to the configured cache (CACHE_URL: Redis for the cluster; the process's memory when unset).
Exits non-zero when the median total is over ``--target`` seconds (default 1.0). Run it once per database
(``--postgres``) and compare; on a shared machine the wall-clock figures are upper bounds, and ``--cpu``
gives this process's CPU seconds instead (on SQLite that includes the database's work; on PostgreSQL the
server's is left out).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

PHASES = ("history", "inputs", "pair", "save", "other", "commit", "notify", "render", "post", "total")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=16384)
    parser.add_argument("--rounds", type=int, default=5, help="the last round posted (rounds 2..N are timed)")
    parser.add_argument(
        "--postgres", action="store_true", help="PostgreSQL from DATABASE_URL (default local)"
    )
    parser.add_argument("--target", type=float, default=1.0, help="median total must stay under this (s)")
    parser.add_argument("--profile", help="write a cProfile of the timed posts to this file")
    parser.add_argument("--cpu", action="store_true",
                        help="time this process's CPU instead of the wall clock (a busy shared machine; leaves "
                             "out the database server's own work on PostgreSQL)")  # fmt: skip
    args = parser.parse_args()
    if args.postgres:
        os.environ.setdefault("DATABASE_URL", "postgres://deckhall:deckhall@127.0.0.1:5432/deckhall")
    else:
        os.environ.pop("DATABASE_URL", None)  # the settings fall back to SQLite
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from throwaway_db import throwaway_database

    with throwaway_database("round_post") as connection:
        ok = run(args, connection.vendor)
    sys.exit(0 if ok else 1)


class Clock:
    """Seconds spent per phase in the current round, filled by wrappers around the service's steps."""

    def __init__(self, now: Callable[[], float]) -> None:
        self.spent: dict[str, float] = defaultdict(float)
        self.now = now

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        start = self.now()
        try:
            yield
        finally:
            self.spent[name] += self.now() - start

    def wrap(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.phase(name):
                return function(*args, **kwargs)

        return timed


def instrument(clock: Clock) -> None:
    """Time the service's steps where it looks them up (module attributes), without changing what they do."""
    from django.db import connection

    from tournaments import signals
    from tournaments.engine import pairing
    from tournaments.pairings import inputs as pairing_inputs
    from tournaments.reads import records
    from tournaments.services import rounds

    records.load_history = clock.wrap("history", records.load_history)
    connection.commit = clock.wrap("commit", connection.commit)  # type: ignore[method-assign]
    pairing_inputs.round_inputs = clock.wrap("inputs", pairing_inputs.round_inputs)
    pairing.pair_round = clock.wrap("pair", pairing.pair_round)
    rounds._insert_matches = clock.wrap("save", rounds._insert_matches)
    for signal in (signals.round_paired, signals.tournament_changed):
        signal.send_robust = clock.wrap("notify", signal.send_robust)  # type: ignore[method-assign]


def run(args: argparse.Namespace, vendor: str) -> bool:
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from accounts.models import User
    from cards.games import games_sync
    from cards.models import Game
    from tournaments import services
    from tournaments.live import render_count
    from tournaments.models import Match, MatchSeat, Player, Round, Tournament

    # Every run's throw-away event has the same id and change counters: with a shared cache (Redis) the
    # previous run's renders would be found under the same keys and no page would be rendered at all.
    cache.key_prefix = f"bench-round-post-{os.getpid()}"
    games_sync()
    organizer = User.objects.create_user("bench-organizer", password="x", is_organizer=True)
    tournament = services.tournament_create(created_by=organizer, name="Worlds", game=Game.objects.get(slug="caster"),
                                            format_slug="standard", rounds=args.rounds, seed=2026)  # fmt: skip
    Player.objects.bulk_create(
        [Player(tournament=tournament, name=f"Player {i:05d}") for i in range(args.players)], batch_size=2000
    )
    rng = random.Random(26)
    first = services.round_pair_next(tournament=tournament, by=organizer)
    fill_results(first, rng, Match, MatchSeat)
    clock = Clock(time.process_time if args.cpu else time.perf_counter)
    instrument(clock)
    client = Client()
    pages = [reverse("tournaments:pairings", args=[tournament.pk]),
             reverse("tournaments:projector", args=[tournament.pk, "pairings"])]  # fmt: skip
    print(f"{vendor}: {args.players} players, rounds 2..{args.rounds} posted through round_pair_next "
          f"({'CPU of this process' if args.cpu else 'wall clock'}, seconds)")  # fmt: skip
    print(f"{'round':>5} " + " ".join(f"{name:>7}" for name in PHASES) + f" {'queries':>7}")
    figures: dict[str, list[float]] = defaultdict(list)
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
    for number in range(2, args.rounds + 1):
        clock.spent.clear()
        tournament = Tournament.objects.get(pk=tournament.pk)
        queries = 0

        def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            nonlocal queries
            queries += 1
            return execute(sql, params, many, context)

        if profiler:
            profiler.enable()
        start = clock.now()
        with connection.execute_wrapper(count):
            round_ = services.round_pair_next(tournament=tournament, by=organizer)
        post = clock.now() - start
        renders = sum(render_count.values())
        with clock.phase("render"):
            for page in pages:
                answer = client.get(page)
                assert answer.status_code == 200, (page, answer.status_code)
        # Each page really rendered once for the new round (not served from an earlier render).
        assert sum(render_count.values()) == renders + len(pages), "the pages were not rendered anew"
        if profiler:
            profiler.disable()
        assert round_.number == number and round_.matches.count() == (args.players + 1) // 2
        spent = clock.spent
        spent["post"] = post
        spent["other"] = post - sum(
            spent[name] for name in ("history", "inputs", "pair", "save", "commit", "notify")
        )
        spent["total"] = post + spent["render"]
        for name in PHASES:
            figures[name].append(spent[name])
        print(f"{number:>5} " + " ".join(f"{spent[name]:>7.3f}" for name in PHASES) + f" {queries:>7}")
        fill_results(Round.objects.get(pk=round_.pk), rng, Match, MatchSeat)
    print(f"{'med':>5} " + " ".join(f"{statistics.median(figures[n]):>7.3f}" for n in PHASES))
    print(f"{'worst':>5} " + " ".join(f"{max(figures[n]):>7.3f}" for n in PHASES))
    if profiler:
        profiler.dump_stats(args.profile)
    median = statistics.median(figures["total"])
    ok = median < args.target
    print(f"{vendor}: median total {median:.3f} s, worst {max(figures['total']):.3f} s — "
          f"{'under' if ok else 'OVER'} the {args.target:.1f} s target")  # fmt: skip
    return ok


def fill_results(round_: Any, rng: random.Random, Match: Any, MatchSeat: Any) -> None:
    """Random best-of-three results for every match of the round, written in bulk (not timed)."""
    ids = list(round_.matches.filter(bye=False).values_list("pk", flat=True))
    seats = list(MatchSeat.objects.filter(match_id__in=ids).order_by("match_id", "seat"))
    for i in range(0, len(seats), 2):
        seats[i].wins, seats[i + 1].wins = rng.choice([(2, 0), (2, 1), (1, 2), (0, 2)])
    MatchSeat.objects.bulk_update(seats, ["wins"], batch_size=2000)
    for start in range(0, len(ids), 2000):
        Match.objects.filter(pk__in=ids[start : start + 2000]).update(status=Match.Status.FINAL)


if __name__ == "__main__":
    main()
