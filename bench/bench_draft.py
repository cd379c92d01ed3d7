"""Booster drafts in pods under load: many phones picking at once through the full Django stack (middleware,
the Idempotency-Key table, the pod's write lock), on a throw-away SQLite file (the venue's engine).

    .venv/bin/python bench/bench_draft.py [--pods 4] [--seats 8] [--packs 3] [--threads 8] [--drop 0.05]
            [--resend 0.05] [--double 0.02]

Each thread plays a share of the phones: it reads ``draft/me/`` and picks the first card of its pack with a
fresh Idempotency-Key. ``--resend``: the answer is "lost" and the same request is sent again with the same key
(must replay, never apply twice); ``--double``: a second pick for the same pick number with a new key (must be
409); ``--drop``: that share of phones goes silent for three picks, and the organizer's tick (the pick timer
running out) picks for them. Printed: p50/p95/max per request kind, picks per second, how long from a pod's
last pick of a step until every phone of the pod saw its next pack, and the checks: 0 lost and 0 doubled
picks, every card of every pack picked exactly once, every pod finished.

Not measured here (the issue's 250 pods × 8 phones over gunicorn with workers killed by ``kill -9``): this
runs in one process with threads, so it shows the service's cost and correctness under concurrency, not
the venue server's HTTP figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
import uuid
from collections import Counter, defaultdict
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from throwaway_db import throwaway_database


def pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pods", type=int, default=4)
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--packs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--drop", type=float, default=0.05)
    parser.add_argument("--resend", type=float, default=0.05)
    parser.add_argument("--double", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    import logging

    with throwaway_database("draft"):
        logging.getLogger("django.request").setLevel(logging.ERROR)  # the 409s are expected, not news
        run(args)


def run(args: argparse.Namespace) -> None:
    from django.db import close_old_connections
    from django.test import Client
    from django.utils import timezone

    from accounts.models import User
    from cards.demo import SAMPLES
    from cards.games import games_sync
    from cards.models import Game
    from cards.services import cards_import
    from limited import services
    from limited.models import DraftPick, DraftPod
    from tournaments import services as tournament_services

    games_sync()
    game = Game.objects.get(slug="twindeck")
    cards_import(
        game=game, data=(SAMPLES / "twindeck-sample.json").read_bytes(), filename="twindeck-sample.json"
    )
    organizer = User.objects.create_user("bench-organizer", password="x", is_organizer=True)
    tournament = tournament_services.tournament_create(
        created_by=organizer, name="Draft bench", game=game, format_slug="limited", seed=args.seed,
        deck_registration=True,
    )  # fmt: skip
    event = services.limited_event_create(
        tournament=tournament,
        by=organizer,
        kind="draft",
        product="td-sample",
        packs=args.packs,
        seed=args.seed,
    )
    phones: list[tuple[Client, int]] = []
    for i in range(args.pods * args.seats):
        user = User.objects.create_user(f"drafter{i:05d}", password="x")
        player = tournament_services.player_register(tournament=tournament, by=user)
        client = Client()
        client.force_login(user)
        phones.append((client, player.pk))
    started = time.perf_counter()
    pods = services.draft_start(event=event, by=organizer)
    print(f"seated {len(phones)} phones in {len(pods)} pods and opened {len(phones) * args.packs} packs: "
          f"{time.perf_counter() - started:.2f} s")  # fmt: skip
    total = args.packs * len(pods[0].packs[0][0])
    rng = random.Random(args.seed)
    # Which phones go silent, and from which pick on (for three picks).
    drops = {pid: rng.randint(2, total - 3) for _c, pid in phones if rng.random() < args.drop}
    timings: dict[str, list[float]] = defaultdict(list)
    counts: Counter[str] = Counter()
    step_done_at: dict[tuple[int, int], float] = {}
    seen_at: dict[tuple[int, int], list[float]] = defaultdict(list)
    pod_of = {pid: pod.number for pod in pods for pid in pod.seats}
    url = f"/api/tournaments/{tournament.pk}/draft/"
    lock = threading.Lock()
    done = threading.Event()

    def timed(kind: str, call):  # type: ignore[no-untyped-def]
        t = time.perf_counter()
        response = call()
        with lock:
            timings[kind].append((time.perf_counter() - t) * 1000)
            counts[f"{kind} {response.status_code}"] += 1
        return response

    def phone_loop(mine: list[tuple[Client, int]]) -> None:
        close_old_connections()
        last_seen: dict[int, int] = {}
        local = random.Random(mine[0][1])
        while not done.is_set():
            busy = False
            for client, pid in mine:
                me = timed("GET draft/me", lambda c=client: c.get(url + "me/")).json()
                if me["finished"]:
                    continue
                busy = True
                number = me["pick_number"]
                if last_seen.get(pid) != number:
                    last_seen[pid] = number
                    with lock:
                        seen_at[(pod_of[pid], number)].append(time.perf_counter())
                if me["waiting"] or not me["pack"] or me["paused"]:
                    continue
                if pid in drops and drops[pid] <= number < drops[pid] + 3:
                    continue  # this phone is asleep / off the Wi-Fi
                key = uuid.uuid4().hex
                body = {"card": me["pack"][0], "pick_number": number}

                def post(c: Client = client, k: str = key, b: dict = body):  # type: ignore[type-arg]
                    return c.post(url + "pick/", b, content_type="application/json", HTTP_IDEMPOTENCY_KEY=k)

                timed("POST pick", post)
                if local.random() < args.resend:
                    timed("POST pick (same key again)", post)
                if local.random() < args.double and len(me["pack"]) > 1:
                    other = {"card": me["pack"][1], "pick_number": number}
                    timed(
                        "POST pick (second pick)",
                        lambda c=client, o=other: c.post(
                            url + "pick/",
                            o,
                            content_type="application/json",
                            HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
                        ),
                    )
            if not busy:
                break
            time.sleep(0.05)
        close_old_connections()

    organizer_client = Client()
    organizer_client.force_login(organizer)
    threads = [
        threading.Thread(target=phone_loop, args=(phones[i :: args.threads],)) for i in range(args.threads)
    ]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    last_steps: dict[int, int] = {}
    while any(t.is_alive() for t in threads):
        time.sleep(0.3)
        board = timed("GET pods dashboard", lambda: organizer_client.get(url + "pods/")).json()
        for pod in board:
            if last_steps.get(pod["pod"]) != pod["pick_number"]:
                last_steps[pod["pod"]] = pod["pick_number"]
                step_done_at[(pod["pod"], pod["pick_number"])] = time.perf_counter()
            silent = [s for s in pod["seats"] if not s["picked"] and s["player"] in drops
                      and drops[s["player"]] <= pod["pick_number"] < drops[s["player"]] + 3]  # fmt: skip
            waiting_only_for_silent = (
                not pod["finished"] and silent and all(s["picked"] or s in silent for s in pod["seats"])
            )
            if waiting_only_for_silent:  # their timers run out
                DraftPod.objects.filter(event=event, number=pod["pod"]).update(
                    deadline=timezone.now() - timedelta(seconds=1)
                )
        timed("POST tick", lambda: organizer_client.post(url + "tick/"))
    elapsed = time.perf_counter() - started
    for thread in threads:
        thread.join()

    print(f"\n{len(phones)} phones, {len(pods)} pods, {args.packs} packs of {len(pods[0].packs[0][0])}, "
          f"{args.threads} threads, {len(drops)} phones silent for 3 picks: {elapsed:.1f} s")  # fmt: skip
    print(f"{'request':32} {'n':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for kind, values in sorted(timings.items()):
        print(
            f"{kind:32} {len(values):6d} {statistics.median(values):8.1f} {pct(values, 95):8.1f} {max(values):8.1f}"
        )
    print("answers:", dict(sorted(counts.items())))
    lags = []
    for key, times in seen_at.items():
        if key in step_done_at:
            lags.extend(t - step_done_at[key] for t in times if t >= step_done_at[key])
    print(f"pass → phone sees the next pack (its next poll; dashboard sampling every 0.3 s): "
          f"p95 {pct(lags, 95):.2f} s, max {max(lags or [0]):.2f} s")  # fmt: skip

    picks = DraftPick.objects.filter(pod__event=event)
    n_picks = picks.count()
    doubled = picks.values("pod", "seat", "pick_number").distinct().count() != n_picks
    bad_partition = 0
    for pod in DraftPod.objects.filter(event=event):
        got = Counter(pod.picks.values_list("card", flat=True))
        want = Counter(card for rnd in pod.packs for pack in rnd for card in pack)
        bad_partition += got != want
    expected = len(phones) * total
    unfinished = DraftPod.objects.filter(event=event, finished_at__isnull=True).count()
    print(f"picks: {n_picks} of {expected} (lost {expected - n_picks}, doubled {int(doubled)}), "
          f"auto {picks.filter(auto=True).count()}; pods whose picks are not a partition of their packs: "
          f"{bad_partition}; unfinished pods: {unfinished}")  # fmt: skip


if __name__ == "__main__":
    main()
