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


def post_worker_init(worker):  # type: ignore[no-untyped-def]
    """Freeze what the worker loaded (Django, the URL map, the card index modules) out of the collector.

    A full collection walks every object the process holds; after start-up that is mostly the framework,
    which lives as long as the worker. Measured in the collection bench: the worst reads were full
    collections of 120–215 ms; frozen, they walk only the objects requests made (CPython's gc.freeze docs
    recommend exactly this after a fork server's start-up)."""
    import gc

    gc.collect()
    gc.freeze()
