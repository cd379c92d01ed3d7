"""Simultaneous password guesses against the log-in lockout (100 at once checked 20–26
passwords against a limit of 10 when the counter lived in the cache).

    .venv/bin/python bench/bench_lockout_race.py [--guesses 100] [--limit 10] [--runs 3]

Builds its own temporary SQLite file database (the venue's engine: WAL, a busy timeout, one writer at a
time), then per run sends ``--guesses`` wrong passwords at one account from one address at once, in
threads, through Django's ``authenticate()`` (the path of the log-in page, the admin and the API token
endpoint). Prints per run how many passwords were really checked (target: at most the limit) and the
median and worst milliseconds per guess.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--guesses", type=int, default=100)
    parser.add_argument("--limit", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="deckhall-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
    os.environ["LOGIN_MAX_FAILURES"] = str(args.limit)
    os.environ["LOGIN_ADDRESS_MAX_FAILURES"] = str(args.guesses * args.runs * 10)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import authenticate
    from django.core.exceptions import PermissionDenied
    from django.core.management import call_command
    from django.db import connections
    from django.test import RequestFactory

    from accounts.models import AttemptCounter, User

    call_command("migrate", verbosity=0)
    User.objects.create_user(username="target", password="the-Right-one-42")
    real_check = User.check_password
    checked: list[int] = []

    def counting_check(self: User, raw: str) -> bool:
        checked.append(1)
        return real_check(self, raw)

    User.check_password = counting_check  # type: ignore[method-assign]
    print(f"{'run':>3} {'guesses':>8} {'checked':>8} {'limit':>6} {'median ms':>10} {'worst ms':>9}")
    for run in range(1, args.runs + 1):
        AttemptCounter.objects.all().delete()
        checked.clear()
        barrier = threading.Barrier(args.guesses)
        times: list[float] = []

        def guess(index: int, barrier: threading.Barrier, times: list[float]) -> None:
            request = RequestFactory().post("/accounts/login/", REMOTE_ADDR="198.51.100.7")
            barrier.wait()
            start = time.perf_counter()
            try:
                authenticate(request, username="target", password=f"guess-{index}")
            except PermissionDenied:
                pass
            finally:
                times.append((time.perf_counter() - start) * 1000)
                connections.close_all()

        threads = [threading.Thread(target=guess, args=(i, barrier, times)) for i in range(args.guesses)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(f"{run:>3} {args.guesses:>8} {len(checked):>8} {args.limit:>6} "
              f"{statistics.median(times):>10.1f} {max(times):>9.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
