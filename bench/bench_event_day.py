"""Event day under load: N phones polling "My event" (and some the projector / pairings pages) while the
organizer posts rounds and results (issue #9): see bench/README.md for what it does and prints.

    .venv/bin/python bench/bench_event_day.py [--phones 500,2000] [--servers runserver,gunicorn]
            [--workers 4] [--threads 1] [--seconds 90] [--results-per-second 2] [--client-processes 4]
            [--organizers 2] [--postgres]

``--organizers N``: N desktop dashboards poll the organizer's live fragments (round dashboard, event page,
check-in in turn) while the phones poll; their latencies are reported apart ("org p50/p95/max ms").

Targets on a 2-core machine: p95 < 500 ms at 2,000 phones; every phone sees the pairings within 5 s;
pairing 2,000 players < 2 s while they poll.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import json
import os
import random
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
STORM_S = 10.0
POST_AT = 0.3  # round 2 is posted at this share of the run


# --- server process -------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(database_url: str, cache_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DEBUG="false",
        SECRET_KEY=env.get("BENCH_SECRET_KEY") or secrets.token_urlsafe(64),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        DATABASE_URL=database_url,
        CACHE_URL=cache_url,
        LOG_LEVEL="WARNING",
        # As the venue server runs: each worker keeps its database connection between requests.
        DB_CONN_MAX_AGE="300",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    env.pop("CELERY_BROKER_URL", None)
    return env


def start_server(
    kind: str, port: int, workers: int, env: dict[str, str], threads: int = 1
) -> subprocess.Popen[bytes]:
    if kind == "runserver":
        command = [PYTHON, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload", "--nostatic"]
    else:
        command = [PYTHON, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}", "-w", str(workers),
                   "--backlog", "4096", "--preload", "--log-level", "warning", "--timeout", "60"]  # fmt: skip
        if threads > 1:  # as the venue runs: threads per worker, keep-alive across a phone's polls
            command += ["--worker-class", "gthread", "--threads", str(threads), "--keep-alive", "10"]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def wait_ready(port: int, process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    import urllib.request

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(
                f"server exited: {process.stderr.read().decode()[-2000:] if process.stderr else ''}"
            )
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("server did not start")


def process_tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        current = todo.pop()
        pids.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):
            with contextlib.suppress(OSError):
                todo.extend(int(c) for c in (task / "children").read_text().split())
    return pids


def cpu_seconds(pid: int) -> float:
    total = 0
    for p in process_tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
        except (OSError, IndexError, ValueError):
            pass
    return total / CLOCK_TICKS


# --- database and event ---------------------------------------------------------------------------------


def setup_django(database_url: str, cache_url: str) -> None:
    os.environ.update(server_env(database_url, cache_url))
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def create_event(players: int) -> dict[str, Any]:
    """Migrate, then an event of ``players`` phone owners through the services; round 1 paired."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from accounts.models import User
    from cards.games import games_sync
    from cards.models import Game
    from tournaments import live, services

    games_sync()
    organizer = User.objects.create_user(
        username=f"org{secrets.token_hex(3)}", password=None, is_organizer=True
    )
    tournament = services.tournament_create(created_by=organizer, name="Bench Day", game=Game.objects.get(slug="yugioh"),
                                            format_slug="advanced", seed=7, rounds=5)  # fmt: skip
    tag = secrets.token_hex(3)
    users = User.objects.bulk_create([User(username=f"ph{tag}{i:05d}", password="!") for i in range(players)])
    phones = []
    for user in users:
        player = services.player_register(tournament=tournament, by=user, user=user)
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        phones.append({"cookie": f"{settings.SESSION_COOKIE_NAME}={session.session_key}",
                       "token": live.my_event_token(player_id=player.pk, user_id=user.pk)})  # fmt: skip
    # Registered lists of a real Yu-Gi-Oh! deck's shape: every phone's page shows its own (copied per
    # player, as registration copies it), so renders cost what they cost on the day.
    from django.utils import timezone

    tournament.players.update(deck=deck_snapshot(), deck_submitted_at=timezone.now())
    services.round_pair_next(tournament=tournament, by=organizer)
    session = SessionStore()
    session[SESSION_KEY] = str(organizer.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = organizer.get_session_auth_hash()
    session.create()
    organizer_cookie = f"{settings.SESSION_COOKIE_NAME}={session.session_key}"
    # The phones already have the page open (as in a room where round 1 is under way): each starts with
    # the ETag its page carried, computed the way the server computes it.
    for phone in phones:
        player_id, _user_id = live.my_event_token_read(phone["token"])
        phone["etag"] = live.my_event_etag(tournament_id=tournament.pk, player_id=player_id, language="en")
    return {
        "tournament": tournament,
        "organizer": organizer,
        "phones": phones,
        "organizer_cookie": organizer_cookie,
    }


def deck_snapshot() -> dict[str, Any]:
    """A registration snapshot of a typical 40 + 15 + 15 Yu-Gi-Oh! list: 17, 9 and 8 distinct cards."""
    sections: dict[str, list[dict[str, Any]]] = {}
    card = 0
    for slug, counts in (("main", [3] * 8 + [2] * 6 + [1] * 4), ("extra", [2] * 6 + [1] * 3),
                         ("side", [2] * 7 + [1])):  # fmt: skip
        lines = sections[slug] = []
        for count in counts:
            card += 1
            lines.append({"card_id": card, "external_id": str(10_000_000 + card), "count": count,
                          "name": f"Bench Card Number {card} of the Long-Named Archetype"})  # fmt: skip
    return {"hero": None, "sections": sections}


def settle_rest(tournament: Any) -> None:
    """The tables not reported through the services by now finish at once (written in bulk, one change
    announced), so "pair next round" runs on a complete round however slow the machine is."""
    from django.db import transaction

    from tournaments import live
    from tournaments.models import Match, MatchSeat

    round_ = tournament.round_set.order_by("-number").first()
    with transaction.atomic():
        open_ids = list(
            Match.objects.filter(round=round_, bye=False)
            .exclude(status__in=["confirmed", "final"])
            .values_list("id", flat=True)
        )
        MatchSeat.objects.filter(match_id__in=open_ids, seat=0).update(wins=2)
        MatchSeat.objects.filter(match_id__in=open_ids, seat=1).update(wins=0)
        Match.objects.filter(id__in=open_ids).update(status="final")
    live.live_version_bump(tournament_id=tournament.pk)


def organizer_work(
    tournament: Any, organizer: Any, seconds: float, wall_before: float, rate: float, out: Any
) -> None:
    """A real round's shape, compressed: results come in as tables finish (``rate`` a second; at the default
    2/s a 2,000-player round's 1,000 results take about 8 minutes), the rest of round 1 is settled at 40 %
    of the run, round 2 is posted (timed: the moment every phone in the room wants its new table at once),
    and round 2's first results come in at the same rate. The times go back through ``out``."""
    from django.db import connection

    from tournaments import services

    timeline: dict[str, float] = {}
    try:
        report_results(tournament, organizer, rate=rate, until=wall_before + seconds * POST_AT)
        settle_rest(tournament)
        started = time.monotonic()
        services.round_pair_next(tournament=tournament, by=organizer)
        timeline["pair_s"] = time.monotonic() - started
        timeline["posted"] = time.monotonic()
        report_results(tournament, organizer, rate=rate, until=wall_before + seconds - 1)
    finally:
        connection.close()
        out.put(timeline)


def report_results(tournament: Any, organizer: Any, *, rate: float, until: float) -> None:
    """Open matches of the latest round get results, ``rate`` a second, in random order, until ``until``."""
    from tournaments import services

    round_ = tournament.round_set.order_by("-number").first()
    matches = list(round_.matches.filter(bye=False, status="pending").order_by("?"))
    due = time.monotonic()
    for match in matches:
        due += 1 / rate
        if due > until:
            break
        time.sleep(max(0.0, due - time.monotonic()))
        services.match_report_result(
            match=match, by=organizer, wins=random.choice([[2, 0], [2, 1], [0, 2], [1, 2]])
        )
    time.sleep(max(0.0, until - time.monotonic()))


# --- phones ---------------------------------------------------------------------------------------------


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.started: list[float] = []  # when each request was sent (monotonic), for the storm window
        self.statuses: dict[int, int] = {}
        self.errors = 0
        self.bytes = 0
        self.first_seen_round2: dict[int, float] = {}
        self.org_latencies: list[float] = []
        self.org_statuses: dict[int, int] = {}


# The organizer's live pages, polled in turn by the dashboards (``--organizers``).
DASHBOARD_PAGES = ("round&round=1", "event", "check_in")


async def dashboard(index: int, session: Any, base: str, cookie: str, pk: int, stats: Stats, stop: float,
                    poll_s: float) -> None:  # fmt: skip
    """An organizer's desktop page left open: its fragment polled with its ETag, as live.js does."""
    url = f"{base}/tournaments/{pk}/organizer/live/?page={DASHBOARD_PAGES[index % len(DASHBOARD_PAGES)]}"
    headers = {"Cookie": cookie, "Accept-Encoding": "gzip"}
    await asyncio.sleep(random.uniform(0, poll_s))
    while time.monotonic() < stop:
        started = time.monotonic()
        try:
            async with session.get(url, headers=headers) as response:
                await response.read()
                stats.org_statuses[response.status] = stats.org_statuses.get(response.status, 0) + 1
                if response.status == 200 and response.headers.get("ETag"):
                    headers["If-None-Match"] = response.headers["ETag"]
        except Exception:
            stats.errors += 1
        stats.org_latencies.append(time.monotonic() - started)
        await asyncio.sleep(max(0.0, started + poll_s - time.monotonic()))


async def phone(index: int, session: Any, base: str, info: dict[str, Any], pk: int, stats: Stats,
                stop: float, poll_s: float) -> None:  # fmt: skip
    kind = index % 20
    if kind == 0:
        url, headers = f"{base}/tournaments/{pk}/projector/pairings/?fragment=1", {}
    elif kind == 10:
        url, headers = f"{base}/tournaments/{pk}/pairings/?fragment=1", {}
    else:
        url, headers = f"{base}/tournaments/{pk}/me/live/?k={info['token']}", {"Cookie": info["cookie"]}
    headers["Accept-Encoding"] = "gzip"
    etag = info.get("etag") if kind not in (0, 10) else None
    full_at: float | None = None  # when the page's script fetches the full page after a new-round notice
    await asyncio.sleep(random.uniform(0, poll_s))
    while time.monotonic() < stop:
        started = time.monotonic()
        full = full_at is not None and started >= full_at
        if etag and not full:
            headers["If-None-Match"] = etag
        else:
            headers.pop("If-None-Match", None)
        try:
            async with session.get(url, headers=headers) as response:
                body = await response.read()
                stats.statuses[response.status] = stats.statuses.get(response.status, 0) + 1
                stats.bytes += len(body)
                if response.status == 200:
                    etag = response.headers.get("ETag")
                    refresh = response.headers.get("X-Live-Refresh")
                    full_at = started + int(refresh) / 1000 if refresh else None if full else full_at
                    if response.headers.get("Content-Encoding") == "gzip":
                        body = gzip.decompress(body)  # as the phone's browser does
                    if index not in stats.first_seen_round2 and b'data-round="2"' in body:
                        stats.first_seen_round2[index] = time.monotonic()
        except Exception:
            stats.errors += 1
        stats.latencies.append(time.monotonic() - started)
        stats.started.append(started)
        wake = started + poll_s if full_at is None else min(started + poll_s, full_at)
        await asyncio.sleep(max(0.0, wake - time.monotonic()))


async def run_phones(port: int, phones: list[tuple[int, dict[str, Any]]], pk: int, stats: Stats,
                     seconds: float, poll_s: float, organizers: int = 0, cookie: str = "") -> None:  # fmt: skip
    import aiohttp

    stop = time.monotonic() + seconds
    connector = aiohttp.TCPConnector(limit=256, force_close=False)
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout, auto_decompress=False) as session:
        base = f"http://127.0.0.1:{port}"
        await asyncio.gather(*(phone(i, session, base, info, pk, stats, stop, poll_s) for i, info in phones),
                             *(dashboard(i, session, base, cookie, pk, stats, stop, poll_s)
                               for i in range(organizers)))  # fmt: skip


