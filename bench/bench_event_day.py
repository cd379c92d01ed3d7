"""Event day under load, as a real room behaves: N phones on one event over HTTP while the
organizer works, against the venue server (SQLite, gunicorn gthread) or a cluster (--postgres --nodes 1,2).

    .venv/bin/python bench/bench_event_day.py [--phones 2000] [--seconds 90] [--workers 3] [--threads 4]
            [--cold 0.1] [--reload-s 120] [--organizers 2] [--projectors 1] [--results-per-second 2]
            [--postgres --nodes 1,2 --threads 1 --workers 4 --cpu-per-kind] [--assert]

The room: 5 % of the phones on the standings page, 5 % on the pairings page (each opened cold, its live
fragment polled as live.js does, or the page reloaded every --page-reload-s when it has none), the rest on
"My event" (signed in; --cold of them open the page and its static files first, arriving over round 1,
the others have it open already; every phone reloads now and then, --reload-s on average; a reload asks only for static files that
are not immutable). The projector shows pairings, standings and timer (--projectors). Players report
results through the match form and their opponents confirm the version the match page shows, at
--results-per-second; at 30 % of the run the tables still open finish at once (in bulk), the organizer pairs
round 2 through the event page's button and lands on the round dashboard, and starts its clock 10 s later
over HTTP; --organizers dashboards poll the organizer's live fragments all along.

Printed per run: p50/p95/max/errors/KB per request kind, p95 per 5-s window (P: posted, T: clock started),
KB per phone per minute on the wire (per kind of phone), the time until every My-event phone shows its
new table, the organizer's dashboard p95, server / PostgreSQL / Redis CPU. --cpu-per-kind adds the CPU
of each kind alone (304 poll, My event render, standings, game report); with --postgres, the nodes needed
for 10,000 and 50,000 phones and what limits the next node. --assert: exit status 1 unless every run meets
the issue's targets (listed in --help).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import json
import math
import os
import random
import re
import resource
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


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
    kind: str, port: int, workers: int, env: dict[str, str], threads: int = 1, tree: Path = ROOT
) -> subprocess.Popen[bytes]:
    if kind == "runserver":
        command = [PYTHON, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload", "--nostatic"]
    else:
        command = [PYTHON, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}", "-w", str(workers),
                   "--backlog", "4096", "--preload", "--log-level", "warning", "--timeout", "60"]  # fmt: skip
        if threads > 1:  # as the venue runs: threads per worker, keep-alive across a phone's polls
            command += ["--worker-class", "gthread", "--threads", str(threads), "--keep-alive", "10"]
    return subprocess.Popen(command, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def server_tree(revision: str) -> Path:
    """The server's code as of ``revision`` (``git archive``) in a temporary folder, with this checkout's
    collected static files: the "before" of a side-by-side run serves the same database and files."""
    tree = Path(tempfile.mkdtemp(prefix="bench_event_day_before_"))
    archive = subprocess.run(["git", "archive", revision], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    (tree / "staticfiles").symlink_to(ROOT / "staticfiles")
    return tree


def database_fill(path: str, megabytes: float) -> None:
    """Grow the bench's database to the size of a venue's (the issue's was 19 MB: its card pool, decks and
    history, which the bench's event alone does not have) with rows of a table of the bench's own, indexed
    like the site's tables: what a snapshot copies and checks costs what it costs on the day."""
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        size = (
            conn.execute("PRAGMA page_count").fetchone()[0] * conn.execute("PRAGMA page_size").fetchone()[0]
        )
        missing = int(megabytes * 1024 * 1024 - size)
        if missing <= 0:
            return
        conn.execute(
            "CREATE TABLE IF NOT EXISTS bench_card_pool (id INTEGER PRIMARY KEY, name TEXT, text TEXT)"
        )
        conn.execute("CREATE INDEX IF NOT EXISTS bench_card_pool_name ON bench_card_pool (name)")
        rows = missing // 700
        conn.executemany("INSERT INTO bench_card_pool (name, text) VALUES (?, ?)",
                         ((f"Card {i:07d} {secrets.token_hex(8)}", secrets.token_hex(300)) for i in range(rows)))  # fmt: skip
        conn.commit()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def snapshot_env(env: dict[str, str], folder: str) -> None:
    """Venue snapshots as `make venue` takes them (one after each result burst, every 5 s at most)."""
    env.update(VENUE_SNAPSHOTS="1", VENUE_SNAPSHOT_DIR=folder, VENUE_SNAPSHOT_INTERVAL="5")


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


def connections_per_worker(master: int, port: int) -> dict[int, int]:
    """The established connections each worker of ``master`` holds on ``port`` (Linux /proc: the sockets'
    inodes in /proc/net/tcp, matched with each worker's open files)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if fields[3] == "01" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(fields[9])
    held = {}
    for pid in process_tree(master):
        if pid == master:
            continue
        count = 0
        with contextlib.suppress(OSError):
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with contextlib.suppress(OSError):
                    link = os.readlink(fd)
                    count += link.startswith("socket:[") and link[8:-1] in inodes
        held[pid] = count
    return held


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
    # Pages name their CSS/JS through the manifest (DEBUG off): collected as `make venue` collects them.
    from venue.management.commands.venue import Command as VenueCommand

    VenueCommand(stdout=sys.stderr)._collectstatic_if_changed()
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
        # A browser's CSRF cookie (any 32 letters: Django checks the form's copy against it), sent back in
        # the X-CSRFToken header by the forms' posts.
        csrf = secrets.token_hex(16)
        phones.append({"cookie": f"{settings.SESSION_COOKIE_NAME}={session.session_key}; csrftoken={csrf}",
                       "csrf": csrf, "user_id": user.pk,
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
    organizer_csrf = secrets.token_hex(16)
    organizer_cookie = f"{settings.SESSION_COOKIE_NAME}={session.session_key}; csrftoken={organizer_csrf}"
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
        "organizer_csrf": organizer_csrf,
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


# --- what every client records --------------------------------------------------------------------------

POST_AT = 0.3  # round 2 is posted at this share of the run (round 1's results come in before)
TIMER_AFTER_S = 10.0  # the organizer starts round 2's clock this long after posting it (at most)
ASSET = re.compile(rb'(?:href|src)="(/static/[^"]+)"')
LIVE_URL = re.compile(rb'data-live-url="([^"]+)"')
LIVE_ETAG = re.compile(rb'data-live-etag="([^"]*)"')
VERSION = re.compile(rb'name="version" value="(\d+)"')


class Stats:
    """Every request one client process made: kind, when sent, latency, status, bytes on the wire, phone."""

    def __init__(self) -> None:
        self.kind: list[str] = []
        self.started: list[float] = []
        self.latency: list[float] = []
        self.status: list[int] = []
        self.nbytes: list[int] = []
        self.phone: list[int] = []
        self.error_samples: list[str] = []
        self.first_seen_round2: dict[int, float] = {}
        self.timeline: dict[str, float] = {}
        self.connections = 0  # TCP connections the phones opened (each phone has its own, as a browser)

    def add(self, kind: str, started: float, status: int, nbytes: int, phone: int) -> None:
        self.kind.append(kind)
        self.started.append(started)
        self.latency.append(time.monotonic() - started)
        self.status.append(status)
        self.nbytes.append(nbytes)
        self.phone.append(phone)

    def merge(self, part: dict[str, Any]) -> None:
        for key in ("kind", "started", "latency", "status", "nbytes", "phone", "error_samples"):
            getattr(self, key).extend(part[key])
        self.first_seen_round2.update({int(k): v for k, v in part["first_seen_round2"].items()})
        self.timeline.update(part["timeline"])
        self.connections += part["connections"]


def is_error(status: int) -> bool:
    return status == 0 or status >= 400


async def fetch(session: Any, stats: Stats, kind: Any, method: str, url: str, *, phone: int = -1,
                headers: dict[str, str] | None = None, data: Any = None) -> tuple[int, Any, bytes]:  # fmt: skip
    """One request, recorded under ``kind`` (a name, or a function of status and headers naming it). The
    body comes back decompressed, as the browser hands it to the page; the wire bytes are what is counted."""
    started = time.monotonic()
    headers = {"Accept-Encoding": "gzip, deflate", **(headers or {})}
    try:
        async with session.request(
            method, url, headers=headers, data=data, allow_redirects=False
        ) as response:
            wire = await response.read()
            status, got = response.status, response.headers
    except Exception as exc:  # a refused or timed-out request: an error of its kind, never a crash
        name = kind if isinstance(kind, str) else kind(0, {})
        stats.add(name, started, 0, 0, phone)
        if len(stats.error_samples) < 10:
            stats.error_samples.append(f"{name} {url}: {type(exc).__name__} {exc}"[:300])
        return 0, {}, b""
    name = kind if isinstance(kind, str) else kind(status, got)
    stats.add(name, started, status, len(wire), phone)
    if is_error(status) and len(stats.error_samples) < 10:
        stats.error_samples.append(f"{name} {method} {url}: {status}")
    body = gzip.decompress(wire) if got.get("Content-Encoding") == "gzip" and wire else wire
    return status, got, body


def poll_kind(status: int, headers: Any) -> str:
    """A My-event poll: unchanged (304), the short new-round notice, the clock notice (the round clock was
    started, paused or extended: only the clock is sent), or the fragment rendered."""
    if status == 304:
        return "poll 304"
    if headers.get("X-Live-Clock"):
        return "clock notice"
    return "notice" if headers.get("X-Live-Refresh") else "poll render"


def shared_poll_kind(page: str) -> Any:
    """A shared page's fragment poll (pairings, projector, standings): unchanged, or served anew."""

    def kind(status: int, headers: Any) -> str:
        return f"{page} poll {'304' if status == 304 else 'clock' if headers.get('X-Live-Clock') else 'new'}"

    return kind


class Browser:
    """One phone's browser: its cookies, and the static files it holds (hashed files are immutable: a
    reload does not ask for them again; others are revalidated with their ETag)."""

    def __init__(self, cookie: str = "", csrf: str = "", shared: dict[str, str | None] | None = None) -> None:
        self.headers = {"Cookie": cookie} if cookie else {}
        self.csrf = csrf
        self.assets: dict[str, str | None] = {}  # url → ETag to revalidate with, None: immutable
        # A phone that had the page open before the run holds its files already: what any browser of this
        # process learned about them (``shared``) stands for what it cached.
        self.shared = shared

    async def open(self, session: Any, stats: Stats, base: str, path: str, kind: str, phone: int) -> bytes:
        """Open a page as a browser does: the HTML, then every CSS/JS/icon it names that is not cached."""
        status, _headers, body = await fetch(session, stats, kind, "GET", base + path, phone=phone,
                                             headers=self.headers)  # fmt: skip
        if status != 200:
            return b""
        for raw in dict.fromkeys(ASSET.findall(body)):
            url = base + raw.decode().replace("&amp;", "&")
            known = self.assets if self.shared is None or url in self.assets else self.shared
            held = known.get(url, "")
            if url in known and held is None:
                continue
            headers = {"If-None-Match": held} if held else {}
            got_status, got, _b = await fetch(
                session, stats, "static", "GET", url, phone=phone, headers=headers
            )
            if got_status == 200:
                immutable = "immutable" in got.get("Cache-Control", "")
                self.assets[url] = None if immutable else got.get("ETag", "")
                if self.shared is not None:
                    self.shared[url] = self.assets[url]
        return body


class Room:
    """What every client of one process shares: the session, the server(s), the event, the clock."""

    def __init__(self, session: Any, bases: list[str], pk: int, stats: Stats, stop: float, poll_s: float,
                 args: argparse.Namespace) -> None:  # fmt: skip
        self.session, self.bases, self.pk, self.stats = session, bases, pk, stats
        self.stop, self.poll_s, self.args = stop, poll_s, args
        self.current_round = 1  # the organizer's dashboards follow the round being played
        # Phones that open the site cold arrive over round 1 (doors open, phones woken), not all in the same
        # second; all before round 2 is posted, so their new table is timed like everyone's.
        self.arrivals_s = max(poll_s, 0.8 * POST_AT * args.seconds)
        self.assets: dict[str, str | None] = {}  # the static files as the phones' browsers learned them

    def phone_session(self) -> Any:
        """A phone's own browser connection(s): kept alive between polls as long as the server keeps them
        (the client would keep them 30 s); every connection opened is counted."""
        import aiohttp

        async def opened(*_args: Any) -> None:
            self.stats.connections += 1

        trace = aiohttp.TraceConfig()
        trace.on_connection_create_end.append(opened)
        return aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=6, keepalive_timeout=30), trace_configs=[trace],
            timeout=aiohttp.ClientTimeout(total=30), auto_decompress=False, cookie_jar=aiohttp.DummyCookieJar(),
        )  # fmt: skip

    def base(self, index: int) -> str:
        return self.bases[index % len(self.bases)]  # the load balancer: phones spread over the nodes


