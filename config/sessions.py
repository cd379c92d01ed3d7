"""Django's database sessions, read with one plain statement.

Every request that carries a session cookie reads its session; through the ORM that read costs ~0.15 ms of
query building for a statement SQLite answers in ~0.02 ms (bench/bench_draft.py: 2,000 phones each asking
every second or two). The row, its expiry check and everything else — decoding, saving, cycling keys,
clearing — are Django's own (``django.contrib.sessions.backends.db``), the table the same, so changing
``SESSION_ENGINE`` between the two keeps everyone signed in.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone

# The session's row if it has not expired: also what the poll before Django reads (limited/wsgi.py).
SESSION_SQL = "SELECT session_data FROM django_session WHERE session_key = %s AND expire_date > %s"


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> Any:
        key = self.session_key  # None when the cookie's value is not a valid key (SessionBase checks it)
        if key is None:
            self._session_key = None
            return None
        model = self.model
        connection = connections[router.db_for_read(model)]
        with connection.cursor() as cursor:
            cursor.execute(SESSION_SQL, [key, connection.ops.adapt_datetimefield_value(timezone.now())])
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        # load() decodes the data; the expiry was the statement's condition.
        return model(session_key=key, session_data=row[0])
