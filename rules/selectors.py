"""Ban list reads."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce, NullIf

from cards.models import Card, Game

from .engine import BanListInfo
from .models import BanList, BanListEntry


def banlist_list(*, game: Game | str | None = None) -> QuerySet[BanList]:
    qs = BanList.objects.select_related("game").annotate(entry_count=Count("entries"))
    if isinstance(game, Game):
        qs = qs.filter(game=game)
    elif game:
        qs = qs.filter(game__slug=game)
    return qs.order_by("game__name", "-effective_date", "name")


def banlist_in_effect(*, game: Game, regions: Sequence[str], on_date: date) -> BanList | None:
    """The latest list on or before ``on_date`` whose region is one the format reads (first region wins ties)."""
    if not regions:
        return None
    candidates = list(
        BanList.objects.filter(game=game, region__in=list(regions), effective_date__lte=on_date).order_by(
            "-effective_date", "-created_at"
        )[:20]
    )
    if not candidates:
        return None
    latest = candidates[0].effective_date
    same_day = [b for b in candidates if b.effective_date == latest]
    return min(same_day, key=lambda b: list(regions).index(b.region))


def banlist_entries(*, banlist: BanList, query: str = "") -> QuerySet[BanListEntry]:
    qs = banlist.entries.select_related("card")
    if query:
        qs = qs.filter(
            Q(name__icontains=query)
            | Q(external_id=query.strip())
            | Q(card__search_name__contains=query.casefold())
        )
    return qs.order_by("limit", "name")


# Ban lists are immutable, so their engine view can be kept per process; the content hash guards against a
# list deleted and re-imported under the same id (created_at differs then).
_INFO_CACHE: dict[tuple[int, str, object, int], BanListInfo] = {}


def banlist_info(banlist: BanList) -> BanListInfo:
    """The engine's view of a list: limits by passcode, and by canonical identity for alternate artworks."""
    # The card count is in the key because entries are resolved against the cards present (see below):
    # importing the card database after the list must not leave a stale view behind.
    cards = Card.objects.filter(game_id=banlist.game_id).count()
    key = (banlist.pk, banlist.content_hash, banlist.created_at, cards)
    cached = _INFO_CACHE.get(key)
    if cached is None:
        if len(_INFO_CACHE) > 64:
            _INFO_CACHE.clear()
        cached = _INFO_CACHE[key] = _banlist_info(banlist)
    return cached


def _banlist_info(banlist: BanList) -> BanListInfo:
    limits: dict[str, int] = {}
    identities: dict[str, int] = {}
    # Entries imported before their cards have no identity stored: look the printing up now, so a list that
    # names only an alternate artwork still limits the original (count by identity, printing then alias).
    printing_identity = Card.objects.filter(
        game_id=banlist.game_id, external_id=OuterRef("external_id")
    ).values("identity")[:1]
    rows = banlist.entries.annotate(
        resolved=Coalesce(NullIf("identity", Value("")), Subquery(printing_identity), Value(""))
    ).values_list("external_id", "resolved", "limit")
    for external_id, identity, limit in rows:
        limits[external_id] = limit
        if identity and identity != external_id:
            identities[identity] = min(limit, identities.get(identity, limit))
    for identity, limit in identities.items():
        limits.setdefault(identity, limit)
    return BanListInfo(
        name=banlist.name,
        limits=limits,
        whitelist=banlist.is_whitelist,
        effective_date=banlist.effective_date,
    )