def phones_process(port: int, phones: list[tuple[int, dict[str, Any]]], pk: int, seconds: float,
                   poll_s: float, out: Any, organizers: int = 0, cookie: str = "") -> None:  # fmt: skip
    """One client process's share of the phones (and the first one's, the dashboards); its figures go back
    through ``out``."""
    stats = Stats()
    asyncio.run(run_phones(port, phones, pk, stats, seconds, poll_s, organizers, cookie))
    out.put((stats.__dict__, time.process_time()))


def run_all_phones(context: Any, port: int, phones: list[dict[str, Any]], pk: int, seconds: float,
                   poll_s: float, processes: int, organizers: int = 0, cookie: str = "") -> tuple[Stats, float]:  # fmt: skip
    """The phones in ``processes`` client processes: one event loop for 2,000 phones answers its own
    sockets so late that the server's workers wait for it (measured: p95 2.8 s with one loop, 26 ms with
    two, same server), and a real room's phones each have their own CPU. Returns the merged figures and
    the clients' CPU seconds."""
    queue = context.Queue()
    shares = [[(i, info) for i, info in enumerate(phones) if i % processes == k] for k in range(processes)]
    children = [context.Process(target=phones_process,
                                args=(port, share, pk, seconds, poll_s, queue, organizers if k == 0 else 0, cookie))
                for k, share in enumerate(shares)]  # fmt: skip
    for child in children:
        child.start()
    stats, cpu = Stats(), 0.0
    for _child in children:
        part, part_cpu = queue.get(timeout=seconds + 120)
        cpu += part_cpu
        stats.latencies += part["latencies"]
        stats.started += part["started"]
        stats.errors += part["errors"]
        stats.bytes += part["bytes"]
        stats.first_seen_round2.update(part["first_seen_round2"])
        stats.org_latencies += part["org_latencies"]
        for code, n in part["org_statuses"].items():
            stats.org_statuses[code] = stats.org_statuses.get(code, 0) + n
        for code, n in part["statuses"].items():
            stats.statuses[code] = stats.statuses.get(code, 0) + n
    for child in children:
        child.join()
    return stats, cpu


