"""The venue server under simulated phones: `manage.py venue` (gunicorn gthread workers, DEBUG off, SQLite in
WAL mode, snapshots on) serving one event to N phones on loopback.

    .venv/bin/python bench/bench_venue.py [--phones 500,2000] [--players 2000] [--seconds 30]

A throw-away venue in /tmp: the real YGOPro .cdb imported when ../shared/data has it, an event of --players
guests created through the services, round 1 paired and half its results entered; the snapshot of that database is timed (the copy every pairing and every result
burst takes). Then the real venue server starts and, per phone count, N phones (asyncio + aiohttp, one
connection each) poll the public pairings fragment every 4 s (the live pages' interval) with the ETag the
server gave them, while an organizer enters results through the API (--results-per-second, 0.5: a round of
1,000 matches finishing over about 35 minutes; every result changes the page, so phones re-fetch it, and
result snapshots are taken). Printed: requests, 200 / 304 / errors,
p50 / p95 / max latency of the phones and of the result entries, snapshots taken. Target on this 2-core
machine: phone p95 < 500 ms at 2,000 phones.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
POLL_SECONDS = 4.0

SETUP = """
import json, statistics, sys, time
from accounts.models import User
from cards.models import Game
from tournaments.models import Match
from tournaments.services import match_report_result, players_bulk_add, round_pair_next, tournament_create
from venue.snapshots import database_path, snapshot_take
players, cdb = int(sys.argv[1]), sys.argv[2]
if cdb:  # a venue database holds the game's cards too: the real 10,628-card .cdb when it is there
    from cards.services import cards_import
    from pathlib import Path
    cards_import(game=Game.objects.get(slug="yugioh"), data=Path(cdb).read_bytes(), filename="cards.cdb")
organizer = User.objects.create_user("benchorg", password="bench-Passw0rd!", is_organizer=True)
event = tournament_create(created_by=organizer, name="Bench Swiss", game=Game.objects.get(slug="yugioh"),
                          format_slug="advanced", rounds=5, seed=3)
for start in range(0, players, 500):  # the bulk form takes at most 512 names at once
    names = [f"Player {n:05d}" for n in range(start, min(players, start + 500))]
    players_bulk_add(tournament=event, by=organizer, rows=names)
