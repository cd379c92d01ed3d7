"""Card pictures: where a card's picture is, never fetched by the server.

A card's picture is the one uploaded with a card import (cards/pictures.py, served by the site), else its
first printing's own picture (Cockatrice ``picURL``, ``image_url`` of an interchange
file's printing), else the game's URL template from its rule set (``[game] image_url``, filled with the
card's external id). A picture is shown only from a host the site allows (``CARD_IMAGE_HOSTS``; the same
list opens the Content-Security-Policy ``img-src``) or from the site itself (a relative ``/…`` path): with
no allowed host, or offline at a venue, pages show the card's text alone in the same layout.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from django.conf import settings
from django.db.models import FilteredRelation, Q
from django.urls import reverse

from games.registry import default_registry

from .models import Card


def allowed_image_url(url: str) -> str:
    """``url`` when the site may show it (same site, or an allowed host), else ""."""
    url = (url or "").strip()
    if not url:
        return ""
    if url.startswith("/") and not url.startswith("//"):
        return url
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        return ""
    origin = f"{parts.scheme}://{parts.netloc}".casefold()
    return url if origin in image_hosts() else ""


def image_hosts() -> set[str]:
    return {host.rstrip("/").casefold() for host in getattr(settings, "CARD_IMAGE_HOSTS", ()) if host}


def _template(game_slug: str) -> str:
    try:
        return default_registry().game(game_slug).image_url
    except KeyError:
        return ""


def _from_template(template: str, card: Card) -> str:
    if not template:
        return ""
    return template.replace("{external_id}", card.external_id).replace("{identity}", card.identity or "")


def card_images(cards: Iterable[Card]) -> dict[int, str]:
    """Card id → picture URL ("" for none) for many cards in one query, and remembered on each card so
    that ``card_image`` (and the preview) reuse it. A picture uploaded with a card import comes first (the
    game's editors chose it, and the site serves it itself), then the printing's own, then the template."""
    cards = [card for card in cards if card is not None]
    if not cards:
        return {}
    hosts_or_site = bool(image_hosts()) or _any_relative(cards)
    uploaded: dict[int, str] = {}
    own: dict[int, str] = {}
    # One query for both: the uploaded picture (one per card) and the printings that name a picture.
    rows = (
        Card.objects.filter(pk__in={card.pk for card in cards})
        .annotate(art=FilteredRelation("printings", condition=~Q(printings__image_url="")))
        .order_by("pk", "art__id")
        .values_list("pk", "picture__image", "art__image_url")
    )
    for card_id, picture, url in rows:
        if picture:
            uploaded[card_id] = picture_url(picture)
        if url and hosts_or_site:
            own.setdefault(card_id, url)
    templates: dict[str, str] = {}
    found: dict[int, str] = {}
    for card in cards:
        slug = card.game.slug
        if slug not in templates:
            templates[slug] = _template(slug) if hosts_or_site else ""
        url = (
            uploaded.get(card.pk)
            or allowed_image_url(own.get(card.pk, ""))
            or allowed_image_url(_from_template(templates[slug], card))
        )
        card._image_url = url  # type: ignore[attr-defined]
        found[card.pk] = url
    return found


def picture_url(name: str) -> str:
    """Where the site serves an uploaded picture (cards.views.picture reads it from the storage)."""
    return reverse("cards:picture", args=[name])


def _any_relative(cards: list[Card]) -> bool:
    # Pictures on the site itself need no allowed host; only templates can name them (printings are http).
    return any(_template(slug).startswith("/") for slug in {card.game.slug for card in cards})


def card_image(card: Card) -> str:
    """One card's picture URL, or ""."""
    cached = getattr(card, "_image_url", None)
    if cached is None:
        cached = card_images([card])[card.pk]
    return cached
