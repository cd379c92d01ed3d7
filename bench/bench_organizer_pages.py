"""The organizer's pages of a big event: round dashboard, event page and check-in.

    .venv/bin/python bench/bench_organizer_pages.py [--players 2000] [--requests 30]

Throw-away test database (SQLite; PostgreSQL when DATABASE_URL is set). Builds a running event of
``--players`` players, pairs round 1 (and times the dashboard then, as the pairing click lands on it), enters
half the results (a few of them disputed or waiting for
confirmation), opens two judge calls and starts the round clock; then, through Django's test client logged in
as the organizer, times each page ``--requests`` times three ways: the full page load, the live fragment's
poll when something changed (the event's counter bumped before each request, as a result coming in does) and
the poll when nothing changed (answered 304). Prints p50 / p95 / max in milliseconds of wall time, p50 / p95
of this process's CPU time (what a request costs a worker, whatever else the machine runs; the test client
runs in this process, so it includes the client's small share) and the body size, and exits non-zero when any answer is not what the organizer's browser expects.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from throwaway_db import throwaway_database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=30)
    args = parser.parse_args()
    with throwaway_database("organizer"):
        ok = run(args)
    sys.exit(0 if ok else 1)


def _build(players: int):  # type: ignore[no-untyped-def]
    from accounts.models import User
    from cards.games import games_sync
    from cards.models import Game
    from tournaments import services
    from tournaments.models import Player

    games_sync()
    organizer = User.objects.create_user("bench-organizer", password="x", is_organizer=True)
    event = services.tournament_create(created_by=organizer, name="Regional", game=Game.objects.get(slug="caster"),
                                       format_slug="standard", rounds=11, seed=2026)  # fmt: skip
    Player.objects.bulk_create([Player(tournament=event, name=f"Player {i:05d}") for i in range(players)])
    services.tournament_start(tournament=event, by=organizer)
    event.refresh_from_db()
    round_ = event.round_set.order_by("-number").first()
    if round_ is None:
        round_ = services.round_pair_next(tournament=event, by=organizer)
    return organizer, event, round_


def _half_results(organizer, round_) -> None:  # type: ignore[no-untyped-def]
    from tournaments import services
    from tournaments.models import JudgeCall, Match, MatchSeat

    matches = list(round_.matches.filter(bye=False).order_by("table"))
    done = matches[: len(matches) // 2]
    seats = list(MatchSeat.objects.filter(match__in=done).order_by("match_id", "seat"))
    for i in range(0, len(seats), 2):
        seats[i].wins, seats[i + 1].wins = 2, i % 3
    MatchSeat.objects.bulk_update(seats, ["wins"], batch_size=1000)
    Match.objects.filter(pk__in=[m.pk for m in done[:-8]]).update(status="final")
    Match.objects.filter(pk__in=[m.pk for m in done[-8:-3]]).update(status="reported")
    Match.objects.filter(pk__in=[m.pk for m in done[-3:]]).update(
        status="disputed", dispute_reason="Three games"
    )
    open_ = matches[len(matches) // 2 :]
    for m in open_[:2]:
        JudgeCall.objects.create(match=m, player=m.seats.first().player)
    services.round_timer_start(round_=round_, by=organizer, minutes=50)


def _time(client, url: str, n: int, *, etag: str | None = None, bump=None, expect: int = 200):  # type: ignore[no-untyped-def]
    times, cpu, size, bad = [], [], 0, 0
    for _ in range(n):
        if bump is not None:
            bump()
        headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
        start, start_cpu = time.perf_counter(), time.process_time()
        answer = client.get(url, **headers)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        size = len(answer.content)
        bad += answer.status_code != expect
    times.sort()
    cpu.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    cpu95 = cpu[min(len(cpu) - 1, round(0.95 * (len(cpu) - 1)))]
    return statistics.median(times), p95, times[-1], statistics.median(cpu), cpu95, size, bad


def _row(name: str, kind: str, figures: tuple) -> bool:  # type: ignore[type-arg]
    p50, p95, worst, cpu50, cpu95, size, bad = figures
    flag = f"  <-- {bad} unexpected answers" if bad else ""
    print(
        f"{name:<11} {kind:<16} {p50:>8.1f} {p95:>8.1f} {worst:>8.1f} {cpu50:>8.1f} {cpu95:>8.1f} {size:>9}{flag}"
    )
    return not bad


def run(args: argparse.Namespace) -> bool:
    from django.test import Client
    from django.urls import reverse

    from tournaments.live import live_version_bump

    start = time.perf_counter()
    organizer, event, round_ = _build(args.players)
    print(f"{args.players} players, round {round_.number} paired (built in {time.perf_counter() - start:.1f} s); "
          f"{args.requests} requests each")  # fmt: skip
    client = Client()
    client.force_login(organizer)
    live = reverse("tournaments:organizer_live", args=[event.pk])
    dashboard = reverse("tournaments:round", args=[event.pk, round_.number])
    pages = [
        ("dashboard", dashboard, f"{live}?page=round&round={round_.number}"),
        ("event page", reverse("tournaments:detail", args=[event.pk]), f"{live}?page=event"),
        ("check-in", reverse("tournaments:check_in", args=[event.pk]), f"{live}?page=check_in"),
    ]

    def bump() -> None:
        live_version_bump(tournament_id=event.pk, what="result")

    print(f"{'page':<11} {'request':<16} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'cpu p50':>8} {'cpu p95':>8} "
          f"{'bytes':>9}")  # fmt: skip
    # The page the "pair next round" click lands on: no result yet, so the mending tools are offered too.
    client.get(dashboard)
    ok = _row("dashboard", "just paired", _time(client, dashboard, args.requests))
    _half_results(organizer, round_)
    print("half the results in, 3 disputed, 5 waiting for confirmation, 2 judge calls, the clock running:")
    for name, full, poll in pages:
        client.get(full)  # warm the templates and caches once
        etag = client.get(poll)["ETag"]
        ok = _row(name, "full load", _time(client, full, args.requests)) and ok
        ok = _row(name, "poll, changed", _time(client, poll, args.requests, etag=etag, bump=bump)) and ok
        etag = client.get(poll)["ETag"]
        ok = _row(name, "poll, unchanged", _time(client, poll, args.requests, etag=etag, expect=304)) and ok
    return ok


if __name__ == "__main__":
    main()
