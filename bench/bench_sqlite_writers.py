"""Writers on one SQLite file, as the venue server runs them: 3 gunicorn-like processes of 4 threads, each
thread doing a request's work outside its transaction and a short write transaction (BEGIN IMMEDIATE) —
Django's own SQLite backend beside Deckhall's (config/sqlite: writers wait in line), in one run.

    .venv/bin/python bench/bench_sqlite_writers.py [--processes 3] [--threads 4] [--seconds 10]
            [--outside-ms 3] [--inside-ms 0.5]

Printed per backend: transactions per second, the wait for the write lock (from asking for the transaction to
its first statement) p50 / p95 / p99 / worst, the transactions refused ("database is locked"), and rows
written against transactions committed (they must be equal). The work is CPU work (a hash loop), so the
processes compete for the cores as requests do; on a 2-core machine 3 × 4 threads saturate it, which is the
case that matters: the room at its busiest.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def burn(ms: float) -> None:
    """CPU work for about ``ms`` milliseconds (holds the GIL, as rendering does)."""
    end = time.thread_time() + ms / 1000
    data = b"x" * 64
    while time.thread_time() < end:
        data = hashlib.sha256(data).digest()


def setup(engine: str, path: str) -> None:
    import django
    from django.conf import settings

    settings.configure(
        DATABASES={"default": {
            "ENGINE": engine, "NAME": path, "CONN_MAX_AGE": 300,
            "OPTIONS": {"init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                        "transaction_mode": "IMMEDIATE", "timeout": 20},
        }},
        INSTALLED_APPS=[], USE_TZ=True,
    )  # fmt: skip
    sys.path.insert(0, str(ROOT))
    django.setup()


def worker(
    engine: str, path: str, threads: int, seconds: float, outside: float, inside: float, out: object
) -> None:
    setup(engine, path)
    if os.environ.get("SWITCH_MS"):
        sys.setswitchinterval(float(os.environ["SWITCH_MS"]) / 1000)
    from django.db import OperationalError, connection, transaction

    waits: list[float] = []
    refused = [0]
    committed = [0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def run() -> None:
        mine: list[float] = []
        while time.monotonic() < stop:
            burn(outside)
            asked = time.monotonic()
            try:
                with transaction.atomic():
                    mine.append(time.monotonic() - asked)
                    with connection.cursor() as cursor:
                        cursor.execute("INSERT INTO writes (at) VALUES (%s)", [asked])
                    burn(inside)
                with lock:
                    committed[0] += 1
            except OperationalError:
                with lock:
                    refused[0] += 1
        connection.close()
        with lock:
            waits.extend(mine)

    pool = [threading.Thread(target=run) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    out.put((waits, refused[0], committed[0]))  # type: ignore[attr-defined]


def measure(engine: str, args: argparse.Namespace) -> dict[str, float]:
    import sqlite3

    folder = tempfile.mkdtemp(prefix="bench_writers_")
    path = os.path.join(folder, "venue.sqlite3")
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE writes (id INTEGER PRIMARY KEY, at REAL)")
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    procs = [context.Process(target=worker, args=(engine, path, args.threads, args.seconds, args.outside_ms,
                                                  args.inside_ms, queue)) for _ in range(args.processes)]  # fmt: skip
    for proc in procs:
        proc.start()
    waits: list[float] = []
    refused = committed = 0
    for _ in procs:
        w, r, c = queue.get()
        waits += w
        refused += r
        committed += c
    for proc in procs:
        proc.join()
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT COUNT(*) FROM writes").fetchone()[0]
    waits.sort()

    def pct(p: float) -> float:
        return waits[min(len(waits) - 1, round(p / 100 * (len(waits) - 1)))] * 1000 if waits else 0.0

    return {"tps": committed / args.seconds, "p50": pct(50), "p95": pct(95), "p99": pct(99),
            "worst": waits[-1] * 1000 if waits else 0.0, "refused": refused, "committed": committed,
            "rows": rows, "mean": statistics.fmean(waits) * 1000 if waits else 0.0}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument(
        "--outside-ms", type=float, default=3.0, help="a request's CPU outside its transaction"
    )
    parser.add_argument("--inside-ms", type=float, default=0.5, help="CPU inside the write transaction")
    parser.add_argument("--engines", default="django.db.backends.sqlite3,config.sqlite")
    args = parser.parse_args()
    print(f"{args.processes} processes × {args.threads} threads, {args.seconds:.0f} s each; request work "
          f"{args.outside_ms} ms outside, {args.inside_ms} ms inside the transaction; {os.cpu_count()} cores")  # fmt: skip
    print(
        f"{'backend':28} {'tx/s':>7} {'wait p50':>9} {'p95':>8} {'p99':>8} {'worst':>8} {'refused':>8} {'rows=tx':>8}"
    )
    for engine in args.engines.split(","):
        r = measure(engine, args)
        print(f"{engine:28} {r['tps']:7.0f} {r['p50']:8.1f}ms {r['p95']:7.1f}ms {r['p99']:7.1f}ms "
              f"{r['worst']:7.0f}ms mean {r['mean']:5.1f}ms {r['refused']:8.0f} {'yes' if r['rows'] == r['committed'] else 'NO'}")  # fmt: skip


if __name__ == "__main__":
    main()
