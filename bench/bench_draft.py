"""Booster drafts in pods on the venue server: N phones drafting 3 packs of 15 over HTTP against gunicorn
(gthread, as `make venue` runs it) on a SQLite file, while phones drop off the Wi-Fi and workers are killed.

    .venv/bin/python bench/bench_draft.py [--phones 80] [--shape realistic|fast] [--think-share 0.15,0.75]
            [--think 0.3,1.5] [--pick-time-scale 1] [--workers 3] [--threads 4] [--drop 0.05] [--drop-s 30]
            [--kill-every 20] [--seed 1] [--via page|api] [--client raw|aiohttp] [--cpu-per-kind ROUNDS]

``--via page`` (the default) drives what phones open, the "My draft" page: opened once (its CSRF token), its
fragment (``?fragment=1``) polled with If-None-Match at the same beats, the pack read from the fragment's pick
form, and a pick sent as the page's offline queue (static/pwa/offline.js) sends it — the form's fields with the
page's CSRF token, form-encoded, a fresh ``Idempotency-Key``, the answer followed and its ``#live`` box adopted
(its tag is the next poll's). The organizer's page refreshes its pods fragment every 3 s. ``--via api``: the
API, as below.

Every phone is a signed-in session (its own keep-alive connection: ``--client raw``, asyncio streams
(phone_http.py), or ``aiohttp``): it reads ``draft/me/`` as the
"My draft" page does — with the ETag of its last answer in If-None-Match (an unchanged answer is a 304), every
second while it waits for the pass or once its pick's deadline has passed, every four seconds while it holds a
pack — then picks a card of its pack with a fresh ``Idempotency-Key`` (the 201's ``Draft-Me-ETag``, while the pod
waits for other seats, is the tag of "waiting" it polls with next, as the page does). How long a phone thinks:

- ``--shape realistic`` (the default): a share of the pick's time by MTR Appendix B (40 s for a full pack
  of 15 down to 5 s for the last cards, times ``--pick-time-scale``), drawn per pick from ``--think-share``
  (0.15–0.75: people take some of their time, rarely all of it). A draft of 3 packs then lasts ~10 minutes at
  scale 1; ``--pick-time-scale 0.2`` runs the same shape in ~2 minutes for a correctness check.
- ``--shape fast``: the worst case, every phone picks ``--think`` seconds (0.3–1.5 s) after its pack shows.

An answer that does not come (a worker killed under it) is sent again with the same key until one comes, as the
phone's offline queue does. ``--drop`` of the phones go off the Wi-Fi for ``--drop-s`` seconds mid-draft, right
after sending a pick whose answer they never see (sent again with its key when they come back); their pod goes
on by the pick timer (MTR Appendix B times): the other phones' polls run it out and auto-pick. Every
``--kill-every`` seconds a gunicorn worker is killed with ``kill -9`` (the master starts another one). The
organizer's pod dashboard is read every two seconds.

``--cpu-per-kind ROUNDS`` measures instead, on the same server, the CPU of each request kind sent alone
(unchanged poll, changed poll, dashboard, pick) and exits.

Printed: the server's CPU per request (a killed worker's CPU is read just before it is killed); per request
kind (``draft/me`` split into 200 and 304) p50/p95/worst; pass → next pack (from the pod's last pick of a
step, as the database stamped it, to the phone's first answer showing the next pick; phones off the Wi-Fi
then are left out); and the checks: 0 lost picks (every pick a phone was answered 201 for is stored, as
answered), 0 doubled (one pick per seat and pick number, each seat's picks numbered 1..45), every card of
every pack picked exactly once, every pod finished. And the client's own lag: every figure is measured in one
event loop on the server's cores, so how late that loop wakes (and its CPU) says whether a tail is the
server's or the bench's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import secrets
import shutil
import signal
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from datetime import datetime
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_event_day import (
    connections_per_worker,
    cpu_seconds,
    free_port,
    process_tree,
    server_env,
    setup_django,
    start_server,
    wait_ready,
)
from phone_http import connect, disconnect


def pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


_CARD = re.compile(r'name="card" value="([^"]*)"')
_NUMBER = re.compile(r'name="pick_number" value="(\d+)"')
_DEADLINE = re.compile(r'data-deadline="([^"]+)"')
_PAGE_CSRF = re.compile(r'id="draft-csrf" value="([^"]+)"')
_TAG = re.compile(r'data-draft-etag="([^"]+)"')


def _page_token(html: str | None) -> str:
    """The CSRF token the My draft page holds for its forms (``#draft-csrf``), or ""."""
    found = _PAGE_CSRF.search(html or "")
    return found.group(1) if found else ""


def page_state(html: str) -> dict[str, Any]:
    """What the "My draft" box shows (the fragment, or the #live box of a pick's answer), in draft/me's terms:
    the pick form's cards and pick number, the countdown, waiting / paused / finished and the tag the box names
    (``data-draft-etag``, what the page's next poll sends). The CSRF token is the page's (``_page_token``)."""
    number = _NUMBER.search(html)
    deadline = _DEADLINE.search(html)
    tag = _TAG.search(html)
    return {
        "pack": [unescape(card) for card in _CARD.findall(html)],
        "pick_number": int(number.group(1)) if number else None,
        "deadline": deadline.group(1) if deadline else None,
        "waiting": 'data-testid="draft-waiting"' in html,
        "paused": 'data-testid="draft-paused"' in html,
        "finished": 'data-testid="draft-finished"' in html,
        "tag": unescape(tag.group(1)) if tag else None,
    }


def create_draft(phones: int, seed: int, pick_time_scale: float = 1.0) -> dict[str, Any]:
    """Migrate; an organizer, ``phones`` signed-in players, a twin-deck draft seated and its packs opened."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from accounts.models import User
    from cards.demo import SAMPLES
    from cards.games import games_sync
    from cards.models import Game
    from cards.services import cards_import
    from limited import services
    from tournaments import services as tournament_services

    call_command("migrate", verbosity=0)
    # The whole page names its CSS/JS through the manifest (DEBUG off): collected as `make venue` collects them.
    from venue.management.commands.venue import Command as VenueCommand

    VenueCommand(stdout=sys.stderr)._collectstatic_if_changed()
    games_sync()
    game = Game.objects.get(slug="twindeck")
    cards_import(
        game=game, data=(SAMPLES / "twindeck-sample.json").read_bytes(), filename="twindeck-sample.json"
    )
    organizer = User.objects.create_user("bench-organizer", password=None, is_organizer=True)
    tournament = tournament_services.tournament_create(
        created_by=organizer,
        name="Draft bench",
        game=game,
        format_slug="limited",
        seed=seed,
        deck_registration=True,
    )
    event = services.limited_event_create(
        tournament=tournament, by=organizer, kind="draft", product="td-sample", packs=3, seed=seed,
        pick_time_scale=pick_time_scale,
    )  # fmt: skip

    def signed_in(user: Any) -> dict[str, str]:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        csrf = secrets.token_hex(16)  # a browser's CSRF cookie, sent back in X-CSRFToken by its posts
        return {"Cookie": f"{settings.SESSION_COOKIE_NAME}={session.session_key}; csrftoken={csrf}",
                "X-CSRFToken": csrf}  # fmt: skip

    users = User.objects.bulk_create([User(username=f"drafter{i:05d}", password="!") for i in range(phones)])
    out = []
    for user in users:
        player = tournament_services.player_register(tournament=tournament, by=user)
        out.append({"player": player.pk, "headers": signed_in(user)})
    started = time.perf_counter()
    pods = services.draft_start(event=event, by=organizer)
    print(f"seated {phones} phones in {len(pods)} pods, opened {phones * 3} packs: "
          f"{time.perf_counter() - started:.1f} s", flush=True)  # fmt: skip
    seat = {pid: (pod.pk, i) for pod in pods for i, pid in enumerate(pod.seats)}
    for phone in out:
        phone["pod"], phone["seat"] = seat[phone["player"]]
    return {"tournament": tournament.pk, "event": event.pk, "phones": out, "organizer": signed_in(organizer)}


def restart_clock(draft: dict[str, Any], scale: float) -> None:
    """The first pick's timer from now: the server took seconds to start, and at a small --pick-time-scale
    the timer would have picked for every phone before it opened its page."""
    from datetime import timedelta

    from django.db import connections
    from django.utils import timezone

    from limited.engine.draft import pick_seconds
    from limited.models import DraftPod

    DraftPod.objects.filter(event_id=draft["event"]).update(
        deadline=timezone.now() + timedelta(seconds=pick_seconds(15, scale=scale) + 2)
    )
    connections.close_all()


class Run:
    def __init__(self, base: str, args: argparse.Namespace) -> None:
        self.base, self.args = base, args
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.status: Counter[str] = Counter()
        self.answered: list[tuple[int, int, str]] = []  # (player, pick number, card) answered 201
        self.seen: list[tuple[int, int, int, float]] = []  # (pod, player, pick number first shown, wall time)
        self.offline: dict[int, tuple[float, float]] = {}  # player → (from, until), wall time
        self.resent = 0
        self.replayed = 0
        self.done = asyncio.Event()
        self.lost_answers: set[Any] = set()  # the picks sent just before a phone went off the Wi-Fi
        self.kills = 0
        self.killed_cpu = 0.0
        self.spread: list[float] = []  # the busiest worker's share of the phones' connections, every 5 s
        # A pick's answer (resends included) by the cards in the pack.
        self.by_pack: dict[int, list[float]] = defaultdict(list)
        # The bench client's own delay: how late a short sleep of its event loop wakes, and the client's CPU
        # every 5 s (a share of one core). Every latency above is measured in that loop: a client short of
        # CPU adds its lag to every figure, which a phone (its own CPU) would not.
        self.loop_lag: list[float] = []
        self.client_load: list[float] = []

    async def request(self, session: Any, kind: str, method: str, path: str, headers: dict[str, str],
                      body: Any = None, by_status: bool = False, form: Any = None,
                      text: bool = False) -> tuple[int, Any, str | None]:  # fmt: skip
        """(status, JSON body — or the text with ``text`` —, ETag); latency under ``kind`` (and its status when
        ``by_status``). ``session`` is the phone's connection (phone_http.py). A ``form`` is sent form-encoded,
        as the page's offline queue sends it; a redirect is followed, as its fetch() does."""
        started = time.monotonic()
        sent = dict(headers)
        payload = None
        if form is not None:
            payload, sent["Content-Type"] = urlencode(form).encode(), "application/x-www-form-urlencoded"
        elif body is not None:
            payload, sent["Content-Type"] = json.dumps(body).encode(), "application/json"
        try:
            status, answer, data = await session.request(method, path, sent, payload)
            if status in (301, 302, 303) and answer.get("location"):
                status, answer, data = await session.request(
                    "GET", urlsplit(answer["location"]).path, headers
                )
        except Exception:  # a worker killed under the request, a reset connection: no answer
            self.status[f"{kind} no answer"] += 1
            return 0, None, None
        replay = answer.get("idempotent-replayed")
        etag = answer.get("etag") or answer.get("draft-me-etag")
        self.latency[f"{kind} {status}" if by_status else kind].append((time.monotonic() - started) * 1000)
        self.status[f"{kind} {status}"] += 1
        if replay:
            self.replayed += 1
        if text:
            return status, data.decode(), etag
        try:
            return status, json.loads(data) if data else None, etag
        except ValueError:
            return status, None, etag

    def think(self, rng: random.Random, pack: list[str]) -> float:
        """Seconds this phone takes for this pick (the ``--shape``)."""
        if self.args.shape == "fast":
            return rng.uniform(*self.args.think)
        from limited.engine.draft import pick_seconds

        allowed = pick_seconds(len(pack), scale=self.args.pick_time_scale)
        return allowed * rng.uniform(*self.args.think_share)

    async def phone(self, index: int, info: dict[str, Any], event_pk: int, drop_at: int | None) -> None:
        rng = random.Random(index)
        url = f"/api/tournaments/{event_pk}/draft/"
        page_open, page_url, page_pick = (
            f"/tournaments/{event_pk}/draft/",
            f"/tournaments/{event_pk}/draft/?fragment=1",
            f"/tournaments/{event_pk}/draft/pick/",
        )
        last_shown = 0
        held: dict[str, Any] = {"etag": None, "me": None}
        session = connect(self.args.client, self.base, page_open)
        try:

            async def poll() -> dict[str, Any] | None:
                """draft/me (or the page's fragment) as the page asks it: with the ETag it holds; a 304 keeps
                what it shows."""
                headers = (
                    {**info["headers"], "If-None-Match": held["etag"]} if held["etag"] else info["headers"]
                )
                if self.args.via == "page":
                    status, html, etag = await self.request(session, "GET draft fragment", "GET", page_url,
                                                            headers, by_status=True, text=True)  # fmt: skip
                    me = page_state(html) if status == 200 and html else None
                else:
                    status, me, etag = await self.request(session, "GET draft/me", "GET", url + "me/", headers,
                                                          by_status=True)  # fmt: skip
                if status == 200 and me:
                    held["etag"], held["me"] = etag, me
                    return me
                return held["me"] if status == 304 else None

            await asyncio.sleep(rng.random() * 2)  # phones do not all open the page in the same millisecond
            # The page opened once: its token is the one draft.js puts into every pack's form (the polled box
            # carries none).
            page_token = ""
            while self.args.via == "page" and not page_token:
                status, html, _tag = await self.request(session, "GET My draft page", "GET", page_open,
                                                        info["headers"], by_status=True, text=True)  # fmt: skip
                page_token = _page_token(html) if status == 200 else ""
                if not page_token:
                    await asyncio.sleep(0.5)
            adopted: dict[str, Any] | None = None  # the box a pick's answer showed (page): no poll needed
            while True:
                me, adopted = adopted or await poll(), None
                if me is None:
                    await asyncio.sleep(0.5)
                    continue
                if me["finished"]:
                    return
                number = me["pick_number"]
                if number is not None and number != last_shown:
                    last_shown = number
                    self.seen.append((info["pod"], info["player"], number, time.time()))
                if me["waiting"] or me["paused"] or not me["pack"]:
                    await asyncio.sleep(1.0 if me["waiting"] else 4.0)
                    continue
                # Holding a pack: the phone thinks, polling every 4 s (every second once the deadline passed)
                # for a pause or the timer's pick.
                ends = time.monotonic() + self.think(rng, me["pack"])
                deadline = datetime.fromisoformat(me["deadline"]).timestamp() if me["deadline"] else None
                moved = False
                while (left := ends - time.monotonic()) > 0:
                    late = deadline is not None and time.time() >= deadline
                    await asyncio.sleep(min(left, 1.0 if late else 4.0))
                    if time.monotonic() >= ends:
                        break
                    now = await poll()
                    if now is not None and (now["pick_number"] != number or now["paused"] or now["finished"]):
                        moved = True
                        break
                if moved:
                    continue
                body = {"card": rng.choice(me["pack"]), "pick_number": number}
                headers = {**info["headers"], "Idempotency-Key": uuid.uuid4().hex}
                if self.args.via == "page":
                    # The pick's form as offline.js sends it: its fields (the page's CSRF token, which draft.js
                    # put into it) form-encoded, the key in a header, no X-CSRFToken.
                    form = {
                        "csrfmiddlewaretoken": page_token,
                        "pick_number": str(number),
                        "card": body["card"],
                    }
                    headers = {k: v for k, v in headers.items() if k != "X-CSRFToken"}
                    sent: dict[str, Any] = {"path": page_pick, "form": form, "text": True}
                else:
                    sent = {"path": url + "pick/", "body": body}

                def send(kind: str, headers: dict[str, str] = headers, sent: dict[str, Any] = sent) -> Any:
                    return self.request(session, kind, "POST", sent["path"], headers, sent.get("body"),
                                        form=sent.get("form"), text=sent.get("text", False))  # fmt: skip

                if drop_at is not None and number >= drop_at:
                    # Off the Wi-Fi right after sending: the pick may land, its answer never comes back.
                    drop_at = None
                    self.lost_answers.add(asyncio.ensure_future(send("POST pick (answer lost)")))
                    now_wall = time.time()
                    self.offline[info["player"]] = (now_wall, now_wall + self.args.drop_s)
                    await asyncio.sleep(self.args.drop_s)
                    self.resent += 1
                sending = time.monotonic()
                while True:  # the offline queue: the same key again until an answer comes
                    status, answer, waiting = await send("POST pick")
                    if status:
                        break
                    self.resent += 1
                    await asyncio.sleep(0.3)
                self.by_pack[len(me["pack"])].append((time.monotonic() - sending) * 1000)
                if self.args.via == "page":
                    # offline.js adopts the answer's #live box (and its tag: the next poll is a 304) and notes.
                    shown = page_state(answer or "")
                    if status == 200 and 'class="message success"' in (answer or ""):
                        self.answered.append((info["player"], number, body["card"]))
                    if shown["tag"]:
                        held["etag"], held["me"] = shown["tag"], shown
                        adopted = shown
                    continue
                if status == 201 and answer:
                    self.answered.append((info["player"], answer["pick_number"], answer["card"]))
                    if waiting:
                        # The pod still waits for other seats: the phone shows "waiting" by itself, and the
                        # answer's Draft-Me-ETag names that state, so its polls are 304s until the pass.
                        picks = [*me["picks"], answer["card"]]
                        held["etag"], held["me"] = (
                            waiting,
                            {**me, "waiting": True, "pack": [], "picks": picks},
                        )
        finally:
            await disconnect(session)

    async def dashboard(self, headers: dict[str, str], event_pk: int) -> None:
        session = connect(self.args.client, self.base, f"/tournaments/{event_pk}/limited/")
        try:
            while not self.done.is_set():
                if self.args.via == "page":  # the organizer's page refreshes its pods every 3 s
                    await self.request(session, "GET organizer pods", "GET",
                                       f"/tournaments/{event_pk}/limited/?fragment=1", headers, text=True)  # fmt: skip
                    await asyncio.sleep(3.0)
                else:
                    await self.request(session, "GET pods dashboard", "GET",
                                       f"/api/tournaments/{event_pk}/draft/pods/", headers)  # fmt: skip
                    await asyncio.sleep(2.0)
        finally:
            await disconnect(session)

    async def progress(self) -> None:
        started = time.monotonic()
        while not self.done.is_set():
            await asyncio.sleep(15)
            print(
                f"  {time.monotonic() - started:4.0f} s: {dict(sorted(self.status.items()))}",
                file=sys.stderr,
                flush=True,
            )

    async def sample_spread(self, master: int, port: int) -> None:
        """Every 5 s: the busiest worker's share of the connections the phones hold (1/workers is even)."""
        while not self.done.is_set():
            await asyncio.sleep(5)
            held = connections_per_worker(master, port)
            if sum(held.values()) >= 100:
                self.spread.append(max(held.values()) / sum(held.values()))

    async def client_lag(self) -> None:
        """How late the client's event loop wakes from a 50-ms sleep, every 50 ms; its CPU every 5 s."""
        mark, cpu = time.monotonic(), time.process_time()
        while not self.done.is_set():
            before = time.monotonic()
            await asyncio.sleep(0.05)
            now = time.monotonic()
            self.loop_lag.append((now - before - 0.05) * 1000)
            if now - mark >= 5:
                self.client_load.append((time.process_time() - cpu) / (now - mark))
                mark, cpu = now, time.process_time()

    async def killer(self, master: int) -> None:
        while not self.done.is_set():
            await asyncio.sleep(self.args.kill_every)
            workers = [p for p in process_tree(master) if p != master]
            if workers and not self.done.is_set():
                victim = random.choice(workers)
                self.killed_cpu += cpu_seconds(victim)  # its CPU so far, which the kill takes with it
                os.kill(victim, signal.SIGKILL)
                self.kills += 1

    async def run(self, draft: dict[str, Any], master: int) -> float:
        rng = random.Random(self.args.seed)
        phones = draft["phones"]
        drops = {i: rng.randint(8, 30) for i in range(len(phones)) if rng.random() < self.args.drop}
        self.dropped = len(drops)
        started = time.monotonic()
        extra = [asyncio.ensure_future(self.dashboard(draft["organizer"], draft["tournament"]))]
        if self.args.kill_every > 0:
            extra.append(asyncio.ensure_future(self.killer(master)))
        extra.append(asyncio.ensure_future(self.progress()))
        extra.append(asyncio.ensure_future(self.client_lag()))
        extra.append(asyncio.ensure_future(self.sample_spread(master, int(self.base.rsplit(":", 1)[1]))))
        await asyncio.gather(
            *(self.phone(i, info, draft["tournament"], drops.get(i)) for i, info in enumerate(phones))
        )
        elapsed = time.monotonic() - started
        self.done.set()
        for task in extra:
            task.cancel()
        await asyncio.sleep(0.5)  # the answers lost on purpose: let them land before the checks
        return elapsed


def report(
    run: Run, draft: dict[str, Any], elapsed: float, client_cpu: float, server_cpu: float | None
) -> None:
    from django.db import connections

    connections.close_all()  # the server wrote since: read the file afresh
    from limited.models import DraftPick, DraftPod

    phones = len(draft["phones"])
    shape = (f"fast: think {run.args.think[0]}–{run.args.think[1]} s" if run.args.shape == "fast" else
             f"realistic: think {run.args.think_share[0]:.0%}–{run.args.think_share[1]:.0%} of the pick time "
             f"(MTR Appendix B × {run.args.pick_time_scale})")  # fmt: skip
    print(f"\nshape {shape}")
    print(f"{phones} phones, {DraftPod.objects.filter(event_id=draft['event']).count()} pods, 3 packs of 15; "
          f"{run.dropped} phones off the Wi-Fi for {run.args.drop_s:.0f} s, {getattr(run, 'kills', 0)} workers killed "
          f"(kill -9): {elapsed:.0f} s; bench client CPU {client_cpu:.0f} s; load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    requests = sum(len(v) for v in run.latency.values())
    if server_cpu is not None:
        print(f"server CPU {server_cpu:.1f} s for {requests} requests: {server_cpu / requests * 1000:.2f} ms a request "
              f"({server_cpu / elapsed:.2f} cores busy on average)")  # fmt: skip
    print(f"{'request':26} {'n':>7} {'p50 ms':>8} {'p95 ms':>8} {'worst ms':>9}")
    for kind, values in sorted(run.latency.items()):
        print(
            f"{kind:26} {len(values):7d} {statistics.median(values):8.0f} {pct(values, 95):8.0f} {max(values):9.0f}"
        )
    steps = sorted(run.by_pack, reverse=True)
    print("pick answered, by cards in the pack (resends included): "
          + ", ".join(f"{n}: p95 {pct(run.by_pack[n], 95):.0f} ms" for n in steps))  # fmt: skip
    if run.spread:
        print(f"busiest worker's share of the phones' connections (every 5 s; even is {1 / run.args.workers:.0%}): "
              f"p50 {pct(run.spread, 50):.0%}, worst {max(run.spread):.0%}")  # fmt: skip
    if run.loop_lag:
        print(f"bench client's event loop late (it measures every figure above): p50 {pct(run.loop_lag, 50):.0f} ms, "
              f"p95 {pct(run.loop_lag, 95):.0f} ms, worst {max(run.loop_lag):.0f} ms; its CPU every 5 s: "
              f"p50 {pct(run.client_load, 50):.0%}, busiest {max(run.client_load or [0]):.0%} of a core")  # fmt: skip
    print("answers:", dict(sorted(run.status.items())))
    print(
        f"sent again with the same key: {run.resent}; answers replayed (Idempotent-Replayed): {run.replayed}"
    )

    picks = list(DraftPick.objects.filter(pod__event_id=draft["event"]).values_list(
        "pod_id", "seat", "player_id", "pick_number", "card", "auto", "created_at"))  # fmt: skip
    stored = {(player, number): card for _p, _s, player, number, card, _a, _c in picks}
    lost = sum(1 for player, number, card in run.answered if stored.get((player, number)) != card)
    per_seat = Counter((pod, seat, number) for pod, seat, _pl, number, _c, _a, _t in picks)
    doubled = sum(n - 1 for n in per_seat.values() if n > 1)
    by_seat: dict[tuple[int, int], list[int]] = defaultdict(list)
    for pod, seat, _pl, number, _c, _a, _t in picks:
        by_seat[(pod, seat)].append(number)
    gaps = sum(1 for numbers in by_seat.values() if sorted(numbers) != list(range(1, 46)))
    not_partition = 0
    for pod in DraftPod.objects.filter(event_id=draft["event"]):
        want = Counter(card for rnd in pod.packs for pack in rnd for card in pack)
        got = Counter(card for p, _s, _pl, _n, card, _a, _t in picks if p == pod.pk)
        not_partition += want != got
    unfinished = DraftPod.objects.filter(event_id=draft["event"], finished_at__isnull=True).count()
    passed: dict[tuple[int, int], float] = {}
    for pod, _s, _pl, number, _c, _a, created in picks:
        passed[(pod, number)] = max(passed.get((pod, number), 0.0), created.timestamp())
    lags = []
    for pod, player, number, wall in run.seen:
        at = passed.get((pod, number - 1))
        away = run.offline.get(player)
        if at is None or (away and away[0] <= at <= away[1] + 2):
            continue
        lags.append(wall - at)
    auto = sum(1 for *_x, a, _t in picks if a)
    print(f"pass → next pack shown: p50 {pct(lags, 50):.2f} s, p95 {pct(lags, 95):.2f} s, worst {max(lags or [0]):.2f} s "
          f"({len(lags)} passes seen)")  # fmt: skip
    print(f"picks stored {len(picks)} of {phones * 45} ({auto} by the timer); answered as kept (201, or 'Picked.' on the page): {len(run.answered)}; "
          f"lost {lost}; doubled {doubled}; seats not numbered 1..45: {gaps}; pods whose picks are not their "
          f"packs exactly: {not_partition}; unfinished pods: {unfinished}")  # fmt: skip


async def cpu_per_kind(base: str, draft: dict[str, Any], master: int, rounds: int, via: str = "api") -> None:
    """The server's CPU per request of each kind, each kind sent alone (8 at a time, keep-alive) and measured
    on the server's processes: what a 2-core laptop spends on one answer, whatever else runs beside it."""
    import aiohttp

    phones, event = draft["phones"], draft["tournament"]
    me_url, pick_url = f"/api/tournaments/{event}/draft/me/", f"/api/tournaments/{event}/draft/pick/"
    async with aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=8), cookie_jar=aiohttp.DummyCookieJar()
    ) as session:

        async def get(path: str, headers: dict[str, str]) -> tuple[int, Any, str | None]:
            async with session.get(base + path, headers=headers) as response:
                body = await response.read()
                return (
                    response.status,
                    json.loads(body) if response.status == 200 else None,
                    response.headers.get("ETag"),
                )

        async def burst(label: str, jobs: list[Any], want: int) -> None:
            before = cpu_seconds(master)
            started = time.monotonic()
            statuses = Counter(await asyncio.gather(*jobs))
            spent = cpu_seconds(master) - before
            n = sum(statuses.values())
            print(f"{label:44} {n:6d} requests  {spent / n * 1000:6.2f} ms CPU each  "
                  f"({n / (time.monotonic() - started):5.0f}/s)  answers {dict(statuses)}"
                  + ("" if set(statuses) == {want} else f"  (expected {want})"))  # fmt: skip

        async def status_of(coroutine: Any) -> int:
            return (await coroutine)[0]

        if via == "page":
            await page_kinds(session, base, draft, rounds, burst, status_of)
            return
        states = await asyncio.gather(*(get(me_url, phone["headers"]) for phone in phones))
        tags = [tag for _status, _me, tag in states]
        print(f"server CPU per request, {len(phones)} phones ({rounds} rounds of each):")
        await burst("GET draft/me, unchanged (304 before Django)", [
            status_of(get(me_url, {**phone["headers"], **({"If-None-Match": tag} if tag else {})}))
            for _ in range(rounds) for phone, tag in zip(phones, tags, strict=True)], 304)  # fmt: skip
        await burst("GET draft/me, changed (200)", [
            status_of(get(me_url, phone["headers"])) for _ in range(rounds) for phone in phones], 200)  # fmt: skip
        await burst("GET pods dashboard", [
            status_of(get(f"/api/tournaments/{event}/draft/pods/", draft["organizer"]))
            for _ in range(max(5, rounds * 2))], 200)  # fmt: skip

        async def pick(phone: dict[str, Any], me: dict[str, Any]) -> int:
            headers = {**phone["headers"], "Idempotency-Key": uuid.uuid4().hex}
            body = {"card": me["pack"][0], "pick_number": me["pick_number"]}
            async with session.post(base + pick_url, headers=headers, json=body) as response:
                await response.read()
                return response.status

        await burst("POST pick (every seat, pick 1)", [
            pick(phone, me) for phone, (_s, me, _t) in zip(phones, states, strict=True)], 201)  # fmt: skip