async def live_poll(room: Room, session: Any, browser: Browser, base: str, url: str, etag: str, index: int,
                    until: float, watch: bool, kind: Any = poll_kind) -> str:  # fmt: skip
    """Poll a live fragment exactly as live.js does until ``until`` (If-None-Match; after a notice, the full
    fragment at X-Live-Refresh). Returns the last ETag."""
    full_at: float | None = None
    while time.monotonic() < min(until, room.stop):
        started = time.monotonic()
        full = full_at is not None and started >= full_at
        headers = dict(browser.headers)
        if etag and not full:
            headers["If-None-Match"] = etag
        status, got, body = await fetch(session, room.stats, kind, "GET", base + url, phone=index,
                                        headers=headers)  # fmt: skip
        if status == 200:
            etag = got.get("ETag", etag)
            refresh = got.get("X-Live-Refresh")
            full_at = started + int(refresh) / 1000 if refresh else None if full else full_at
            if watch:
                seen(room, index, body)
        wake = started + room.poll_s if full_at is None else min(started + room.poll_s, full_at)
        await asyncio.sleep(max(0.0, wake - time.monotonic()))
    return etag


def seen(room: Room, index: int, body: bytes) -> None:
    if index not in room.stats.first_seen_round2 and b'data-round="2"' in body:
        room.stats.first_seen_round2[index] = time.monotonic()


async def my_event_phone(room: Room, index: int, info: dict[str, Any], cold: bool) -> None:
    """A player's phone on "My event": cold (page and static files first) or with the page already open,
    polling its fragment, and reloading the page now and then (a tap on reload, a locked phone woken)."""
    browser = Browser(info["cookie"], info["csrf"], shared=None if cold else room.assets)
    base, page = room.base(index), f"/tournaments/{room.pk}/me/"
    url, etag = f"/tournaments/{room.pk}/me/live/?k={info['token']}", info["etag"]
    await asyncio.sleep(random.uniform(0, room.arrivals_s if cold else room.poll_s))
    async with room.phone_session() as session:
        while time.monotonic() < room.stop:
            if cold:
                body = await browser.open(session, room.stats, base, page, "my event page", index)
                seen(room, index, body)
                if (found := LIVE_URL.search(body)) is not None:
                    url = found.group(1).decode().replace("&amp;", "&")
                    etag = (m.group(1).decode() if (m := LIVE_ETAG.search(body)) else "").replace(
                        "&quot;", '"'
                    )
            cold = True  # every later open is a reload
            until = time.monotonic() + random.expovariate(1 / room.args.reload_s)
            etag = await live_poll(room, session, browser, base, url, etag, index, until, watch=True)