# --- one configuration ----------------------------------------------------------------------------------


def run_config(args: argparse.Namespace, phones_n: int, server: str) -> dict[str, Any]:
    """Runs in a child process (fresh settings and database per configuration)."""
    import multiprocessing

    postgres = args.postgres or bool(os.environ.get("DATABASE_URL"))
    if postgres:
        base_url = os.environ.get(
            "DATABASE_URL", "postgres://deckhall:deckhall@127.0.0.1:5432/deckhall_eventpages"
        )
        name = f"deckhall_bench_day_{os.getpid()}"
        _create_pg_database(base_url, name)
        database_url = base_url.rsplit("/", 1)[0] + "/" + name
        cache_url = os.environ.get("CACHE_URL", "redis://127.0.0.1:6379/8")
    else:
        database_url = f"sqlite:///{tempfile.gettempdir()}/bench_event_day_{os.getpid()}.sqlite3"
        # As the venue runs (settings: venue mode without CACHE_URL): the workers share a file cache.
        cache_url = f"file://{tempfile.gettempdir()}/bench_event_day_cache_{os.getpid()}"
    try:
        setup_django(database_url, cache_url)
        if cache_url.startswith("redis"):
            from django.core.cache import cache

            cache.clear()
        from tournaments import live

        event = create_event(phones_n)
        tournament, organizer = event["tournament"], event["organizer"]
        port = free_port()
        env = server_env(database_url, cache_url)
        from django.conf import settings

        env["SECRET_KEY"] = settings.SECRET_KEY  # the phones' tokens are signed with it
        process = start_server(server, port, args.workers, env, args.threads)
        try:
            wait_ready(port, process)
            poll_s = live.POLL_MS / 1000
            seconds = args.seconds
            cpu_before, wall_before = cpu_seconds(process.pid), time.monotonic()
            # The organizer's work runs in a process of its own: in a thread it would hold this process's
            # GIL for the whole pairing and stall the phones' event loop, which the phones would then
            # measure as server latency.
            from django.db import connections

            connections.close_all()
            context = multiprocessing.get_context("fork")
            timeline_queue = context.Queue()
            organizer_process = context.Process(
                target=organizer_work,
                args=(tournament, organizer, seconds, wall_before, args.results_per_second, timeline_queue),
            )
            organizer_process.start()
            stats, client_cpu = run_all_phones(context, port, event["phones"], tournament.pk, seconds, poll_s,
                                               args.client_processes, args.organizers,
                                               event["organizer_cookie"])  # fmt: skip
            timeline: dict[str, float] = timeline_queue.get(timeout=120)
            organizer_process.join()
            cpu = cpu_seconds(process.pid) - cpu_before
            # PostgreSQL's backends work for the server too (planning and running its queries).
            db_cpu = sum(cpu_seconds(pid) for pid in _pg_backends(base_url, name)) if postgres else 0.0
            wall = time.monotonic() - wall_before
        finally:
            process.terminate()
            process.wait(timeout=20)
        watchers = [i for i in range(phones_n) if i % 20 not in (0, 10)]
        posted = timeline.get("posted")
        seen = [stats.first_seen_round2.get(i) for i in watchers]
        visible = [s - posted for s in seen if s is not None and posted is not None]
        lat = sorted(stats.latencies) or [0.0]
        org = sorted(stats.org_latencies) or [0.0]
        # The storm: requests sent in the STORM_S seconds after round 2 was posted, when every phone
        # fetches its new page at once; "steady": everything before the posting.
        storm = sorted(x for t, x in zip(stats.started, stats.latencies, strict=True)
                       if posted is not None and posted <= t < posted + STORM_S) or [0.0]  # fmt: skip
        steady = sorted(x for t, x in zip(stats.started, stats.latencies, strict=True)
                        if posted is None or t < posted) or [0.0]  # fmt: skip
        return {
            "server": server
            if server == "runserver"
            else f"gunicorn {args.workers}x{args.threads}"
            if args.threads > 1
            else f"gunicorn x{args.workers}",
            "db": "PostgreSQL+Redis" if postgres else "SQLite",
            "phones": phones_n,
            "requests": len(stats.latencies),
            "rps": len(stats.latencies) / wall,
            "p50": statistics.median(lat) * 1000,
            "p95": lat[int(0.95 * (len(lat) - 1))] * 1000,
            "max": lat[-1] * 1000,
            "steady_p95": steady[int(0.95 * (len(steady) - 1))] * 1000,
            "storm_p50": statistics.median(storm) * 1000,
            "storm_p95": storm[int(0.95 * (len(storm) - 1))] * 1000,
            "not_modified": stats.statuses.get(304, 0) / max(1, len(stats.latencies)),
            "errors": stats.errors + sum(n for code, n in stats.statuses.items() if code >= 400),
            "cpu": 100 * cpu / wall,
            "db_cpu": 100 * db_cpu / wall,
            "cpu_ms": 1000 * cpu / max(1, len(stats.latencies)),
            "client_cpu": 100 * client_cpu / wall,
            "kb_per_req": stats.bytes / 1024 / max(1, len(stats.latencies)),
            "pair_s": timeline.get("pair_s", float("nan")),
            "seen_all_s": max(visible) if len(visible) == len(watchers) and visible else float("nan"),
            "seen_p95_s": sorted(visible)[int(0.95 * (len(visible) - 1))] if visible else float("nan"),
            "missed": len(watchers) - len(visible),
            "statuses": stats.statuses,
            "org_requests": len(stats.org_latencies),
            "org_p50": statistics.median(org) * 1000,
            "org_p95": org[int(0.95 * (len(org) - 1))] * 1000,
            "org_max": org[-1] * 1000,
            "org_statuses": stats.org_statuses,
            "p95_by_5s": _p95_by_window(stats, wall_before, posted),
        }
    finally:
        if not postgres:
            shutil.rmtree(cache_url.removeprefix("file://"), ignore_errors=True)
            for suffix in ("", "-wal", "-shm"):
                Path(database_url.removeprefix("sqlite:///") + suffix).unlink(missing_ok=True)
        else:
            from django.db import connections

            connections.close_all()
            _drop_pg_database(base_url, name)


