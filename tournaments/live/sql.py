"""The few statements every live poll runs, prepared once per connection on PostgreSQL.

A room of 2,000 phones polls several hundred times a second, and each poll is one tiny query. On
PostgreSQL planning it costs more than running it (EXPLAIN ANALYZE of a player's fingerprint on a
500-player event: planning 0.25 ms, execution 0.10 ms), so these statements go to the server as
prepared statements: planned on a connection's first use and reused by every later poll on that
persistent connection (CONN_MAX_AGE).

Django's own cursors bind parameters on the client and never prepare (Django keeps prepared statements
off so that transaction-mode connection poolers work), and they stay that way: only the statements
passed here are prepared. Behind a pooler that cannot hold prepared statements, set
``DB_PREPARED_STATEMENTS=false`` and these run like any other query. SQLite has no planning cost worth
saving; it goes through Django's cursor.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import connection


def poll_fetch(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    """All rows of ``sql``: through a prepared statement on PostgreSQL, Django's cursor otherwise.
    Either way it goes through Django's cursor wrapper, so query logging and error wrapping are the same."""
    if connection.vendor != "postgresql" or not settings.DB_PREPARED_STATEMENTS:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.ensure_connection()
    with connection.wrap_database_errors:
        raw = ServerBindingCursor(connection.connection)
    with (
        connection.make_debug_cursor(raw) if connection.queries_logged else connection.make_cursor(raw)
    ) as cursor:
        # The connection's prepare_threshold (settings: 0) makes psycopg prepare the statement on its first
        # execution here and reuse it afterwards.
        cursor.execute(sql, params)
        return cursor.fetchall()