async def page_phone(room: Room, index: int, path: str, kind: str, cookie: str = "") -> None:
    """A phone (or the projector) on a page everyone shares: opened cold; its live fragment polled when the
    page has one, else the whole page reloaded every --page-reload-s (as people pull to refresh)."""
    browser = Browser(cookie)
    base = room.base(index)
    await asyncio.sleep(
        random.uniform(0, room.poll_s if index < 0 else room.arrivals_s)
    )  # the projector first
    async with room.phone_session() as session:
        while time.monotonic() < room.stop:
            body = await browser.open(session, room.stats, base, path, kind, index)
            until = time.monotonic() + room.args.page_reload_s
            found = LIVE_URL.search(body)
            if found is None:
                await asyncio.sleep(max(0.0, min(until, room.stop) - time.monotonic()))
                continue
            url = found.group(1).decode().replace("&amp;", "&")
            etag = (m.group(1).decode() if (m := LIVE_ETAG.search(body)) else "").replace("&quot;", '"')
            await live_poll(room, session, browser, base, url, etag, index, room.stop, watch=False,
                            kind=shared_poll_kind(kind.removesuffix(" page")))  # fmt: skip


# --- the organizer and the players' results (over HTTP, as the pages post them) --------------------------


def form_post(browser: Browser) -> dict[str, str]:
    return {**browser.headers, "X-CSRFToken": browser.csrf, "Idempotency-Key": str(uuid.uuid4())}


async def organizer_day(room: Room, tournament_id: int, phones: list[dict[str, Any]], cookie: str, csrf: str,
                        wall_before: float) -> None:  # fmt: skip
    """Results come in as tables finish (``--results-per-second``: one player reports through the match
    form, the opponent opens the match page and confirms the version shown); at POST_AT of the run the
    tables still open finish at once (written in bulk: the organizer cannot pair an unfinished round), the
    organizer pairs round 2 on the event page and lands on its dashboard, starts the round clock
    TIMER_AFTER_S later, and round 2's results come in. The organizer's dashboards poll all along."""
    organizer = Browser(cookie, csrf)
    by_user = {info["user_id"]: Browser(info["cookie"], info["csrf"]) for info in phones}
    base, pk, args = room.bases[0], tournament_id, room.args
    timeline = room.stats.timeline
    await results(room, by_user, round_number=1, until=wall_before + args.seconds * POST_AT)
    await asyncio.to_thread(settle_rest_by_id, tournament_id)
    status, got, _body = await fetch(room.session, room.stats, "pair", "POST", f"{base}/tournaments/{pk}/pair/",
                                     headers=form_post(organizer), data={"confirmed": "yes"})  # fmt: skip
    timeline["posted"] = time.monotonic()
    timeline["pair_s"] = room.stats.latency[-1] if status in (302, 303) else float("nan")
    await land_on_dashboard(room, organizer, base, status, got)
    room.current_round = 2
    # A short run still sees the clock started (and its effect) before it ends.
    timer_at = timeline["posted"] + min(TIMER_AFTER_S, (room.stop - timeline["posted"]) / 2)
    await asyncio.gather(results(room, by_user, round_number=2, until=room.stop - 1),
                         start_timer(room, organizer, base, pk, timer_at))  # fmt: skip


async def start_timer(room: Room, organizer: Browser, base: str, pk: int, at: float) -> None:
    if at >= room.stop:
        return
    await asyncio.sleep(max(0.0, at - time.monotonic()))
    room.stats.timeline["timer"] = time.monotonic()
    status, got, _b = await fetch(room.session, room.stats, "timer start", "POST",
                                  f"{base}/tournaments/{pk}/rounds/2/timer/", headers=form_post(organizer),
                                  data={"minutes": "50"})  # fmt: skip
    await land_on_dashboard(room, organizer, base, status, got)


async def land_on_dashboard(room: Room, organizer: Browser, base: str, status: int, got: Any) -> None:
    """The dashboard an organizer's form post redirects to, opened as the browser would."""
    if status in (302, 303):
        await fetch(room.session, room.stats, "org dashboard", "GET", base + got["Location"],
                    headers=organizer.headers)  # fmt: skip


async def results(room: Room, by_user: dict[int, Browser], *, round_number: int, until: float) -> None:
    pending = await asyncio.to_thread(open_matches, room.pk, round_number)
    if room.args.pour and round_number == 1:
        await pour_in(room, by_user, pending, until)
        return
    due = time.monotonic()
    for index, (match_id, reporter, confirmer, _rp, _cp) in enumerate(pending):
        due += 1 / room.args.results_per_second
        if due > until:
            break
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        base = room.base(index)
        wins = random.choice([("2", "0"), ("2", "1"), ("0", "2"), ("1", "2")])
        status, _g, _b = await fetch(room.session, room.stats, "report", "POST",
                                     f"{base}/tournaments/matches/{match_id}/report/",
                                     headers=form_post(by_user[reporter]),
                                     data={"wins_a": wins[0], "wins_b": wins[1], "draws": "0"})  # fmt: skip
        if status not in (302, 303):
            continue
        _s, _g, page = await fetch(room.session, room.stats, "match page", "GET",
                                   f"{base}/tournaments/matches/{match_id}/", headers=by_user[confirmer].headers)  # fmt: skip
        if (version := VERSION.search(page)) is not None:
            await fetch(room.session, room.stats, "confirm", "POST", f"{base}/tournaments/matches/{match_id}/confirm/",
                        headers=form_post(by_user[confirmer]), data={"version": version.group(1).decode()})  # fmt: skip
    await asyncio.sleep(max(0.0, until - time.monotonic()))


async def pour_in(room: Room, by_user: dict[int, Browser], pending: list[tuple[int, int, int, int, int]],
                  until: float) -> None:  # fmt: skip
    """Results pour in as at a real table: from the first second of the run, ``--pour-per-second`` tables
    at a time finish; at each the reporting player saves the games one by one through the match page's
    game form (who went first, who won; the loser of a game chooses who goes first in the next), and the
    opponent opens the match page and confirms the version it shows. The window is recorded."""
    timeline, tasks = room.stats.timeline, []
    timeline["pour_start"] = time.monotonic()

    async def table(index: int, match_id: int, reporter: int, confirmer: int, me: int, them: int) -> None:
        base = room.base(index)
        url = f"{base}/tournaments/matches/{match_id}/"
        winners = random.choice([(me, me), (me, them, me), (them, them), (them, me, them)])
        first, chooser = me, None
        for number, winner in enumerate(winners, start=1):
            data = {"number": str(number), "first": str(first), "winner": str(winner), "previous": "",
                    "next": f"/tournaments/matches/{match_id}/"}  # fmt: skip
            if chooser is not None:
                data["chooser"] = str(chooser)
            await fetch(room.session, room.stats, "game save", "POST", url + "games/",
                        headers=form_post(by_user[reporter]), data=data)  # fmt: skip
            chooser = first = them if winner == me else me  # the loser chooses, and goes first
            await asyncio.sleep(random.uniform(1.0, 3.0))  # the next game's result, typed on the phone
        _s, _g, page = await fetch(room.session, room.stats, "match page", "GET", url,
                                   headers=by_user[confirmer].headers)  # fmt: skip
        if (version := VERSION.search(page)) is not None:
            status, _g, _b = await fetch(room.session, room.stats, "confirm", "POST", url + "confirm/",
                                         headers=form_post(by_user[confirmer]),
                                         data={"version": version.group(1).decode()})  # fmt: skip
            room.stats.timeline["confirmed"] = room.stats.timeline.get("confirmed", 0) + (
                status in (302, 303)
            )

    due = time.monotonic()
    for index, (match_id, reporter, confirmer, me, them) in enumerate(pending):
        due += 1 / room.args.pour_per_second
        if due > until - 8:  # the last tables' games and confirms end before round 2 is posted
            break
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        tasks.append(asyncio.create_task(table(index, match_id, reporter, confirmer, me, them)))
    await asyncio.gather(*tasks)
    timeline["pour_end"] = time.monotonic()
    timeline["tables"] = len(tasks)
    await asyncio.sleep(max(0.0, until - time.monotonic()))


