"""gunicorn settings every Deckhall node reads: gunicorn loads ./gunicorn.conf.py from the directory it is
started in, so the production command (README "Running in production": `gunicorn config.wsgi --workers 4
--bind 0.0.0.0:8000`), .ci/cluster and `make venue` all get them; command-line flags still win.

Keep-alive: the live pages poll every 4 s (tournaments/live/responses.py POLL_MS). gunicorn's default 2 s
closed each phone's connection between two polls, so every poll paid a new TCP handshake (on a venue
Wi-Fi, more than the poll itself). 10 s keeps one connection per phone across polls. It applies to the
threaded and async workers (`make venue` runs gthread and passes the same value); gunicorn's default sync
workers never keep a connection open, which is right behind a load balancer: there the phone's connection
ends at the balancer, whose idle timeout must then exceed the poll too (nginx keepalive_timeout 75 s and
cloud balancers' 60 s defaults do).
"""

keepalive = 10

# The master imports the site once and every worker is a fork of it. A worker that dies (kill -9, the
# kernel's OOM killer, a crash) is replaced in milliseconds by a copy of the loaded application, instead of
# a second or more of importing Django and the site (1.1 s of CPU on the 2-core bench machine, more when
# the source has no cached bytecode) while its phones reconnect to the others; the workers share the
# loaded code's memory pages as well. Importing the site opens no database connection and starts no
# thread (tests/foundation/test_a_killed_worker_is_a_fork_of_the_loaded_site.py), so nothing is shared
# across the fork that must not be. Code changes take a restart of the server (no HUP reload), as
# `make venue` and the production units do anyway.
preload_app = True


def post_worker_init(worker):  # type: ignore[no-untyped-def]
    """Freeze what the worker loaded (Django, the URL map, the card index modules) out of the collector.

    A full collection walks every object the process holds; after start-up that is mostly the framework,
    which lives as long as the worker. Measured in the collection bench: the worst reads were full
    collections of 120–215 ms; frozen, they walk only the objects requests made (CPython's gc.freeze docs
    recommend exactly this after a fork server's start-up)."""
    import gc

    gc.collect()
    gc.freeze()


# Connections spread evenly over the workers (threaded workers only).
#
# A phone keeps one connection (keep-alive) and every request on it goes to the worker that accepted it; a
# worker's threads share one interpreter lock, so one worker is at most one core. Which worker accepts is a
# race on the shared socket that nothing balances: in the 2,000-phone draft bench the survivors of a killed
# worker took over its phones, and one worker held 1,000 phones (gunicorn's per-worker maximum) beside one
# with 250 — half the room's requests queued on one core while the other idled. So each worker publishes how
# many connections it holds (shared memory made here, in the master, before the workers are forked), and
# holds at most its fair share plus a margin: gunicorn's own limits — a worker at its maximum stops accepting
# and answers its kept connections "Connection: close" — are set from that share before every request. A
# worker over its share closes connections after their answers; the phones reconnect (their next poll) and
# only workers under their share accept them. The margin keeps phones from moving back and forth.
BALANCE_MARGIN = 1.15
BALANCE_SLOTS = 256
# A few connections per worker are no imbalance worth a reconnect: a small room (the organizer's laptop and a
# handful of phones) keeps its connections as gunicorn alone would.
BALANCE_FROM = 32
_held = None  # per worker slot: 0 free, else 1 + the connections it holds


def connection_limit(total: int, alive: int, threads: int, cap: int) -> int:
    """The connections one worker may hold: its share of ``total`` over ``alive`` workers with the margin,
    plus its threads (a worker with none always accepts), never below BALANCE_FROM, at most gunicorn's
    ``worker_connections``. The limits add up to more than ``total``: some worker always accepts."""
    share = total / max(1, alive)
    return min(cap, max(BALANCE_FROM, threads, int(share * BALANCE_MARGIN) + threads))


def _slots():  # type: ignore[no-untyped-def]
    global _held
    if _held is None:
        import multiprocessing

        try:
            _held = multiprocessing.RawArray("i", BALANCE_SLOTS)
        except OSError:  # no shared memory here (a read-only temp dir): workers accept as gunicorn does
            return None
    return _held


def pre_fork(server, worker):  # type: ignore[no-untyped-def]
    """In the master: a free slot for the worker (the master forks one worker at a time)."""
    held = _slots()
    if held is None:
        return
    worker.deckhall_slot = next((i for i in range(BALANCE_SLOTS) if held[i] == 0), None)
    if worker.deckhall_slot is not None:
        held[worker.deckhall_slot] = 1


def child_exit(server, worker):  # type: ignore[no-untyped-def]
    """In the master: a worker that ended (killed or not) holds no connections."""
    slot = getattr(worker, "deckhall_slot", None)
    if slot is not None and _held is not None:
        _held[slot] = 0


def pre_request(worker, req):  # type: ignore[no-untyped-def]
    held, slot = _held, getattr(worker, "deckhall_slot", None)
    conns = getattr(worker, "nr_conns", None)  # gthread's count; sync workers hold one request at a time
    if held is None or slot is None or conns is None or not hasattr(worker, "max_keepalived"):
        return
    held[slot] = conns + 1
    values = held[:]
    alive = BALANCE_SLOTS - values.count(0)
    total = sum(values) - alive
    threads = worker.cfg.threads
    limit = connection_limit(total, alive, threads, worker.cfg.worker_connections)
    worker.worker_connections = limit
    worker.max_keepalived = limit - threads
