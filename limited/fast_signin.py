"""The signed-in account of a request, read before Django for the draft's fast paths (limited/wsgi.py,
limited/wsgi_pick.py): the venue's database session, checked as ``django.contrib.auth.get_user`` checks it
(an active account whose password hash is still the one the session was made with), or an API token as the
API checks it. Anything not plainly one of these answers None or Django's own check."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from accounts.backends import LockoutModelBackend
from accounts.models import ApiToken
from accounts.tokens import token_digest
from config.sessions import SESSION_SQL
from tournaments.live.sql import poll_fetch
from tournaments.live.wsgi import cookie_value, session_user_id


def token_user_id(environ: dict[str, Any]) -> int | None:
    """The active account of an ``Authorization: Token <key>`` header, as accounts.tokens checks it."""
    words = environ.get("HTTP_AUTHORIZATION", "").split()
    if len(words) != 2 or words[0].lower() != "token":
        return None
    found = (
        ApiToken.objects.filter(digest=token_digest(words[1]), user__is_active=True)
        .values_list("user_id", flat=True)
        .first()
    )
    return found


_DB_SESSIONS = ("django.contrib.sessions.backends.db", "config.sessions")


@dataclass(frozen=True, slots=True)
class SessionClaim:
    """A database session naming a user signed in through a backend that finds users as Django's
    ModelBackend does: the user and the password hash the session was made under, checked against the
    account in the caller's own query (limited/wsgi.py ``_owned``, limited/wsgi_pick.py), as ``django.contrib.auth.get_user`` checks them."""

    user_id: int
    auth_hash: str


@lru_cache(maxsize=8)
def _model_backend(path: str) -> bool:
    """Whether the backend named in a session finds its users as ModelBackend does (by primary key, active
    accounts only) — the only ones checked here; any other goes through Django's own get_user."""
    if path not in settings.AUTHENTICATION_BACKENDS:
        return False
    return getattr(load_backend(path).get_user, "__func__", None) in (
        ModelBackend.get_user,
        LockoutModelBackend.get_user,
    )


def session_claim(environ: dict[str, Any]) -> SessionClaim | int | None:
    """The session's sign-in: a SessionClaim to check in the poll's query (the venue's database sessions,
    two short statements), else the user id as Django's get_user finds it (other session engines or
    backends), else None (no session, or nobody signed in)."""
    if settings.SESSION_ENGINE not in _DB_SESSIONS or settings.SECRET_KEY_FALLBACKS:
        return session_user_id(environ)  # not the plain case: Django's own check, whatever it costs
    key = cookie_value(environ, settings.SESSION_COOKIE_NAME)
    if not key or len(key) < 8:
        return None
    rows = poll_fetch(SESSION_SQL, [key, connection.ops.adapt_datetimefield_value(timezone.now())])
    if not rows:
        return None
    user_id, backend, auth_hash = _session_fields(rows[0][0])
    if user_id is None or backend is None:
        return None
    if not auth_hash or not _model_backend(backend):
        return session_user_id(environ)
    try:
        return SessionClaim(int(user_id), str(auth_hash))
    except (TypeError, ValueError):
        return None


@lru_cache(maxsize=4096)
def _session_fields(session_data: str) -> tuple[Any, Any, Any]:
    """The sign-in a session's stored data names. A pure function of the data and the secret (a signature
    that does not hold decodes to nothing), so each phone's session is checked and unpacked once per worker,
    not on every poll; expiry is the query's, the password and the account's state the poll's own check."""
    data = SessionStore().decode(session_data)  # {} when the signature does not hold
    return data.get(SESSION_KEY), data.get(BACKEND_SESSION_KEY), data.get(HASH_SESSION_KEY)


@lru_cache(maxsize=4096)
def session_auth_hash(password: str) -> str:
    """The session hash of a password (an HMAC of the stored hash): the same stored hash gives the same one."""
    return get_user_model()(password=password).get_session_auth_hash()


def claim_holds(who: SessionClaim | int, *, user_id: int | None, active: bool, password: str) -> bool:
    """Whether the account read in the caller's query (its id, state and stored password hash) is the one
    the sign-in names, as get_user checks a session: a mismatch goes to Django, which flushes the session
    (a password change signs every other session out)."""
    if isinstance(who, SessionClaim):
        return (
            user_id == who.user_id
            and active
            and constant_time_compare(who.auth_hash, session_auth_hash(password))
        )
    return user_id == who