async def dashboard(room: Room, index: int, cookie: str) -> None:
    """An organizer's desktop page left open: its fragment polled with its ETag, as live.js does; the round
    dashboard follows the round being played."""
    headers = {"Cookie": cookie}
    page = DASHBOARD_PAGES[index % len(DASHBOARD_PAGES)]
    etag, last_url = "", ""
    await asyncio.sleep(random.uniform(0, room.poll_s))
    while time.monotonic() < room.stop:
        started = time.monotonic()
        query = f"round&round={room.current_round}" if page == "round" else page
        url = f"{room.bases[0]}/tournaments/{room.pk}/organizer/live/?page={query}"
        if url != last_url:  # the page is opened (again, for a new round) before its fragment is polled
            etag, last_url = "", url
            full = {"round": f"rounds/{room.current_round}/", "event": "", "check_in": "check-in/"}[page]
            _s, _g, body = await fetch(room.session, room.stats, "org dashboard", "GET",
                                       f"{room.bases[0]}/tournaments/{room.pk}/{full}", headers=headers)  # fmt: skip
            etag = (m.group(1).decode() if (m := LIVE_ETAG.search(body)) else "").replace("&quot;", '"')
            await asyncio.sleep(max(0.0, started + room.poll_s - time.monotonic()))
            started = time.monotonic()
        sent = {**headers, "If-None-Match": etag} if etag else headers
        status, got, _b = await fetch(room.session, room.stats, "org fragment", "GET", url, headers=sent)
        if status == 200:
            etag = got.get("ETag", "")
        await asyncio.sleep(max(0.0, started + room.poll_s - time.monotonic()))


# The organizer's live pages, polled in turn by the dashboards (``--organizers``).
DASHBOARD_PAGES = ("round", "event", "check_in")


def settle_rest_by_id(tournament_id: int) -> None:
    from django.db import connection

    from tournaments.models import Tournament

    try:
        settle_rest(Tournament.objects.get(pk=tournament_id))
    finally:
        connection.close()


def open_matches(tournament_id: int, number: int) -> list[tuple[int, int, int, int, int]]:
    """(match, reporting user, confirming user, reporting player, confirming player) of the round's open
    two-player tables, in random order.
    Read from the database: which phone sits where is what each phone's own page told it."""
    from django.db import connection

    from tournaments.models import MatchSeat

    try:
        seats: dict[int, dict[int, tuple[int, int]]] = {}
        for match_id, seat, user_id, player_id in MatchSeat.objects.filter(
            match__round__tournament_id=tournament_id, match__round__number=number, match__bye=False,
            match__status="pending").values_list("match_id", "seat", "player__user_id", "player_id"):  # fmt: skip
            seats.setdefault(match_id, {})[seat] = (user_id, player_id)
    finally:
        connection.close()
    found = [(m, s[0][0], s[1][0], s[0][1], s[1][1]) for m, s in seats.items()
             if 0 in s and 1 in s and s[0][0] and s[1][0]]  # fmt: skip
    random.shuffle(found)
    return found


