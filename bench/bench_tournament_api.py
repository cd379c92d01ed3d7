"""End-to-end API timings for a large Swiss event: pair + save a round, then standings.

    .venv/bin/python bench/bench_tournament_api.py [--players 4096] [--rounds 5]

Runs on SQLite (a throw-away test database file), and on PostgreSQL too when DATABASE_URL is set (a
throw-away test database created next to it; the real database is never touched). Each backend runs in
its own child process so settings are read fresh. Prints, per round: time and query count of
`POST /api/tournaments/{id}/rounds/` and of `GET /api/tournaments/{id}/standings/`. Target: under 2 s each
for 4,096 players. Results between rounds are written in bulk (random best-of-three, a few drops), outside
the timings.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time

from throwaway_db import throwaway_database


def run_backend(players: int, rounds: int, label: str) -> None:
    with throwaway_database("tournaments") as connection:
        from django.test.utils import CaptureQueriesContext

        _run(players, rounds, label, CaptureQueriesContext, connection)


def _run(players: int, rounds: int, label: str, capture, connection) -> None:  # type: ignore[no-untyped-def]
    from rest_framework.test import APIClient

    from accounts.models import User
    from cards.games import games_sync
    from tournaments.models import Match, MatchSeat, Player

    games_sync()
    organizer = User.objects.create_user("bench-organizer", password="x", is_organizer=True)
    client = APIClient()
    client.force_authenticate(organizer)
    created = client.post(
        "/api/tournaments/",
        {"name": "Bench Open", "game": "caster", "format": "standard", "rounds": rounds, "seed": 1},
        format="json",
    )
    assert created.status_code == 201, created.content
    tid = created.json()["id"]
    Player.objects.bulk_create(
        [Player(tournament_id=tid, name=f"Player {i:05d}") for i in range(players)], batch_size=2000
    )
    rng = random.Random(1)
    print(f"\n{label}: {players} players, {rounds} rounds (Python {sys.version.split()[0]})")
    print(
        f"{'round':>5} {'pair+save s':>12} {'queries':>8} {'standings s':>12} {'queries':>8} {'matches':>8}"
    )
    pair_times, standing_times = [], []
    for number in range(1, rounds + 1):
        with capture(connection) as q_pair:
            start = time.perf_counter()
            response = client.post(f"/api/tournaments/{tid}/rounds/")
            pair_s = time.perf_counter() - start
        assert response.status_code == 201, response.content[:500]
        body = response.json()
        _fill_results(body["matches"], rng, Match, MatchSeat)
        if number == 1:
            # A few drops after round 1, as in real events.
            dropped = rng.sample(range(players), k=max(1, players // 100))
            ids = list(Player.objects.filter(tournament_id=tid).order_by("id").values_list("id", flat=True))
            Player.objects.filter(pk__in=[ids[i] for i in dropped]).update(dropped_at_round=1)
        with capture(connection) as q_stand:
            start = time.perf_counter()
            standings = client.get(f"/api/tournaments/{tid}/standings/")
            stand_s = time.perf_counter() - start
        assert standings.status_code == 200
        pair_times.append(pair_s)
        standing_times.append(stand_s)
        print(
            f"{number:>5} {pair_s:>12.3f} {len(q_pair.captured_queries):>8} {stand_s:>12.3f} "
            f"{len(q_stand.captured_queries):>8} {len(body['matches']):>8}"
        )
    print(
        f"{label}: pair+save median {statistics.median(pair_times):.3f} s, max {max(pair_times):.3f} s; "
        f"standings median {statistics.median(standing_times):.3f} s, max {max(standing_times):.3f} s "
        f"(target < 2 s each)"
    )


def _fill_results(matches: list[dict], rng: random.Random, Match, MatchSeat) -> None:  # type: ignore[no-untyped-def]
    """Random best-of-three results written in bulk (outside the timings)."""
    scores = [(2, 0), (2, 1), (1, 2), (0, 2), (1, 1)]
    seats = []
    ids = []
    draws = {}
    for match in matches:
        if match["bye"]:
            continue
        ids.append(match["id"])
        a, b = rng.choice(scores)
        draws[match["id"]] = 1 if a == b else 0
        seats.append((match["id"], match["players"][0], a))
        seats.append((match["id"], match["players"][1], b))
    rows = {(s.match_id, s.player_id): s for s in MatchSeat.objects.filter(match_id__in=ids)}
    for mid, pid, wins in seats:
        rows[(mid, pid)].wins = wins
    MatchSeat.objects.bulk_update(list(rows.values()), ["wins"], batch_size=2000)
    Match.objects.filter(pk__in=[m for m, d in draws.items() if d]).update(status="final", draws=1)
    Match.objects.filter(pk__in=[m for m, d in draws.items() if not d]).update(status="final")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--child", choices=["sqlite", "postgresql"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_backend(args.players, args.rounds, args.child)
        return
    base = [sys.executable, __file__, "--players", str(args.players), "--rounds", str(args.rounds)]
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    subprocess.run([*base, "--child", "sqlite"], env=env, check=True)
    if os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        subprocess.run([*base, "--child", "postgresql"], env=dict(os.environ), check=True)
    else:
        print("\nPostgreSQL: skipped (set DATABASE_URL=postgresql://... to run it too)")


if __name__ == "__main__":
    main()