def _p95_by_window(stats: Stats, start: float, posted: float | None, window: float = 5.0) -> list[str]:
    """p95 (ms) and requests of each ``window`` seconds of the run; "*" marks the window of the posting."""
    buckets: dict[int, list[float]] = {}
    for sent, latency in zip(stats.started, stats.latencies, strict=True):
        buckets.setdefault(int((sent - start) // window), []).append(latency)
    marks = []
    for key in sorted(buckets):
        values = sorted(buckets[key])
        star = "*" if posted is not None and key == int((posted - start) // window) else ""
        marks.append(
            f"{star}{key * window:.0f}s:{values[int(0.95 * (len(values) - 1))] * 1000:.0f}ms/{len(values)}"
        )
    return marks


def _admin_url(base_url: str) -> str:
    # The maintenance database: DATABASE_URL's own database need not exist.
    return base_url.replace("postgres://", "postgresql://").rsplit("/", 1)[0] + "/postgres"


def _pg_backends(base_url: str, name: str) -> list[int]:
    """The server processes of PostgreSQL serving the bench database (the web workers keep theirs)."""
    import psycopg

    with psycopg.connect(_admin_url(base_url), autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [name]).fetchall()
    return [int(pid) for (pid,) in rows]


def _create_pg_database(base_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(_admin_url(base_url), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')


def _drop_pg_database(base_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(_admin_url(base_url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--phones", default="500,2000")
    parser.add_argument("--servers", default="runserver,gunicorn")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--client-processes", type=int, default=4, help="processes simulating the phones")
    parser.add_argument("--results-per-second", type=float, default=2.0)
    parser.add_argument("--threads", type=int, default=1, help="gunicorn threads per worker (>1: gthread)")
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--organizers", type=int, default=2, help="organizer dashboards polling")
    parser.add_argument(
        "--postgres", action="store_true", help="PostgreSQL + Redis (DATABASE_URL / CACHE_URL)"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        phones_n, server = args.child.split(":")
        print(json.dumps(run_config(args, int(phones_n), server)))
        return
    rows = []
    for server in args.servers.split(","):
        for n in (int(x) for x in args.phones.split(",")):
            command = [PYTHON, __file__, "--child", f"{n}:{server}", "--workers", str(args.workers), "--threads", str(args.threads), "--results-per-second", str(args.results_per_second),
                       "--client-processes", str(args.client_processes), "--organizers", str(args.organizers),
                       "--seconds", str(args.seconds)] + (["--postgres"] if args.postgres else [])  # fmt: skip
            done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
            if done.returncode != 0:
                print(f"{server} {n}: failed\n{done.stderr[-3000:]}", file=sys.stderr)
                continue
            rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
            print_table(rows[-1:], header=len(rows) == 1)
            print("   p95 by 5 s window (* = round 2 posted):", " ".join(rows[-1]["p95_by_5s"]), flush=True)
    print()
    print_table(rows, header=True)
    print(f"load average (1, 5, 15 min) at the end: {os.getloadavg()}, cores: {os.cpu_count()}")


COLUMNS = [("server", "server", "{:<13}"), ("db", "db", "{:<16}"), ("phones", "phones", "{:>6}"),
           ("rps", "req/s", "{:>6.0f}"), ("p50", "p50 ms", "{:>6.0f}"), ("p95", "p95 ms", "{:>6.0f}"),
           ("max", "max ms", "{:>6.0f}"), ("steady_p95", "steady p95", "{:>10.0f}"),
           ("storm_p50", "storm p50", "{:>9.0f}"), ("storm_p95", "storm p95", "{:>9.0f}"), ("not_modified", "304", "{:>4.0%}"), ("errors", "errors", "{:>6}"),
           ("kb_per_req", "KB/req", "{:>6.1f}"), ("cpu", "CPU %", "{:>5.0f}"), ("db_cpu", "DB CPU %", "{:>8.0f}"), ("cpu_ms", "CPU ms/req", "{:>10.1f}"), ("client_cpu", "client CPU %", "{:>12.0f}"), ("pair_s", "pair s", "{:>6.2f}"),
           ("seen_all_s", "all see s", "{:>9.1f}"), ("seen_p95_s", "p95 see s", "{:>9.1f}"),
           ("missed", "missed", "{:>6}"), ("org_p50", "org p50 ms", "{:>10.0f}"), ("org_p95", "org p95 ms", "{:>10.0f}"),
           ("org_max", "org max ms", "{:>10.0f}")]  # fmt: skip


def print_table(rows: list[dict[str, Any]], *, header: bool) -> None:
    if header:
        print(" ".join(title.ljust(len(fmt.format(0 if key not in ("server", "db") else ""))) if key in ("server", "db")
                       else title.rjust(len(fmt.format(0))) for key, title, fmt in COLUMNS))  # fmt: skip
    for row in rows:
        print(" ".join(fmt.format(row[key]) for key, _title, fmt in COLUMNS), flush=True)


if __name__ == "__main__":
    main()
