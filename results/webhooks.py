"""Signed webhooks from an outbox.

A change writes its outbox rows (WebhookDelivery) inside its own transaction (``signals.change_pending``), so
an event exists exactly when the change committed. After the commit a Celery task sends the webhook's due
rows in id order — the order the changes committed — and stops at the first failure so a receiver never
sees them out of order; a failed row waits with exponential backoff (30 s, 1, 2, 4 … up to 60 minutes), and
after CIRCUIT_FAILURES failures in a row the webhook pauses for CIRCUIT_PAUSE (the circuit breaker). Each
request carries ``X-Deckhall-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" with the secret>``
and ``X-Deckhall-Timestamp``; the secret is never in a body. Bodies name ids and links, never a deck list.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import socket
import time
import urllib.error
import urllib.request
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.api import Unprocessable
from tournaments import signals
from tournaments.models import Tournament
from tournaments.permissions import can_organize_any

from .models import Webhook, WebhookDelivery

CIRCUIT_FAILURES = 8
CIRCUIT_PAUSE = timedelta(minutes=10)
MAX_BACKOFF = timedelta(minutes=60)
TIMEOUT_SECONDS = 5


def _unusable_host() -> str:
    return _("This address has no host name the server can look up.")


def sign(secret: str, timestamp: str, body: bytes) -> str:
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def _idna_host(host: str) -> bool:
    """Whether the host name can be looked up at all (IDNA refuses control characters and the like)."""
    try:
        host.encode("idna")
    except UnicodeError:
        return False
    return True


def _private_address(host: str) -> bool:
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    for info in infos:
        address = ipaddress.ip_address(info[4][0])
        if address.is_private or address.is_loopback or address.is_link_local or address.is_reserved:
            return True
    return False


@transaction.atomic
def webhook_create(*, by: Any, url: str, events: list[str], secret: str) -> Webhook:
    if not can_organize_any(by):
        raise PermissionDenied(_("Only organizers may add webhooks."))
    errors = {}
    try:
        parts = urlsplit(url or "")
        hostname = parts.hostname
    except ValueError:  # "http://[x/": a bracketed host that is no IPv6 address
        parts, hostname = None, None
    if parts is None:
        errors["url"] = _unusable_host()
    elif parts.scheme not in ("http", "https") or not hostname:
        errors["url"] = _("Give an http:// or https:// address.")
    elif not _idna_host(hostname):
        errors["url"] = _unusable_host()
    elif _private_address(hostname) and not getattr(settings, "WEBHOOKS_ALLOW_PRIVATE", False):
        # Never let a webhook make the server call its own network (SSRF).
        errors["url"] = _("This address is on a private network; webhooks go to public addresses only.")
    unknown = [e for e in events or [] if e not in Webhook.EVENTS]
    if not events or unknown:
        errors["events"] = _("Choose events among: %(events)s.") % {"events": ", ".join(Webhook.EVENTS)}
    if not secret or len(secret) < 16 or len(secret) > 200:
        errors["secret"] = _("The secret must be 16 to 200 characters long.")
    unusable = (
        _("This address is on a private network; webhooks go to public addresses only."),
        _unusable_host(),
    )
    if set(errors) == {"url"} and errors["url"] in unusable:
        raise Unprocessable(errors)  # a well-formed address the server will not call (README "Errors": 422)
    if errors:
        raise ValidationError(errors)
    return Webhook.objects.create(owner=by, url=url, events=list(dict.fromkeys(events)), secret=secret)


def _event_of(pending: Any, kwargs: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    if pending is signals.round_paired:
        return "round.paired", {"round": kwargs.get("round_number")}
    if pending is signals.result_settled:
        return "results.changed", {"match": kwargs.get("match_id")}
    if pending is signals.tournament_changed and kwargs.get("what") == "finish":
        return "event.finished", {}
    return None


def outbox_write(pending: Any, kwargs: dict[str, Any]) -> list[int]:
    """Inside the change's transaction: one outbox row per interested webhook. Returns their webhooks' ids."""
    found = _event_of(pending, kwargs)
    tournament_id = kwargs.get("tournament_id")
    if found is None or tournament_id is None:
        return []
    event, data = found
    tournament = Tournament.objects.filter(pk=tournament_id).only("pk", "created_by_id").first()
    if tournament is None:
        return []
    organizers = {tournament.created_by_id, *tournament.co_organizers.values_list("id", flat=True)}
    hooks = [h for h in Webhook.objects.filter(owner_id__in=organizers) if event in h.events]
    if not hooks:
        return []
    now = timezone.now()
    body = {"event": event, "tournament": tournament_id, "data": data,
            "results": f"/api/tournaments/{tournament_id}/results.json"}  # fmt: skip
    WebhookDelivery.objects.bulk_create([
        WebhookDelivery(webhook=h, tournament_id=tournament_id, event=event, payload=body, next_attempt_at=now)
        for h in hooks
    ])  # fmt: skip
    return [h.pk for h in hooks]


def _post(hook: Webhook, delivery: WebhookDelivery) -> tuple[int | None, str]:
    body = json.dumps({**delivery.payload, "delivery": delivery.pk}, separators=(",", ":")).encode()
    timestamp = str(int(time.time()))
    # http/https only: webhook_create refuses every other scheme.
    request = urllib.request.Request(hook.url, data=body, method="POST", headers={  # noqa: S310
        "Content-Type": "application/json", "User-Agent": "Deckhall-Webhooks/1",
        "X-Deckhall-Event": delivery.event, "X-Deckhall-Delivery": str(delivery.pk),
        "X-Deckhall-Timestamp": timestamp, "X-Deckhall-Signature": sign(hook.secret, timestamp, body),
    })  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as answer:  # noqa: S310
            return answer.status, ""
    except urllib.error.HTTPError as error:
        return error.code, f"HTTP {error.code}"
    except (urllib.error.URLError, OSError) as error:
        return None, str(getattr(error, "reason", error))[:300]


def backoff(attempts: int) -> timedelta:
    return min(MAX_BACKOFF, timedelta(seconds=30 * 2 ** max(0, attempts - 1)))


def deliveries_send(*, webhook_id: int, now: datetime | None = None) -> float | None:
    """Send the webhook's due rows in order; returns seconds until the next try (None: nothing waits)."""
    now = now or timezone.now()
    hook = Webhook.objects.filter(pk=webhook_id).first()
    if hook is None:
        return None
    if hook.circuit_open_until and hook.circuit_open_until > now:
        return (hook.circuit_open_until - now).total_seconds()
    for delivery in hook.deliveries.filter(status=WebhookDelivery.Status.PENDING).order_by("id"):
        if delivery.next_attempt_at > now:
            return (delivery.next_attempt_at - now).total_seconds()
        code, error = _post(hook, delivery)
        delivery.attempts += 1
        delivery.last_status = code
        if code is not None and 200 <= code < 300:
            delivery.status = WebhookDelivery.Status.DELIVERED
            delivery.delivered_at = timezone.now()
            delivery.last_error = ""
            delivery.save()
            hook.consecutive_failures = 0
            hook.circuit_open_until = None
            hook.save(update_fields=["consecutive_failures", "circuit_open_until"])
            continue
        delivery.last_error = error or f"HTTP {code}"
        delivery.next_attempt_at = now + backoff(delivery.attempts)
        delivery.save()
        hook.consecutive_failures += 1
        if hook.consecutive_failures >= CIRCUIT_FAILURES:
            hook.circuit_open_until = now + CIRCUIT_PAUSE
        hook.save(update_fields=["consecutive_failures", "circuit_open_until"])
        # Stop here: the rows after this one wait, so the receiver gets them in order.
        return (delivery.next_attempt_at - now).total_seconds()
    return None