round_ = round_pair_next(tournament=event, by=organizer)
matches = list(Match.objects.filter(round=round_, bye=False).order_by("table"))
for match in matches[: len(matches) // 2]:
    match_report_result(match=match, by=organizer, wins=[2, 0], draws=0)
times = []
for _ in range(5):
    started = time.perf_counter()
    snapshot_take(reason="bench")
    times.append(time.perf_counter() - started)
print(json.dumps({"event": event.pk, "size": database_path().stat().st_size,
                  "snap_p50": statistics.median(times), "snap_max": max(times)}))
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def phone(session: aiohttp.ClientSession, url: str, until: float, stats: dict[str, Any]) -> None:
    etag = ""
    await asyncio.sleep(random.uniform(0, POLL_SECONDS))  # phones do not all wake at once
    while time.monotonic() < until:
        headers = {"If-None-Match": etag} if etag else {}
        started = time.perf_counter()
        try:
            async with session.get(url, headers=headers) as response:
                await response.read()
                stats["latency"].append(time.perf_counter() - started)
                stats[response.status] = stats.get(response.status, 0) + 1
                etag = response.headers.get("ETag", etag)
        except (TimeoutError, aiohttp.ClientError):
            stats["errors"] += 1
        await asyncio.sleep(POLL_SECONDS)


async def organizer(base: str, token: str, event: int, until: float, stats: dict[str, Any]) -> None:
    headers = {"Authorization": f"Token {token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.get(f"{base}/api/tournaments/{event}/rounds/") as response:
            rounds = (await response.json())["rounds"]
        pending = [m["id"] for m in rounds[-1]["matches"] if m["status"] != "final" and not m["bye"]]
        while pending and time.monotonic() < until:
            started = time.perf_counter()
            # As phones send every write: with a one-time Idempotency-Key, stored with the answer.
            async with session.post(
                f"{base}/api/matches/{pending.pop()}/result/",
                json={"wins": [2, 1]},
                headers={"Idempotency-Key": str(uuid.uuid4())},
            ) as r:
                await r.read()
                stats["results"].append(time.perf_counter() - started)
                if r.status != 200:
                    stats["result_errors"] += 1
            await asyncio.sleep(max(0.0, 1 / stats["rate"] - (time.perf_counter() - started)))


async def load_share(base: str, token: str, event: int, phones: int, until: float, rate: float,
                     with_organizer: bool) -> dict[str, Any]:  # fmt: skip
    stats: dict[str, Any] = {"latency": [], "errors": 0, "results": [], "result_errors": 0, "rate": rate}
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        url = f"{base}/tournaments/{event}/pairings/?fragment=1"
        await asyncio.gather(
            *([organizer(base, token, event, until, stats)] if with_organizer else []),
            *(phone(session, url, until, stats) for _ in range(phones)),
        )
    return stats


def _load_process(base: str, token: str, event: int, phones: int, until: float, rate: float,
                  with_organizer: bool, out: Any) -> None:  # fmt: skip
    out.put(asyncio.run(load_share(base, token, event, phones, until, rate, with_organizer)))


def load(base: str, token: str, event: int, phones: int, seconds: float, rate: float,
         processes: int = 4) -> dict[str, Any]:  # fmt: skip
    """The phones in ``processes`` client processes (as bench_event_day: one event loop for 2,000 phones
    answers its sockets so late that it, not the server, sets the latency); the organizer in the first."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    until = time.monotonic() + seconds
    shares = [phones // processes + (1 if k < phones % processes else 0) for k in range(processes)]
    children = [context.Process(target=_load_process, args=(base, token, event, n, until, rate, k == 0, queue))
                for k, n in enumerate(shares)]  # fmt: skip
    for child in children:
        child.start()
    merged: dict[str, Any] = {"latency": [], "errors": 0, "results": [], "result_errors": 0, "rate": rate}
    for _child in children:
        part = queue.get(timeout=seconds + 120)
        for key, value in part.items():
            if isinstance(value, list):
                merged[key] += value
            elif key != "rate":
                merged[key] = merged.get(key, 0) + value
    for child in children:
        child.join()
    return merged


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--phones", default="500,2000")
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=30)
    # 1,000 matches of a 2,000-player round finishing over about 35 minutes: ~0.5 a second.
    parser.add_argument("--results-per-second", type=float, default=0.5)
    args = parser.parse_args()
    # 2,000 phones hold 2,000 sockets here and in the server (which inherits this limit).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 16_384)), hard))
    home = Path(tempfile.mkdtemp(prefix="deckhall-bench-venue-"))
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"CELERY_BROKER_URL", "CACHE_URL", "DEBUG", "SECRET_KEY"}
    }
    env.update(
        DECKHALL_VENUE="1",
        DATABASE_URL=f"sqlite:///{home / 'db.sqlite3'}",
        DECKHALL_VENUE_DIR=str(home / "var"),
    )
    env.update(PORT=str(port), VENUE_SNAPSHOT_INTERVAL="5", DJANGO_SETTINGS_MODULE="config.settings")
    manage = [sys.executable, "manage.py"]
    shared = Path(os.environ.get("DECKHALL_SHARED_DATA") or ROOT.parent / "shared" / "data")
    cdb = str(next(iter(sorted(shared.glob("ygo/cdb/*.cdb"))), "")) if shared.is_dir() else ""
    print(
        f"venue in {home}: migrating, {args.players} players, round 1 paired, half its results in", flush=True
    )
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    setup = subprocess.run(
        [*manage, "shell", "--no-imports", "-c", f"import sys; sys.argv = ['x', '{args.players}', {cdb!r}]\n" + SETUP],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    if setup.returncode != 0:
        sys.exit(f"setting up the event failed:\n{setup.stderr[-3000:]}")
    facts = json.loads(setup.stdout.strip().splitlines()[-1])
    cards = "with the 10,628 YGO cards" if cdb else "without cards (no shared data)"
    size = facts["size"] / 1_048_576
    print(f"\nSnapshot of a {args.players}-player event database {cards} ({size:.1f} MB), 5 runs:")
    print(f"  median {facts['snap_p50'] * 1000:.0f} ms   max {facts['snap_max'] * 1000:.0f} ms\n", flush=True)

    server = subprocess.Popen(
        [*manage, "venue", "--port", str(port)], cwd=ROOT, env=env, start_new_session=True,
        stdout=open(home / "server.log", "wb"), stderr=subprocess.STDOUT,  # noqa: SIM115
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        sys.path.insert(0, str(ROOT))
        from tests.deploy.event_driver import Site, wait_healthy

        wait_healthy(base, timeout=600, process=server)
        token = Site(base).log_in_token("benchorg", "bench-Passw0rd!")
        header = f"{'phones':>6} {'requests':>8} {'200':>6} {'304':>6} {'errors':>6} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}"
        header += f" | {'results':>7} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} | snapshots"
        rows = []
        for phones in [int(n) for n in args.phones.split(",")]:
            before = len(list((home / "var" / "snapshots").glob("*-results.sqlite3")))
            stats = load(base, token, facts["event"], phones, args.seconds, args.results_per_second)
            taken = len(list((home / "var" / "snapshots").glob("*-results.sqlite3"))) - before
            lat, res = [x * 1000 for x in stats["latency"]], [x * 1000 for x in stats["results"]]
            rows.append(
                f"{phones:>6} {len(lat):>8} {stats.get(200, 0):>6} {stats.get(304, 0):>6} {stats['errors']:>6} "
                f"{statistics.median(lat):>7.0f} {pct(lat, 0.95):>7.0f} {max(lat):>7.0f} | {len(res):>7} "
                f"{statistics.median(res):>7.0f} {pct(res, 0.95):>7.0f} {max(res):>7.0f} | {taken}"
            )
            print(f"  {phones} phones done", flush=True)
        print(f"\nVenue server (3 gunicorn gthread workers × 4 threads), {args.seconds:.0f} s per row, "
              f"phones poll every {POLL_SECONDS:.0f} s, {args.results_per_second:g} results/s entered, "
              f"machine load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores:")  # fmt: skip
        print(header)
        for row in rows:
            print(row)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)


if __name__ == "__main__":
    main()