async def warm_up(bases: list[str], event: dict[str, Any], args: argparse.Namespace) -> None:
    """Every page kind a few times per worker thread of every node before the clock starts, unmeasured: on
    the day the server has been up since registration, and a fresh worker's first render of each template
    (compiling it, opening its database connection) is not what a room waits for."""
    import aiohttp

    pk, phones = event["pk"], event["phones"]
    organizer = {"Cookie": event["organizer_cookie"]}
    paths = [(f"/tournaments/{pk}/{page}", organizer) for page in ("", "rounds/1/", "check-in/", "standings/",
             "pairings/", "projector/pairings/", "projector/standings/", "projector/timer/")]  # fmt: skip
    paths += [(f"/tournaments/{pk}/me/", {"Cookie": info["cookie"]}) for info in phones[:8]]
    gate = asyncio.Semaphore(args.workers * args.threads)
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session:

        async def get(url: str, headers: dict[str, str]) -> None:
            async with gate, session.get(url, headers=headers) as response:
                await response.read()

        rounds = 2 * args.workers * args.threads
        await asyncio.gather(*(get(base + path, headers) for base in bases for path, headers in paths
                               for _ in range(max(1, rounds // 4))))  # fmt: skip


# --- client processes -----------------------------------------------------------------------------------


async def run_clients(bases: list[str], phones: list[tuple[int, dict[str, Any]]], event: dict[str, Any],
                      args: argparse.Namespace, poll_s: float, stats: Stats, stop: float, with_organizer: bool,
                      wall_before: float) -> None:  # fmt: skip
    import aiohttp

    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout, auto_decompress=False,
                                     cookie_jar=aiohttp.DummyCookieJar()) as session:  # fmt: skip
        room = Room(session, bases, event["pk"], stats, stop, poll_s, args)
        tasks = []
        for index, info in phones:
            kind = index % 20
            if kind == 0:  # 5 %: the standings
                tasks.append(
                    page_phone(
                        room, index, f"/tournaments/{room.pk}/standings/", "standings page", info["cookie"]
                    )
                )
            elif kind == 10:  # 5 %: the pairings
                tasks.append(
                    page_phone(
                        room, index, f"/tournaments/{room.pk}/pairings/", "pairings page", info["cookie"]
                    )
                )
            else:
                tasks.append(my_event_phone(room, index, info, cold=random.random() < args.cold))
        if with_organizer:
            tasks.append(organizer_day(room, event["pk"], event["phones"], event["organizer_cookie"],
                                       event["organizer_csrf"], wall_before))  # fmt: skip
            tasks += [dashboard(room, i, event["organizer_cookie"]) for i in range(args.organizers)]
            pages = ("pairings", "standings", "timer")
            tasks += [page_phone(room, -1 - i, f"/tournaments/{room.pk}/projector/{pages[i % 3]}/", "projector page")
                      for i in range(args.projectors)]  # fmt: skip
        await asyncio.gather(*tasks)


def client_process(bases: list[str], phones: list[tuple[int, dict[str, Any]]], event: dict[str, Any],
                   args: argparse.Namespace, poll_s: float, stop: float, with_organizer: bool,
                   wall_before: float, out: Any) -> None:  # fmt: skip
    random.seed(os.getpid())
    stats = Stats()
    asyncio.run(run_clients(bases, phones, event, args, poll_s, stats, stop, with_organizer, wall_before))
    out.put((stats.__dict__, time.process_time()))


def run_all_clients(context: Any, bases: list[str], event: dict[str, Any], args: argparse.Namespace,
                    poll_s: float, wall_before: float) -> tuple[Stats, float]:  # fmt: skip
    """The phones in ``--client-processes`` processes (one event loop for 2,000 phones answers its own sockets
    so late that the server's workers wait for it, and a real room's phones each have their own CPU); the
    organizer, its dashboards and the projector in one more. Returns the merged figures and the clients' CPU."""
    queue = context.Queue()
    stop = wall_before + args.seconds
    processes = args.client_processes
    phones = list(enumerate(event["phones"]))
    shares = [[p for p in phones if p[0] % processes == k] for k in range(processes)]
    children = [context.Process(target=client_process,
                                args=(bases, share, event, args, poll_s, stop, False, wall_before, queue))
                for share in shares]  # fmt: skip
    children.append(context.Process(target=client_process,
                                    args=(bases, [], event, args, poll_s, stop, True, wall_before, queue)))  # fmt: skip
    for child in children:
        child.start()
    stats, cpu = Stats(), 0.0
    for _child in children:
        part, part_cpu = queue.get(timeout=args.seconds + 300)
        stats.merge(part)
        cpu += part_cpu
    for child in children:
        child.join()
    return stats, cpu


# --- one configuration ----------------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))] if ordered else float("nan")


def run_config(args: argparse.Namespace, phones_n: int, nodes: int) -> dict[str, Any]:
    """Runs in a child process (fresh settings and database per configuration)."""
    import multiprocessing

    postgres = args.postgres
    if postgres:
        base_url = args.database_url
        name = f"deckhall_mix26_bench_{os.getpid()}"
        _create_pg_database(base_url, name)
        database_url = base_url.rsplit("/", 1)[0] + "/" + name
        cache_url = args.cache_url
    else:
        database_url = f"sqlite:///{tempfile.gettempdir()}/bench_event_day_{os.getpid()}.sqlite3"
        # As the venue runs (settings: venue mode without CACHE_URL): the workers share a file cache.
        cache_url = f"file://{tempfile.gettempdir()}/bench_event_day_cache_{os.getpid()}"
    servers: list[subprocess.Popen[bytes]] = []
    snapshots_dir, tree = "", ROOT
    try:
        setup_django(database_url, cache_url)
        if cache_url.startswith("redis"):
            from django.core.cache import cache

            cache.clear()
        from django.conf import settings

        from tournaments import live

        event = create_event(phones_n)
        tournament = event.pop("tournament")
        event.pop("organizer")
        event["pk"] = tournament.pk
        env = server_env(database_url, cache_url)
        env["SECRET_KEY"] = settings.SECRET_KEY  # the phones' tokens are signed with it
        if not postgres and args.snapshots:
            snapshots_dir = tempfile.mkdtemp(prefix="bench_event_day_snapshots_")
            snapshot_env(env, snapshots_dir)
            database_fill(database_url.removeprefix("sqlite:///"), args.database_mb)
        tree = server_tree(args.server_rev) if args.server_rev else ROOT
        ports = [free_port() for _ in range(nodes)]
        # The venue: one gunicorn of --workers × --threads (gthread); the cluster: --nodes gunicorns of
        # --workers sync workers each, as .ci/cluster and the README's production section start them.
        servers = [start_server("gunicorn", port, args.workers, env, args.threads, tree) for port in ports]
        for port, server in zip(ports, servers, strict=True):
            wait_ready(port, server)
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        poll_s = live.POLL_MS / 1000
        from django.db import connections

        connections.close_all()
        asyncio.run(warm_up(bases, event, args))
        redis_before = _redis_cpu(cache_url)
        cpu_before = [cpu_seconds(s.pid) for s in servers]
        db_before = _db_cpu(args, name) if postgres else 0.0
        wall_before = time.monotonic()
        context = multiprocessing.get_context("fork")
        stats, client_cpu = run_all_clients(context, bases, event, args, poll_s, wall_before)
        wall = time.monotonic() - wall_before
        node_cpu = [cpu_seconds(s.pid) - before for s, before in zip(servers, cpu_before, strict=True)]
        db_cpu = _db_cpu(args, name) - db_before if postgres else 0.0
        redis_cpu = _redis_cpu(cache_url) - redis_before
        row = summarise(stats, event, wall_before, wall, phones_n)
        row["code"] = args.server_rev or "this checkout"
        row["snapshots"] = len(list(Path(snapshots_dir).glob("deckhall-*"))) if snapshots_dir else 0
        row.update(
            server=f"gunicorn {nodes} node(s) × {args.workers}" + (f"×{args.threads}" if args.threads > 1 else ""),
            db="PostgreSQL+Redis" if postgres else "SQLite", nodes=nodes, poll_s=poll_s,
            cpu=100 * sum(node_cpu) / wall, node_cpu=[100 * c / wall for c in node_cpu],
            db_cpu=100 * db_cpu / wall, redis_cpu=100 * redis_cpu / wall, client_cpu=100 * client_cpu / wall,
            cpu_ms=1000 * sum(node_cpu) / max(1, row["requests"]),
            cpu_per_phone_s=sum(node_cpu) / (phones_n * wall), db_per_phone_s=db_cpu / (phones_n * wall),
            redis_per_phone_s=redis_cpu / (phones_n * wall),
        )  # fmt: skip
        if args.cpu_per_kind:
            row["cpu_per_kind"] = cpu_per_kind(bases[0], servers, event, args, name if postgres else "")
        return row
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=20)
        if snapshots_dir:
            shutil.rmtree(snapshots_dir, ignore_errors=True)
        if tree != ROOT:
            shutil.rmtree(tree, ignore_errors=True)
        if not postgres:
            shutil.rmtree(cache_url.removeprefix("file://"), ignore_errors=True)
            for suffix in ("", "-wal", "-shm"):
                Path(database_url.removeprefix("sqlite:///") + suffix).unlink(missing_ok=True)
        else:
            from django.db import connections

            connections.close_all()
            _drop_pg_database(base_url, name)


def summarise(
    stats: Stats, event: dict[str, Any], start: float, wall: float, phones_n: int
) -> dict[str, Any]:
    posted, timer = stats.timeline.get("posted"), stats.timeline.get("timer")
    kinds: dict[str, list[int]] = {}
    for i, kind in enumerate(stats.kind):
        kinds.setdefault(kind, []).append(i)
    per_kind = {}
    for kind, idx in sorted(kinds.items()):
        lat = [stats.latency[i] * 1000 for i in idx]
        per_kind[kind] = {"n": len(idx), "p50": pct(lat, 0.5), "p95": pct(lat, 0.95), "max": max(lat),
                          "errors": sum(1 for i in idx if is_error(stats.status[i])),
                          "kb": sum(stats.nbytes[i] for i in idx) / 1024 / len(idx)}  # fmt: skip
    # Which phone is which: My event (most), standings (every 20th), pairings (every 20th + 10).
    minutes = wall / 60
    groups = {"my event": lambda i: i % 20 not in (0, 10), "standings": lambda i: i % 20 == 0,
              "pairings": lambda i: i % 20 == 10}  # fmt: skip
    bytes_by_phone: dict[str, float] = {}
    for group, member in groups.items():
        count = sum(1 for i in range(phones_n) if member(i))
        total = sum(n for n, p in zip(stats.nbytes, stats.phone, strict=True) if p >= 0 and member(p))
        bytes_by_phone[group] = total / 1024 / max(1, count) / minutes
    all_phone_bytes = sum(n for n, p in zip(stats.nbytes, stats.phone, strict=True) if p >= 0)
    watchers = [i for i in range(phones_n) if i % 20 not in (0, 10)]
    visible = [stats.first_seen_round2[i] - posted for i in watchers
               if posted is not None and i in stats.first_seen_round2]  # fmt: skip
    org = [stats.latency[i] * 1000 for i in kinds.get("org fragment", []) + kinds.get("org dashboard", [])]
    lat = [x * 1000 for x in stats.latency]
    return {
        "pour": pour_window(stats, start),
        "static_p95": pct([stats.latency[i] * 1000 for i in kinds.get("static", [])], 0.95),
        "phones": phones_n,
        "requests": len(lat),
        "rps": len(lat) / wall,
        "p50": pct(lat, 0.5),
        "p95": pct(lat, 0.95),
        "max": max(lat) if lat else float("nan"),
        "errors": sum(1 for s in stats.status if is_error(s)),
        "error_samples": stats.error_samples,
        "per_kind": per_kind,
        "windows": windows(stats, start, posted, timer),
        "kb_per_phone_min": all_phone_bytes / 1024 / phones_n / minutes,
        "connections_per_phone_min": stats.connections / phones_n / minutes,
        "kb_per_phone_min_by": bytes_by_phone,
        "pair_s": stats.timeline.get("pair_s", float("nan")),
        "seen_all_s": max(visible) if visible and len(visible) == len(watchers) else float("nan"),
        "seen_p95_s": pct(visible, 0.95),
        "missed": len(watchers) - len(visible),
        "org_p95": pct(org, 0.95),
        "org_max": max(org) if org else float("nan"),
        "timer_started": timer is not None,
    }


def pour_window(stats: Stats, start: float) -> dict[str, Any]:
    """While results poured in (the first game saved to the last confirm of round 1): p95 per request kind."""
    begin, end = stats.timeline.get("pour_start"), stats.timeline.get("pour_end")
    if begin is None or end is None:
        return {}
    kinds: dict[str, list[float]] = {}
    for kind, sent, latency in zip(stats.kind, stats.started, stats.latency, strict=True):
        if begin <= sent <= end:
            kinds.setdefault(kind, []).append(latency * 1000)
    every = [x for values in kinds.values() for x in values]
    return {"from_s": begin - start, "to_s": end - start, "tables": int(stats.timeline.get("tables", 0)),
            "confirmed": int(stats.timeline.get("confirmed", 0)), "p95": pct(every, 0.95), "n": len(every),
            "kinds": {k: {"n": len(v), "p95": pct(v, 0.95)} for k, v in sorted(kinds.items())}}  # fmt: skip


def windows(
    stats: Stats, start: float, posted: float | None, timer: float | None, width: float = 5.0
) -> list[dict[str, Any]]:
    """p95 and requests of every ``width`` seconds of the run (by when requests were sent)."""
    buckets: dict[int, list[float]] = {}
    for sent, latency in zip(stats.started, stats.latency, strict=True):
        buckets.setdefault(int((sent - start) // width), []).append(latency * 1000)
    marks = {int((t - start) // width): label for t, label in ((posted, "posted"), (timer, "timer")) if t}
    return [{"at": key * width, "p95": pct(values, 0.95), "n": len(values), "mark": marks.get(key, "")}
            for key, values in sorted(buckets.items())]  # fmt: skip


# --- CPU per request kind (the cluster leg) ---------------------------------------------------------------


def cpu_per_kind(base: str, servers: list[Any], event: dict[str, Any], args: argparse.Namespace,
                 pg_name: str) -> dict[str, dict[str, float]]:  # fmt: skip
    """Each kind alone, after the run: a burst of it against the first node (8 at a time), the CPU the
    web workers (and PostgreSQL's backends) spent in it divided by the requests. The room's mix multiplies
    these; nothing else runs against the server meanwhile."""
    return asyncio.run(_cpu_per_kind(base, servers, event, args, pg_name))


async def _cpu_per_kind(base: str, servers: list[Any], event: dict[str, Any], args: argparse.Namespace,
                        pg_name: str) -> dict[str, dict[str, float]]:  # fmt: skip
    import aiohttp

    pk, sample = event["pk"], event["phones"][: args.cpu_sample]
    figures: dict[str, dict[str, float]] = {}
    async with aiohttp.ClientSession(auto_decompress=False, cookie_jar=aiohttp.DummyCookieJar(),
                                     timeout=aiohttp.ClientTimeout(total=60)) as session:  # fmt: skip
        stats = Stats()
        etags: dict[int, str] = {}

        async def render(i: int, info: dict[str, Any]) -> None:  # the full fragment (no ETag): a render
            _s, got, _b = await fetch(session, stats, "x", "GET", f"{base}/tournaments/{pk}/me/live/?k={info['token']}",
                                      headers={"Cookie": info["cookie"]})  # fmt: skip
            etags[i] = got.get("ETag", "") if got else ""

        async def poll(i: int, info: dict[str, Any]) -> None:
            await fetch(session, stats, "x", "GET", f"{base}/tournaments/{pk}/me/live/?k={info['token']}",
                        headers={"Cookie": info["cookie"], "If-None-Match": etags.get(i, "")})  # fmt: skip

        async def standings(i: int, info: dict[str, Any]) -> None:
            await fetch(
                session,
                stats,
                "x",
                "GET",
                f"{base}/tournaments/{pk}/standings/",
                headers={"Cookie": info["cookie"]},
            )

        pending = await asyncio.to_thread(open_matches, pk, 2)
        by_user = {info["user_id"]: info for info in event["phones"]}

        async def report(i: int, _info: dict[str, Any]) -> None:
            if i >= len(pending):
                return
            match_id, reporter, _confirmer = pending[i]
            browser = Browser(by_user[reporter]["cookie"], by_user[reporter]["csrf"])
            await fetch(session, stats, "x", "POST", f"{base}/tournaments/matches/{match_id}/report/",
                        headers=form_post(browser), data={"wins_a": "2", "wins_b": "1", "draws": "0"})  # fmt: skip

        for kind, job in (("My event render", render), ("304 poll", poll), ("standings", standings),
                          ("game report", report)):  # fmt: skip
            web_before = sum(cpu_seconds(s.pid) for s in servers)
            db_before = _db_cpu(args, pg_name) if pg_name else 0.0
            done_before = len(stats.status)
            gate = asyncio.Semaphore(8)

            async def one(i: int, info: dict[str, Any], job: Any = job, gate: Any = gate) -> None:
                async with gate:
                    await job(i, info)

            await asyncio.gather(*(one(i, info) for i, info in enumerate(sample)))
            count = len(stats.status) - done_before
            statuses = stats.status[done_before:]
            figures[kind] = {
                "n": count,
                "web_ms": 1000 * (sum(cpu_seconds(s.pid) for s in servers) - web_before) / max(1, count),
                "db_ms": 1000 * ((_db_cpu(args, pg_name) if pg_name else 0.0) - db_before) / max(1, count),
                "ok": sum(1 for s in statuses if not is_error(s)),
            }
    return figures


def _db_cpu(args: argparse.Namespace, name: str) -> float:
    """CPU seconds of PostgreSQL's backends serving the bench database (the web workers keep theirs)."""
    return sum(cpu_seconds(pid) for pid in _pg_backends(args.database_url, name))


def _redis_cpu(cache_url: str) -> float:
    """Redis's own CPU seconds (INFO cpu). The server is shared with anything else using it: the figure is
    an upper bound for this bench's share."""
    if not cache_url.startswith("redis"):
        return 0.0
    import redis

    info = redis.Redis.from_url(cache_url).info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def _admin_url(base_url: str) -> str:
    # The maintenance database: DATABASE_URL's own database need not exist.
    return base_url.replace("postgres://", "postgresql://").rsplit("/", 1)[0] + "/postgres"


def _pg_backends(base_url: str, name: str) -> list[int]:
    import psycopg

    with psycopg.connect(_admin_url(base_url), autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [name]).fetchall()
    return [int(pid) for (pid,) in rows]


def _create_pg_database(base_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(_admin_url(base_url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def _drop_pg_database(base_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(_admin_url(base_url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --- report ---------------------------------------------------------------------------------------------

TARGETS = "p95 < 250 ms over the event, < 500 ms in every 5-s window, static files p95 < 50 ms, 0 errors, every phone sees its new table within 5 s, organizer dashboard p95 < 500 ms"  # fmt: skip


def checks(row: dict[str, Any]) -> list[tuple[str, bool, str]]:
    """The issue's targets, as (target, met, figure)."""
    worst = max(row["windows"], key=lambda w: w["p95"]) if row["windows"] else {"p95": float("nan"), "at": 0}
    return [
        ("p95 over the event < 250 ms", row["p95"] < 250, f"{row['p95']:.0f} ms"),
        ("p95 in every 5-s window < 500 ms", worst["p95"] < 500, f"worst {worst['p95']:.0f} ms at {worst['at']:.0f} s"),
        ("static files p95 < 50 ms", row["static_p95"] < 50 or row["static_p95"] != row["static_p95"],
         f"{row['static_p95']:.0f} ms"),
        ("0 errors", row["errors"] == 0, str(row["errors"])),
        ("every phone sees its new table within 5 s", row["missed"] == 0 and row["seen_all_s"] < 5,
         f"{row['seen_all_s']:.1f} s, {row['missed']} missed"),
        ("organizer dashboard p95 < 500 ms", row["org_p95"] < 500, f"{row['org_p95']:.0f} ms"),
        ("the round was posted and its clock started over HTTP", row["pair_s"] == row["pair_s"] and row["timer_started"],
         f"pair {row['pair_s']:.2f} s, timer {'started' if row['timer_started'] else 'not started'}"),
    ]  # fmt: skip


def print_row(row: dict[str, Any], args: argparse.Namespace) -> None:
    print(f"\n== {row['phones']} phones, {row['server']}, {row['db']}: {row['requests']} requests "
          f"({row['rps']:.0f}/s), p50 {row['p50']:.0f} ms, p95 {row['p95']:.0f} ms, max {row['max']:.0f} ms, "
          f"errors {row['errors']}")  # fmt: skip
    print(
        f"   {'kind':<16} {'requests':>8} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} {'errors':>6} {'KB/req':>7}"
    )
    for kind, k in row["per_kind"].items():
        print(
            f"   {kind:<16} {k['n']:>8} {k['p50']:>7.0f} {k['p95']:>7.0f} {k['max']:>7.0f} {k['errors']:>6} {k['kb']:>7.1f}"
        )
    print("   p95 by 5-s window (ms/requests; P = round 2 posted, T = clock started):")
    marks = {"posted": "P", "timer": "T", "": ""}
    print(
        "   " + " ".join(f"{marks[w['mark']]}{w['at']:.0f}s:{w['p95']:.0f}/{w['n']}" for w in row["windows"])
    )
    if row.get("pour"):
        pour = row["pour"]
        print(f"   results pour in ({pour['from_s']:.0f}–{pour['to_s']:.0f} s, {pour['tables']} tables game by game, "
              f"{pour['confirmed']} confirmed): p95 {pour['p95']:.0f} ms over {pour['n']} requests; by kind: "
              + ", ".join(f"{k} {v['p95']:.0f}/{v['n']}" for k, v in pour["kinds"].items()))  # fmt: skip
    print(
        f"   code: {row['code']}; static files p95 {row['static_p95']:.0f} ms; venue snapshots taken: {row['snapshots']}"
    )
    by = row["kb_per_phone_min_by"]
    print(f"   KB per phone per minute (on the wire): {row['kb_per_phone_min']:.1f} overall; My event {by['my event']:.1f}, "
          f"standings {by['standings']:.1f}, pairings {by['pairings']:.1f}; new TCP connections per phone per "
          f"minute {row['connections_per_phone_min']:.1f} (a poll every {row['poll_s']:.0f} s)")  # fmt: skip
    print(f"   pair next round (HTTP) {row['pair_s']:.2f} s; every phone sees its new table in {row['seen_all_s']:.1f} s "
          f"(p95 {row['seen_p95_s']:.1f} s, {row['missed']} missed); organizer dashboard p95 {row['org_p95']:.0f} ms "
          f"(max {row['org_max']:.0f})")  # fmt: skip
    print(f"   server CPU {row['cpu']:.0f} % of a core ({' + '.join(f'{c:.0f}' for c in row['node_cpu'])} per node), "
          f"{row['cpu_ms']:.1f} ms/request; DB CPU {row['db_cpu']:.0f} %; Redis CPU {row['redis_cpu']:.0f} % "
          f"(shared server: upper bound); clients {row['client_cpu']:.0f} %")  # fmt: skip
    for sample in row["error_samples"]:
        print(f"   error: {sample}")
    if "cpu_per_kind" in row:
        print(f"   CPU per request kind (each alone, {args.cpu_sample} requests, 8 at a time, first node):")
        for kind, f in row["cpu_per_kind"].items():
            print(
                f"     {kind:<16} web {f['web_ms']:6.2f} ms   PostgreSQL {f['db_ms']:6.2f} ms   ({f['ok']}/{f['n']} ok)"
            )
    sys.stdout.flush()


# The run's request kinds, by the calibrated kind that costs what they cost (a notice or a match page is a
# small render; a confirm writes as a report does).
CALIBRATED = {"poll 304": "304 poll", "poll render": "My event render", "notice": "My event render",
              "clock notice": "304 poll",
              "my event page": "My event render", "match page": "My event render",
              "standings page": "standings", "report": "game report", "confirm": "game report"}  # fmt: skip


def print_side_by_side(before: dict[str, Any], after: dict[str, Any]) -> None:
    """The same room on the code before and after, one table: the run, the pour-in window per kind, and
    every 5-s window's p95."""
    print(f"\n== side by side ({after['phones']} phones, {after['server']}): before = {before['code']}, "
          f"after = {after['code']}; snapshots taken {before['snapshots']} / {after['snapshots']}")  # fmt: skip
    rows = [("p95 over the run", before["p95"], after["p95"]),
            ("worst 5-s window p95", max(w["p95"] for w in before["windows"]),
             max(w["p95"] for w in after["windows"])),
            ("static files p95", before["static_p95"], after["static_p95"]),
            ("every phone sees round 2 (s)", before["seen_all_s"], after["seen_all_s"])]  # fmt: skip
    bp, ap = before.get("pour") or {}, after.get("pour") or {}
    if bp and ap:
        rows.append(("results pour in: p95 of all", bp["p95"], ap["p95"]))
        for kind in sorted(set(bp["kinds"]) | set(ap["kinds"])):
            rows.append((f"  pour-in p95 {kind}", bp["kinds"].get(kind, {}).get("p95", float("nan")),
                         ap["kinds"].get(kind, {}).get("p95", float("nan"))))  # fmt: skip
    print(f"   | {'figure (ms unless said)':<34} | {'before':>8} | {'after':>8} |")
    print(f"   |{'-' * 36}|{'-' * 10}|{'-' * 10}|")
    for name, b, a in rows:
        print(
            f"   | {name:<34} | {b:>8.0f} | {a:>8.0f} |"
            if "(s)" not in name
            else f"   | {name:<34} | {b:>8.1f} | {a:>8.1f} |"
        )
    if bp and ap:
        print(f"   pour-in window: before {bp['from_s']:.0f}–{bp['to_s']:.0f} s ({bp['tables']} tables, {bp['confirmed']} "
              f"confirmed, {bp['n']} requests); after {ap['from_s']:.0f}–{ap['to_s']:.0f} s ({ap['tables']} tables, "
              f"{ap['confirmed']} confirmed, {ap['n']} requests)")  # fmt: skip
    by_at = {w["at"]: w["p95"] for w in before["windows"]}
    print("   p95 by 5-s window, before → after (ms):")
    print(
        "   "
        + " ".join(
            f"{w['at']:.0f}s:{by_at.get(w['at'], float('nan')):.0f}→{w['p95']:.0f}" for w in after["windows"]
        )
    )
    sys.stdout.flush()


def mix_breakdown(row: dict[str, Any]) -> list[tuple[str, float, float, float]]:
    """(kind, requests per phone per second, web ms, PostgreSQL ms) for each calibrated kind of the mix, and
    the remainder of the measured CPU (static files, shared pages, the organizer) as one line."""
    phone_seconds = row["phones"] * row["requests"] / row["rps"]
    lines, web_total, db_total = [], 0.0, 0.0
    for kind, calibrated in CALIBRATED.items():
        if kind not in row["per_kind"] or calibrated not in row["cpu_per_kind"]:
            continue
        rate = row["per_kind"][kind]["n"] / phone_seconds
        cost = row["cpu_per_kind"][calibrated]
        lines.append((f"{kind} (as {calibrated})", rate, cost["web_ms"], cost["db_ms"]))
        web_total += rate * cost["web_ms"]
        db_total += rate * cost["db_ms"]
    rest = {kind: k["n"] for kind, k in row["per_kind"].items() if kind not in CALIBRATED}
    rate = sum(rest.values()) / phone_seconds
    web_rest = max(0.0, row["cpu_per_phone_s"] * 1000 - web_total)
    db_rest = max(0.0, row["db_per_phone_s"] * 1000 - db_total)
    if rate:
        lines.append(("the rest (static, shared pages, organizer)", rate, web_rest / rate, db_rest / rate))
    return lines


def print_projection(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """Nodes for 10,000 and 50,000 phones, from the CPU one phone of this mix costs a second."""
    if not rows:
        return
    row = rows[-1]
    usable = args.target_utilisation
    web, db, redis_ = row["cpu_per_phone_s"], row["db_per_phone_s"], row["redis_per_phone_s"]
    print(f"\nProjection from the {row['phones']}-phone, {row['nodes']}-node run (one phone of this mix costs "
          f"{web * 1000:.2f} ms web CPU, {db * 1000:.2f} ms PostgreSQL CPU and at most {redis_ * 1000:.3f} ms "
          f"Redis CPU a second; nodes of {args.node_cores} cores used to {usable:.0%}):")  # fmt: skip
    for phones in (10_000, 50_000):
        nodes = max(1, math.ceil(phones * web / (args.node_cores * usable)))
        db_cores, redis_core = phones * db / usable, phones * redis_
        print(f"   {phones:>6} phones: {nodes} web node(s); PostgreSQL needs {db_cores:.1f} cores; "
              f"Redis {redis_core:.0%} of its one core")  # fmt: skip
    limits = {"PostgreSQL": args.db_cores * usable / db if db else math.inf,
              "Redis (one core)": usable / redis_ if redis_ else math.inf}  # fmt: skip
    first = min(limits, key=lambda k: limits[k])
    print(f"   adding web nodes scales until {first} saturates at about {limits[first]:,.0f} phones "
          f"(PostgreSQL on {args.db_cores} cores: {limits['PostgreSQL']:,.0f}; Redis: {limits['Redis (one core)']:,.0f}); "
          f"below that the next node is limited by web CPU only")  # fmt: skip
    if "cpu_per_kind" in row:
        print(
            "   where a phone's web CPU goes (requests of each kind per phone per second in this mix × its CPU alone):"
        )
        for kind, rate, web_ms, db_ms in mix_breakdown(row):
            print(f"     {kind:<40} {rate:7.4f}/s × {web_ms:6.2f} ms = {rate * web_ms:6.3f} ms web, "
                  f"{rate * db_ms:6.3f} ms PostgreSQL")  # fmt: skip
    if len(rows) > 1:
        print("   measured: " + "; ".join(f"{r['nodes']} node(s): p95 {r['p95']:.0f} ms, {r['cpu_ms']:.1f} ms web CPU "
                                          f"per request, all phones see the new table in {r['seen_all_s']:.1f} s" for r in rows))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--phones", default="2000", help="phone counts, comma-separated (one run each)")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers per node")
    parser.add_argument(
        "--threads", type=int, default=4, help="threads per worker (>1: gthread, as the venue)"
    )
    parser.add_argument("--nodes", default="1", help="web node counts, comma-separated (one run each)")
    parser.add_argument("--client-processes", type=int, default=4, help="processes simulating the phones")
    parser.add_argument("--results-per-second", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--organizers", type=int, default=2, help="organizer dashboards polling")
    parser.add_argument(
        "--projectors", type=int, default=1, help="projector pages (pairings, standings, timer)"
    )
    parser.add_argument(
        "--cold", type=float, default=0.1, help="share of My-event phones that open the site cold"
    )
    parser.add_argument(
        "--reload-s", type=float, default=120, help="mean seconds between a phone's page reloads"
    )
    parser.add_argument(
        "--page-reload-s", type=float, default=45, help="reload period of a page with no live part"
    )
    parser.add_argument(
        "--postgres", action="store_true", help="PostgreSQL + Redis (--database-url, --cache-url)"
    )
    parser.add_argument("--database-url", default=os.environ.get(
        "DATABASE_URL", "postgres://deckhall:deckhall@127.0.0.1:5432/deckhall_mix26"))  # fmt: skip
    parser.add_argument("--cache-url", default="redis://127.0.0.1:6379/5")
    parser.add_argument("--cpu-per-kind", action="store_true", help="after each run, CPU per request kind")
    parser.add_argument("--cpu-sample", type=int, default=200, help="requests per kind for --cpu-per-kind")
    parser.add_argument("--node-cores", type=int, default=2, help="cores of one web node (projection)")
    parser.add_argument("--db-cores", type=int, default=8, help="cores of the PostgreSQL server (projection)")
    parser.add_argument("--target-utilisation", type=float, default=0.6, help="CPU share a node may use")
    parser.add_argument("--assert", dest="check", action="store_true",
                        help=f"exit 1 unless every run meets the issue's targets: {TARGETS}")  # fmt: skip
    parser.add_argument("--save", help="also write every run's figures to this JSON file")
    parser.add_argument("--pour", action="store_true",
                        help="results pour in: players save games one by one, opponents confirm (round 1)")  # fmt: skip
    parser.add_argument(
        "--pour-per-second", type=float, default=1.7, help="tables finishing per second (--pour)"
    )
    parser.add_argument("--no-snapshots", dest="snapshots", action="store_false",
                        help="SQLite: no venue snapshots (the venue takes them)")  # fmt: skip
    parser.add_argument(
        "--before", help="git revision: run the same room on it first and print both side by side"
    )
    parser.add_argument("--database-mb", type=float, default=19,
                        help="SQLite: grow the database to this size (a venue's, with its card pool)")  # fmt: skip
    parser.add_argument("--server-rev", help=argparse.SUPPRESS)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    # 2,000 phones hold 2,000 sockets here and in the servers (which inherit this limit).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 16_384)), hard))
    if args.child:
        phones_n, nodes = args.child.split(":")
        print(json.dumps(run_config(args, int(phones_n), int(nodes))))
        return
    rows, failed = [], False
    for nodes in (int(x) for x in args.nodes.split(",")):
        for n in (int(x) for x in args.phones.split(",")):
            command = [
                PYTHON,
                __file__,
                *[a for a in sys.argv[1:] if a != "--assert"],
                "--child",
                f"{n}:{nodes}",
            ]
            before = None
            if args.before:  # the same room on the old code first; only the "after" decides the exit status
                done = subprocess.run([*command, "--server-rev", args.before], capture_output=True, text=True,
                                      cwd=ROOT, check=False)  # fmt: skip
                if done.returncode != 0:
                    print(f"{n} phones before: failed\n{done.stderr[-3000:]}", file=sys.stderr)
                else:
                    before = json.loads(done.stdout.strip().splitlines()[-1])
                    print_row(before, args)
            done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
            if done.returncode != 0:
                print(f"{n} phones, {nodes} node(s): failed\n{done.stderr[-3000:]}", file=sys.stderr)
                failed = True
                continue
            rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
            print_row(rows[-1], args)
            if before is not None:
                print_side_by_side(before, rows[-1])
            for target, met, figure in checks(rows[-1]):
                print(f"   {'PASS' if met else 'FAIL'}  {target}: {figure}")
                failed |= not met
    if args.postgres:
        print_projection(rows, args)
    if args.save:
        Path(args.save).write_text(json.dumps(rows, indent=1))
    print(f"\nload average (1, 5, 15 min) at the end: {os.getloadavg()}, cores: {os.cpu_count()}")
    if args.check and failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
