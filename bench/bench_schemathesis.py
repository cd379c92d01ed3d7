"""The full schemathesis hunt: every operation of the API, as anonymous, player, organizer and staff, with
many more examples per operation than the CI test (tests/security/test_schemathesis.py: 2 by default, three
roles). For `st run --checks all --mode all` against a running server (what the figures in the report come
from): start gunicorn with the throttles raised and run `st run URL/api/schema/ --checks all --mode all -H
"Authorization: Token …"` per role.

    .venv/bin/python bench/bench_schemathesis.py [--examples 100] [--roles organizer]

Runs that test with SCHEMATHESIS_EXAMPLES set and prints its figures (requests, operations, failures with
the operation, role and the check that failed). The bar: 0 × 5xx, 0 mismatches. Deck checks are throttled
per address (DECK_CHECK_THROTTLE_RATE): the hunt raises that rate so it measures answers, not the throttle.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=100, help="examples per operation, role and mode")
    parser.add_argument(
        "--roles",
        default="anonymous,player,organizer,staff",
        help="comma-separated: one role per run is faster",
    )
    args = parser.parse_args()
    env = {
        **os.environ,
        "SCHEMATHESIS_EXAMPLES": str(args.examples),
        "SCHEMATHESIS_ROLES": args.roles,
        "DECK_CHECK_THROTTLE_RATE": "100000/min",
    }
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q", "-s",
               "tests/security/test_schemathesis.py"]  # fmt: skip
    return subprocess.call(command, cwd=ROOT, env=env)


if __name__ == "__main__":
    raise SystemExit(main())
