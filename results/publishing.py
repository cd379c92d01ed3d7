"""From the venue to the public site: a finished event's results document, sent once the laptop is online.

The venue builds the document as an anonymous reader would get it (``results_document(t, AnonymousUser())``):
only what the event's deck list timeline and the players' consent make public after the end leaves the
laptop. The site keeps one row per (origin, event id); the same document again is a no-op (same digest),
a corrected one replaces it. ``manage.py publish_event <id> --site https://… --token …`` does it.
"""

from __future__ import annotations

import hashlib
import json
import urllib.error
import urllib.request
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Tournament
from tournaments.permissions import can_organize_any

from .document import VERSION, results_document
from .models import PublishedEvent


def origin_id() -> str:
    """This install's stable name as an origin (derived from its secret key, revealing nothing of it)."""
    return hashlib.sha256(b"deckhall-origin:" + settings.SECRET_KEY.encode()).hexdigest()[:32]


def canonical(document: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The document without its generation time, and its digest: the same results give the same digest."""
    body = {k: v for k, v in document.items() if k != "generated_at"}
    return body, hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def publication_payload(tournament: Tournament) -> dict[str, Any]:
    if tournament.status != Tournament.Status.FINISHED:
        raise ValidationError(_("Only a finished event can be published."))
    return {"origin": origin_id(), "document": results_document(tournament, AnonymousUser())}


@transaction.atomic
def published_event_receive(*, by: Any, origin: str, document: Any) -> tuple[PublishedEvent, bool]:
    """Store a published event; returns (row, changed)."""
    if not can_organize_any(by):
        raise PermissionDenied(_("Only organizers may publish events."))
    version = document.get("version") if isinstance(document, dict) else None
    if isinstance(version, bool) or version != VERSION:  # True == 1 in Python; JSON's true is no version
        raise ValidationError({"document": _("Send a results document of version %(v)s.") % {"v": VERSION}})
    event = document.get("tournament") or {}
    if (
        not isinstance(event, dict)
        or not isinstance(event.get("id"), int)
        or isinstance(event.get("id"), bool)
        or not 0 <= event["id"] < 2**63
        or event.get("status") != "finished"
        or not origin
        or len(origin) > 64
    ):
        raise ValidationError({"document": _("The document must be a finished event's, with its origin.")})
    body, digest = canonical(document)
    row = PublishedEvent.objects.select_for_update().filter(origin=origin, source_id=event["id"]).first()
    if row is not None and row.digest == digest:
        return row, False
    values = {"name": str(event.get("name", ""))[:200], "game": str(event.get("game", ""))[:40], "document": body,
              "digest": digest, "published_by": by, "published_at": timezone.now()}  # fmt: skip
    row, _created = PublishedEvent.objects.update_or_create(
        origin=origin, source_id=event["id"], defaults=values
    )
    return row, True


def publish_to(site: str, token: str, payload: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(  # noqa: S310 (the organizer's own site, http/https checked by the command)
        site.rstrip("/") + "/api/published-events/", data=json.dumps(payload).encode(), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
    )  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
            return json.loads(answer.read())
    except urllib.error.HTTPError as error:
        raise ValidationError(f"{site} answered HTTP {error.code}: {error.read()[:300]!r}") from None
    except (urllib.error.URLError, OSError) as error:
        raise ValidationError(f"{site} cannot be reached: {getattr(error, 'reason', error)}") from None
