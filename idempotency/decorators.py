"""``@idempotent``: one decorator for HTML form views and DRF actions alike.

A request carrying ``Idempotency-Key`` is applied at most once per user and key: the key is stored with the
answer in the same transaction as the write, and a later request with the same key gets that answer again
(header ``Idempotent-Replayed: true``) without touching anything. The same key with a different request
(another method, path, query or body) answers 422; a malformed key 400. Keys expire after ``IDEMPOTENCY_KEY_TTL`` seconds
(24 h by default). Requests without the header, and anonymous ones (no identity to scope a key to; a
newcomer's sign-up is refused twice by the unique username anyway), run as before.

This is the pattern of pretix's offline check-in uploads and of Stripe's API, for phones on a venue Wi-Fi
whose answers get lost and whose pages send writes queued while offline.
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import IdempotencyKey

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 255


class _Taken(Exception):
    """Another request already holds this key (committed before ours could insert it)."""


def ttl() -> timedelta:
    return timedelta(seconds=getattr(settings, "IDEMPOTENCY_KEY_TTL", 24 * 3600))


def key_problem(key: str) -> str | None:
    if not 1 <= len(key) <= MAX_KEY_LENGTH or not all(33 <= ord(c) <= 126 for c in key):
        return _("Idempotency-Key must be 1 to %(n)s visible ASCII characters.") % {"n": MAX_KEY_LENGTH}
    return None


def fingerprint(request: HttpRequest) -> str:
    """What makes two requests "the same": method, path, query and body. A form's fields are compared as fields
    (sorted, without the CSRF token, which each page render masks differently), other bodies as bytes. The
    query's parameters are compared sorted, as the view reads them; a request without a query hashes as it did
    before the query was covered, so keys stored then still replay."""
    digest = hashlib.sha256()
    digest.update(f"{request.method} {request.path}\n".encode())
    query = sorted((k, v) for k, values in request.GET.lists() for v in values)
    if query:
        digest.update(b"query " + json.dumps(query).encode() + b"\n")
    content_type = request.META.get("CONTENT_TYPE", "")
    if content_type.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
        fields = sorted(
            (k, v) for k, values in request.POST.lists() if k != "csrfmiddlewaretoken" for v in values
        )
        digest.update(json.dumps(fields).encode())
        for name, upload in sorted(request.FILES.items()):
            digest.update(f"\nfile {name} {upload.name} {upload.size}".encode())
    else:
        digest.update(request.body)
    return digest.hexdigest()


# When this process last cleared each user's expired keys. The claim runs inside the write's transaction,
# which on SQLite holds the one write lock every phone's write waits for: a DELETE per write was a share of
# that lock's time for rows that expire once a day.
_SWEPT: dict[Any, float] = {}
_SWEEP_EVERY = 3600.0


def _sweep(user: Any, now: Any) -> None:
    last = _SWEPT.get(user.pk)
    moment = time.monotonic()
    if last is not None and moment - last < _SWEEP_EVERY:
        return
    if len(_SWEPT) > 100_000:
        _SWEPT.clear()
    _SWEPT[user.pk] = moment
    IdempotencyKey.objects.filter(user=user, created_at__lt=now - ttl()).delete()


# The claim and the kept answer in plain SQL: both run inside the write's transaction, which on SQLite holds the
# one write lock every phone's write waits for, and the ORM's query building was most of their time there.
_INSERT_SQL = (
    'INSERT INTO idempotency_idempotencykey (user_id, "key", fingerprint, created_at, status_code, content_type,'
    " location, body, api_data) VALUES (%s, %s, %s, %s, 200, '', '', %s, NULL)"
    ' ON CONFLICT (user_id, "key") DO NOTHING RETURNING id'
)
_STORE_HTML_SQL = (
    "UPDATE idempotency_idempotencykey SET status_code = %s, content_type = %s, location = %s, body = %s"
    " WHERE id = %s"
)


def _create(user: Any, key: str, print_: str, now: Any) -> IdempotencyKey | None:
    """The key's row, inserted; None when the key is taken. The unique index answers a taken key with no row
    (ON CONFLICT DO NOTHING, SQLite 3.24+ and PostgreSQL) rather than an error, so no savepoint is needed to
    keep the write's transaction usable: two statements fewer while SQLite's one write lock is held. On
    PostgreSQL the insert waits for a transaction holding the same key, as the unique index did before."""
    with connection.cursor() as cursor:
        cursor.execute(
            _INSERT_SQL, [user.pk, key, print_, connection.ops.adapt_datetimefield_value(now), b""]
        )
        row = cursor.fetchone()
    if row is None:
        return None
    record = IdempotencyKey(pk=row[0], user_id=user.pk, key=key, fingerprint=print_, created_at=now)
    record._state.adding, record._state.db = False, connection.alias
    return record


def _claim(user: Any, key: str, print_: str) -> IdempotencyKey:
    now = timezone.now()
    _sweep(user, now)
    record = _create(user, key, print_, now)
    # The key is taken: by an expired record, it is simply new again; else the holder's answer stands.
    if (
        record is None
        and IdempotencyKey.objects.filter(user=user, key=key, created_at__lt=now - ttl()).delete()[0]
    ):
        record = _create(user, key, print_, now)
    if record is None:
        raise _Taken
    return record


def _plain(status: int, message: str) -> HttpResponse:
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


def _store_html(record: IdempotencyKey, response: HttpResponse) -> None:
    record.status_code = response.status_code
    record.content_type = response.get("Content-Type", "")
    record.location = response.get("Location", "")
    record.body = bytes(response.content) if not response.streaming else b""
    with connection.cursor() as cursor:
        cursor.execute(
            _STORE_HTML_SQL,
            [record.status_code, record.content_type, record.location, record.body, record.pk],
        )


def _replay_html(record: IdempotencyKey) -> HttpResponse:
    response = HttpResponse(
        bytes(record.body), status=record.status_code, content_type=record.content_type or None
    )
    if record.location:
        response["Location"] = record.location
    response["Idempotent-Replayed"] = "true"
    return response


def _store_api(record: IdempotencyKey, response: Any) -> None:
    # Through the ORM, unlike the HTML answer's plain SQL: the JSON field writes PostgreSQL's jsonb (and
    # SQLite's text) as its own type, where a plain parameter would rest on the driver's type guessing.
    record.status_code = response.status_code
    record.api_data = json.loads(json.dumps(response.data, cls=DjangoJSONEncoder))
    record.save(update_fields=["status_code", "api_data"])


def _replay_api(record: IdempotencyKey) -> Any:
    from rest_framework.response import Response

    return Response(record.api_data, status=record.status_code, headers={"Idempotent-Replayed": "true"})


def _once(
    request: HttpRequest,
    user: Any,
    run: Callable[[], Any],
    store: Callable[[IdempotencyKey, Any], None],
    replay: Callable[[IdempotencyKey], Any],
    refuse: Callable[[int, str], Any],
) -> Any:
    key = request.headers.get(HEADER)
    if (
        key is None
        or request.method in ("GET", "HEAD", "OPTIONS")
        or not getattr(user, "is_authenticated", False)
    ):
        return run()
    problem = key_problem(key)
    if problem:
        return refuse(400, problem)
    print_ = fingerprint(request)
    for _attempt in range(3):
        try:
            with transaction.atomic():
                record = _claim(user, key, print_)
                response = run()
                if response.status_code >= 500:
                    # Not an answer worth keeping: undo the write and the key, so a retry runs again.
                    transaction.set_rollback(True)
                    return response
                store(record, response)
                return response
        except _Taken:
            # The holder's transaction has committed (the unique index made us wait for it): replay its answer.
            record = IdempotencyKey.objects.filter(user=user, key=key).first()
            if record is None:  # expired and deleted in between: claim it afresh
                continue
            if record.fingerprint != print_:
                return refuse(422, _("This Idempotency-Key was already used for a different request."))
            return replay(record)
    return refuse(409, _("This request is being processed; try again in a moment."))


def idempotent(view: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a function view ``view(request, ...)`` or a DRF viewset action ``action(self, request, ...)``
    (put it under ``@action``)."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if isinstance(args[0], HttpRequest):
            request = args[0]
            return _once(
                request, request.user, lambda: view(*args, **kwargs), _store_html, _replay_html, _plain
            )
        viewset, request = args[0], args[1]

        def run() -> Any:
            # An API action refuses by raising; the answer to keep is the one DRF would render for it.
            try:
                return view(*args, **kwargs)
            except Exception as error:
                return viewset.handle_exception(error)

        def refuse(code: int, message: str) -> Any:
            from rest_framework.response import Response

            return Response({"detail": message}, status=code)

        return _once(request._request, request.user, run, _store_api, _replay_api, refuse)

    return wrapper
