"""What every tournament page shares: running a service with its refusal shown as a message, safe redirects
back, reading ids and numbers from a form, the join link and its QR code."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _

from decks.formats import MAX_BYTES
from decks.models import Deck
from venue.addresses import phone_origin as venue_phone_origin

from .. import live
from ..models import Tournament


def errors(error: ValidationError) -> list[str]:
    if hasattr(error, "error_dict"):
        return [f"{field}: {msg}" if field != "__all__" else msg for field, msgs in error.message_dict.items()
                for msg in msgs]  # fmt: skip
    return list(error.messages)


def refused(request: HttpRequest, error: ValidationError | PermissionDenied) -> None:
    if isinstance(error, ValidationError):
        for message in errors(error):
            messages.error(request, message)
    else:
        messages.error(request, str(error) or _("You are not allowed to do that."))


def run(request: HttpRequest, action: Callable[[], Any], success: str | None = None) -> Any:
    """Call a service; report a refusal as a message instead of an error page."""
    try:
        result = action()
    except (ValidationError, PermissionDenied) as error:
        refused(request, error)
        return None
    if success:
        messages.success(request, success)
    return result if result is not None else True


def local_path(target: str, fallback: str) -> str:
    """``target`` when it is a path on this site, else ``fallback``: never redirect to another site."""
    return target if target.startswith("/") and not target.startswith("//") else fallback


def back(request: HttpRequest, fallback: str) -> HttpResponseRedirect:
    return HttpResponseRedirect(local_path(request.POST.get("next", ""), fallback))


def tournament_or_404(pk: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("game", "created_by", "banlist"), pk=pk)


def int_or(value: Any, default: int | None = None) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def deck_for(request: HttpRequest) -> Any:
    """The deck a form names (``deck``), when the user may read it; None when none is named."""
    deck_id = int_or(request.POST.get("deck"))
    if not deck_id:
        return None

    deck = Deck.objects.filter(pk=deck_id).first()
    if deck is None or not deck.readable_by(request.user):
        raise Http404
    return deck


def upload_text(request: HttpRequest, text_field: str, file_field: str) -> tuple[str | bytes, str]:
    """A pasted list, or an uploaded file (read up to the parser's size limit, which then names the problem)."""

    upload = request.FILES.get(file_field)
    if upload is not None:
        return upload.read(MAX_BYTES + 1), upload.name or ""
    return request.POST.get(text_field, ""), ""


def live_config(**values: Any) -> dict[str, Any]:
    """The live pages' script settings (json_script): how often to poll, and the page's own extras."""
    return {"poll_ms": live.POLL_MS, **values}


def phone_origin(request: HttpRequest) -> dict[str, Any]:
    """Where phones reach this site (the venue's LAN address or certificate host name, the `.local` name):
    decided in ``venue/addresses.py``, which owns the venue's network."""

    return venue_phone_origin(request)


def join_url(request: HttpRequest, tournament: Tournament) -> str:
    path = reverse("tournaments:join_code", args=[tournament.join_code or "-"])
    return phone_origin(request)["origin"] + path


def qr_svg(data: str, *, scale: int = 6) -> str:
    """The QR code of ``data`` as inline SVG (drawn on the server: no script, no request to anyone)."""
    import segno

    # A viewBox and no width/height (omitsize) so CSS scales the drawing instead of cropping it; a quiet zone
    # of 4 modules (what the QR standard asks for) so phone cameras find the code on any background.
    return segno.make(data, error="m").svg_inline(
        scale=scale, border=4, dark="#000", light="#fff", omitsize=True, svgclass="qr-code"
    )
