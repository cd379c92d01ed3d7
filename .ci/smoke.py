"""The production smoke scenario, over HTTP against running web nodes (standard library only).

Run by .ci/cluster from the runtime-only environment: gunicorn nodes, Celery workers, PostgreSQL, Redis.
    python .ci/smoke.py http://127.0.0.1:8101 http://127.0.0.1:8102
1. every node is healthy and sees a Celery worker;
2. the real YGOPro .cdb is imported through the broker and the job is waited for (skipped, saying so,
   when ../shared/data is absent);
3. a 64-player event: three rounds paired and reported through the API, alternating the nodes,
   standings read back;
4. the nodes share state: the live pairings page has one version on both and a result corrected on node A
   changes it on node B; a session made on node A works on node B; the token endpoint's throttle counts
   requests to both nodes together (shared cache).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.deploy.event_driver import (  # noqa: E402 - after the path set-up above
    HTTPFailure,
    Site,
    event_create,
    round_pair,
    round_report,
    rounds_list,
    standings,
    wait_healthy,
)

USER = os.environ.get("SMOKE_USER", "smoke")
PASSWORD = os.environ.get("SMOKE_PASSWORD", "smoke-Passw0rd!")
PLAYERS, ROUNDS = 64, 3


def step(text: str) -> float:
    print(f"-- {text}", flush=True)
    return time.monotonic()


def done(started: float, text: str = "ok") -> None:
    print(f"   {text} ({time.monotonic() - started:.1f} s)", flush=True)


def shared_cdb() -> Path | None:
    data = Path(os.environ.get("DECKHALL_SHARED_DATA") or ROOT.parent / "shared" / "data")
    found = sorted(data.glob("ygo/cdb/*.cdb")) if data.is_dir() else []
    return found[-1] if found else None


def import_through_broker(sites: list[Site]) -> None:
    cdb = shared_cdb()
    if cdb is None:
        print(
            "   SKIPPED: no YGOPro .cdb under ../shared/data (set DECKHALL_SHARED_DATA): import not exercised"
        )
        return
    started = step(f"import {cdb.name} ({cdb.stat().st_size // 1024} KB) through the broker")
    job = sites[0].upload("/api/cards/import/", {"game": "yugioh"}, cdb.name, cdb.read_bytes())
    deadline = time.monotonic() + 600
    polls = 0
    while job["status"] in {"pending", "running"}:
        if time.monotonic() > deadline:
            raise HTTPFailure(f"import job {job['id']} still {job['status']} after 600 s")
        time.sleep(1)
        polls += 1
        job = sites[polls % len(sites)].get(f"/api/import-jobs/{job['id']}/")
    if job["status"] != "done":
        raise HTTPFailure(f"import job ended {job['status']}: {job.get('errors')}")
    if job["total"] < 10_000:
        raise HTTPFailure(f"only {job['total']} cards imported from {cdb.name}")
    done(started, f"{job['total']} cards: {job['created_count']} created, {job['updated_count']} updated")


def shared_live_page(sites: list[Site], event: int) -> None:
    # The projector's standings follow every result (the pairings page ignores results by design).
    started = step("the live standings page: one version on both nodes, a result changed on A reaches B")
    page = f"/tournaments/{event}/projector/standings/?fragment=1"
    _, _, headers = sites[-1].call("GET", page)
    etag = headers.get("ETag", "")
    if not etag:
        raise HTTPFailure(f"{page} gave no ETag")
    sites[0].call("GET", page, headers={"If-None-Match": etag}, expect=(304,))
    last = rounds_list(sites[0], event)[-1]
    match = next(m for m in last["matches"] if not m["bye"])
    sites[0].post(f"/api/matches/{match['id']}/correct/", {"wins": [0, 2], "draws": 0, "reason": "smoke"})
    _, _, fresh = sites[-1].call("GET", page, headers={"If-None-Match": etag}, expect=(200,))
    if fresh.get("ETag") == etag:
        raise HTTPFailure("node B still serves the old version after a change on node A")
    done(started)


def swiss_event(sites: list[Site]) -> int:
    started = step(f"{PLAYERS}-player event, {ROUNDS} rounds through the API on {len(sites)} nodes")
    event = event_create(sites[0], name="Smoke Swiss", players=PLAYERS, rounds=ROUNDS)
    for number in range(ROUNDS):
        node = sites[number % len(sites)]
        round_pair(node, event)
        current = rounds_list(sites[(number + 1) % len(sites)], event)[-1]
        half = len(current["matches"]) // 2
        round_report(node, current, limit=half)
        round_report(sites[(number + 1) % len(sites)], rounds_list(node, event)[-1])
    table = standings(sites[-1], event)
    if len(table) != PLAYERS or sum(row["wins"] for row in table) != PLAYERS // 2 * ROUNDS:
        raise HTTPFailure(f"standings do not add up: {len(table)} rows")
    done(started, f"event {event}: standings of {len(table)} players")
    return event


def shared_session(nodes: list[str]) -> None:
    started = step("a session made on node A is used on node B")
    first = Site(nodes[0], behind_proxy=True)
    first.log_in_form(USER, PASSWORD)
    other = Site(nodes[-1], behind_proxy=True, cookies=first.cookies)
    other.call("GET", "/decks/new/")
    if "/accounts/login/" in other.last_url:
        raise HTTPFailure("node B did not know node A's session (sessions must be in the shared database)")
    done(started)


def shared_throttle(nodes: list[str], rate: int) -> None:
    started = step(f"the token endpoint's throttle ({rate}/min) counts both nodes together")
    for attempt in range(1, 2 * rate + 2):
        site = Site(nodes[attempt % len(nodes)], behind_proxy=True)
        status, _, _ = site.call(
            "POST",
            "/api/auth/token/",
            {"username": f"nobody{attempt}", "password": "wrong"},
            expect=(401, 429),  # wrong credentials: 401 (README, API "Errors")
        )
        if status == 429:
            # Per-node counters would allow `rate` on each node; the log-in above may still count once.
            if attempt > rate + 1:
                raise HTTPFailure(f"first 429 only at attempt {attempt}: the nodes do not share the cache")
            done(started, f"429 at attempt {attempt}")
            return
    raise HTTPFailure("the token endpoint never throttled")


def main(nodes: list[str]) -> int:
    started = step(f"nodes healthy: {', '.join(nodes)}")
    for node in nodes:
        health = wait_healthy(node, timeout=120)
        if not health.get("workers", {}).get("ok"):
            raise HTTPFailure(f"{node}/healthz sees no Celery worker: {health}")
    done(started)
    login = Site(nodes[0], behind_proxy=True)
    token = login.log_in_token(USER, PASSWORD)
    sites = [Site(node, token=token, behind_proxy=True) for node in nodes]
    import_through_broker(sites)
    event = swiss_event(sites)
    shared_live_page(sites, event)
    shared_session(nodes)
    shared_throttle(nodes, int(os.environ.get("AUTH_THROTTLE_RATE", "10/min").split("/")[0]))
    print("smoke: all steps passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["http://127.0.0.1:8101", "http://127.0.0.1:8102"]))
