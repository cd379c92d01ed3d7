"""CPU time of a call, measured the way a bound on it can be trusted on a shared machine.

A linear-time guard compares a call's CPU time with a bound far above its usual cost and far below what
backtracking costs (seconds). One run can still land on a garbage collection, a cold cache or a busy CI
neighbour and pass the bound by a few per cent, which says nothing about the algorithm; the least of a few
runs cannot be inflated that way, while a call that is really slow stays slow in every run.
"""

from __future__ import annotations

import time
from collections.abc import Callable

TRIES = 3


def least_cpu_seconds(call: Callable[[], object], under: float) -> float:
    """The least CPU time of up to TRIES runs of `call`, stopping at the first run under `under` seconds."""
    least = float("inf")
    for _ in range(TRIES):
        start = time.process_time()
        call()
        least = min(least, time.process_time() - start)
        if least < under:
            break
    return least
