"""A large event with a day 2: Swiss, a cut by points into more Swiss (points carried over), a top 12, all
through the API, checking every round's pairing report.

    .venv/bin/python bench/bench_day2.py [--players 2000] [--day1 9] [--day2 5] [--min-points 18] [--cut 12]

Throw-away test database (SQLite; PostgreSQL when DATABASE_URL is set). Random best-of-three results are
written in bulk between rounds. Prints per round: players paired, pair+save time, report time, rematches,
pair-downs against the lower bound; then the day-2 field and the top cut. Exits non-zero when any round has
a rematch or pair-downs above the lower bound.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from throwaway_db import throwaway_database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--day1", type=int, default=9)
    parser.add_argument("--day2", type=int, default=5)
    parser.add_argument("--min-points", type=int, default=18)
    parser.add_argument("--cut", type=int, default=12)
    args = parser.parse_args()
    with throwaway_database("day2"):
        ok = run(args)
    sys.exit(0 if ok else 1)


def run(args: argparse.Namespace) -> bool:
    from rest_framework.test import APIClient

    from accounts.models import User
    from cards.games import games_sync
    from tournaments.models import Match, MatchSeat, Player

    games_sync()
    organizer = User.objects.create_user("bench-organizer", password="x", is_organizer=True)
    client = APIClient()
    client.force_authenticate(organizer)
    created = client.post("/api/tournaments/", {"name": "Regional", "game": "caster", "format": "standard",
                                                "rounds": args.day1, "seed": 2026}, format="json")  # fmt: skip
    assert created.status_code == 201, created.content
    tid = created.json()["id"]
    Player.objects.bulk_create(
        [Player(tournament_id=tid, name=f"Player {i:05d}") for i in range(args.players)]
    )
    rng = random.Random(25)
    ok = True
    print(f"{args.players} players: {args.day1} rounds, day 2 from {args.min_points} points for {args.day2} "
          f"rounds, top {args.cut}")  # fmt: skip
    print(
        f"{'round':>5} {'paired':>7} {'pair s':>7} {'report s':>9} {'rematches':>9} {'downs':>6} {'bound':>6}"
    )
    for number in range(1, args.day1 + args.day2 + 1):
        if number == args.day1 + 1:
            answer = client.post(f"/api/tournaments/{tid}/phases/", {"kind": "swiss", "rounds": args.day2,
                                 "advance": {"min_points": args.min_points}}, format="json")  # fmt: skip
            assert answer.status_code == 201, answer.content
        start = time.perf_counter()
        paired = client.post(f"/api/tournaments/{tid}/rounds/")
        pair_s = time.perf_counter() - start
        assert paired.status_code == 201, paired.content[:500]
        start = time.perf_counter()
        report = client.get(f"/api/tournaments/{tid}/rounds/{number}/report/")
        report_s = time.perf_counter() - start
        assert report.status_code == 200, report.content[:500]
        body = report.json()
        seated = sum(len(m["players"]) for m in paired.json()["matches"])
        bad = body["rematches"] or body["pair_downs"] > body["pair_downs_lower_bound"]
        ok = ok and not bad
        print(f"{number:>5} {seated:>7} {pair_s:>7.2f} {report_s:>9.2f} {len(body['rematches']):>9} "
              f"{body['pair_downs']:>6} {body['pair_downs_lower_bound']:>6}{'  <-- ' if bad else ''}")  # fmt: skip
        _fill_results(paired.json()["matches"], rng, Match, MatchSeat)
    phases = client.get(f"/api/tournaments/{tid}/phases/").json()["phases"]
    print(f"day 2 field: {phases[1]['entrants']} players")
    assert client.post(f"/api/tournaments/{tid}/phases/", {"kind": "single_elim", "size": args.cut},
                       format="json").status_code == 201  # fmt: skip
    cut = client.post(f"/api/tournaments/{tid}/topcut/")
    assert cut.status_code == 201, cut.content[:500]
    byes = sum(1 for m in cut.json()["matches"] if m["bye"])
    print(f"top {args.cut}: {len(cut.json()['matches'])} first-round slots, {byes} byes to the top seeds")
    print("every round at its lower bound with no rematch" if ok else "SOME ROUNDS FAILED THE CHECK")
    return ok


def _fill_results(matches: list[dict], rng: random.Random, Match, MatchSeat) -> None:  # type: ignore[no-untyped-def]
    ids = [m["id"] for m in matches if not m["bye"]]
    seats = list(MatchSeat.objects.filter(match_id__in=ids).order_by("match_id", "seat"))
    for i in range(0, len(seats), 2):
        a, b = rng.choice([(2, 0), (2, 1), (1, 2), (0, 2)])
        seats[i].wins, seats[i + 1].wins = a, b
    MatchSeat.objects.bulk_update(seats, ["wins"], batch_size=2000)
    Match.objects.filter(pk__in=ids).update(status="final")


if __name__ == "__main__":
    main()