async def page_kinds(
    session: Any, base: str, draft: dict[str, Any], rounds: int, burst: Any, status_of: Any
) -> None:
    """The kinds of the My draft page as phones send them: the page opened, its fragment polled (unchanged,
    changed), the organizer's pods, and a pick through the offline queue (the form, its key, the answer
    followed as fetch() follows it: a redirect costs its GET)."""
    phones, event = draft["phones"], draft["tournament"]
    page, fragment = f"/tournaments/{event}/draft/", f"/tournaments/{event}/draft/?fragment=1"

    async def get(path: str, headers: dict[str, str]) -> tuple[int, str, str | None]:
        async with session.get(base + path, headers=headers) as response:
            return response.status, (await response.read()).decode(), response.headers.get("ETag")

    states = await asyncio.gather(*(get(fragment, phone["headers"]) for phone in phones))
    tags = [tag for _status, _html, tag in states]
    # Each phone's page token, from the page opened below (draft.js puts it into the pack's form: the polled
    # box carries none).
    tokens: dict[int, str] = {}

    async def opened(phone: dict[str, Any]) -> int:
        status, html, _tag = await get(page, phone["headers"])
        tokens[phone["player"]] = _page_token(html)
        return status

    print(f"server CPU per request, {len(phones)} phones ({rounds} rounds of each), via the My draft page:")
    await burst("GET My draft (the whole page, opened)", [
        opened(phone) for phone in phones], 200)  # fmt: skip
    await burst("GET fragment, unchanged (304 before Django)", [
        status_of(get(fragment, {**phone["headers"], **({"If-None-Match": tag} if tag else {})}))
        for _ in range(rounds) for phone, tag in zip(phones, tags, strict=True)], 304)  # fmt: skip
    await burst("GET fragment, changed (200)", [
        status_of(get(fragment, phone["headers"])) for _ in range(rounds) for phone in phones], 200)  # fmt: skip
    await burst("GET organizer pods (fragment)", [
        status_of(get(f"/tournaments/{event}/limited/?fragment=1", draft["organizer"]))
        for _ in range(max(5, rounds * 2))], 200)  # fmt: skip

    async def pick(phone: dict[str, Any], html: str) -> int:
        shown = page_state(html)
        headers = {k: v for k, v in phone["headers"].items() if k != "X-CSRFToken"}
        form = {"csrfmiddlewaretoken": tokens[phone["player"]], "pick_number": str(shown["pick_number"]),
                "card": shown["pack"][0]}  # fmt: skip
        async with session.post(base + f"/tournaments/{event}/draft/pick/", data=form,
                                headers={**headers, "Idempotency-Key": uuid.uuid4().hex}) as response:  # fmt: skip
            text = (await response.read()).decode()
            ok = response.status == 200 and 'class="message success"' in text and page_state(text)["tag"]
            return 200 if ok else response.status

    await burst("POST pick via the queue, answer followed", [
        pick(phone, html) for phone, (_s, html, _t) in zip(phones, states, strict=True)], 200)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=80, help="up to 2,000 (250 pods of 8)")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--client", choices=("raw", "aiohttp"), default="raw",
                        help="the phones' HTTP client: raw asyncio streams (phone_http.py) or aiohttp")  # fmt: skip
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--drop", type=float, default=0.05)
    parser.add_argument("--drop-s", type=float, default=30.0)
    parser.add_argument(
        "--kill-every", type=float, default=20.0, help="seconds between kill -9 of a worker (0: none)"
    )
    pair = lambda text: tuple(float(x) for x in text.split(","))  # noqa: E731
    parser.add_argument(
        "--shape",
        choices=["realistic", "fast"],
        default="realistic",
        help="realistic: a share of the MTR pick time per pick; fast: --think seconds (worst case)",
    )
    parser.add_argument(
        "--think-share",
        type=pair,
        default=(0.15, 0.75),
        help="realistic shape: the share of the pick's time a phone takes, drawn per pick",
    )
    parser.add_argument("--think", type=pair, default=(0.3, 1.5), help="fast shape: seconds per pick")
    parser.add_argument("--pick-time-scale", type=float, default=1.0,
                        help="the event's pick times: MTR Appendix B times multiplied by this (0.1–10)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--via", choices=["page", "api"], default="page",
                        help="page: the My draft page as phones open it (its fragment, the pick form through the "
                             "offline queue); api: draft/me and draft/pick of the API")  # fmt: skip
    parser.add_argument("--cpu-per-kind", type=int, default=0, metavar="ROUNDS",
                        help="only measure the server's CPU per request kind (ROUNDS polls per phone), no draft")  # fmt: skip
    args = parser.parse_args()
    if not 2 <= args.phones <= 2000:
        parser.error("--phones between 2 and 2,000")
    folder = Path(tempfile.mkdtemp(prefix="bench_draft_"))
    database_url = f"sqlite:///{folder / 'venue.sqlite3'}"
    cache_url = (folder / "cache").as_uri()
    # One key for the bench and the server: the sessions made here carry a hash the server checks with it.
    os.environ.setdefault("BENCH_SECRET_KEY", secrets.token_urlsafe(64))
    setup_django(database_url, cache_url)
    import logging

    logging.getLogger("django.request").setLevel(logging.ERROR)
    server = None
    try:
        draft = create_draft(args.phones, args.seed, args.pick_time_scale)
        from django.db import connections

        connections.close_all()
        port = free_port()
        env = server_env(database_url, cache_url)
        server = start_server("gunicorn", port, args.workers, env, threads=args.threads)
        # The master's log (a line per killed worker) is read as it comes: a full pipe would block the master,
        # and a blocked master starts no worker again.
        threading.Thread(target=lambda: server.stderr and server.stderr.read(), daemon=True).start()
        wait_ready(port, server)
        restart_clock(draft, args.pick_time_scale)
        if args.cpu_per_kind:
            asyncio.run(
                cpu_per_kind(f"http://127.0.0.1:{port}", draft, server.pid, args.cpu_per_kind, args.via)
            )
            return
        run = Run(f"http://127.0.0.1:{port}", args)
        client_before, server_before = time.process_time(), cpu_seconds(server.pid)
        elapsed = asyncio.run(run.run(draft, server.pid))
        # A killed worker takes its CPU time with it: the killer adds what it had used just before the kill.
        server_cpu = cpu_seconds(server.pid) - server_before + run.killed_cpu
        report(run, draft, elapsed, time.process_time() - client_before, server_cpu)
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=10)
            except Exception:
                server.kill()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
