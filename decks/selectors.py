"""Reads for decks: what a user may see, a deck's cards, version diffs and validation."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any, TypeVar

from django.db.models import Count, Q, QuerySet
from django.http import Http404

from cards.models import Card
from games.registry import default_registry
from rules.models import BanList, BanListEntry
from rules.services import banlist_choose, deck_validate

from .maybe import without_maybe
from .models import Deck, DeckCard, DeckVersion

Sections = dict[str, list[tuple[Card, int]]]


def decks_listed_for(user: Any) -> QuerySet[Deck]:
    """Public decks plus the user's own (of any visibility); unlisted decks of others never appear."""
    query = Q(visibility=Deck.Visibility.PUBLIC)
    if user is not None and user.is_authenticated:
        query |= Q(owner=user)
    return (
        Deck.objects.filter(query)
        .select_related("owner", "game", "hero")
        .annotate(card_total=Count("entries"))
        .order_by("-updated_at", "-id")
    )


def deck_readable(*, pk: int, user: Any) -> Deck:
    """The deck if the user may read it; 404 otherwise, so private decks do not reveal they exist."""
    deck = Deck.objects.select_related("owner", "game", "hero").filter(pk=pk).first()
    if deck is None or not deck.readable_by(user):
        raise Http404("no such deck")
    return deck


T = TypeVar("T")


def section_order(*, game_slug: str, format_slug: str) -> list[str]:
    """The format's section slugs in the game's own order (Main, Extra, Side); the game's first format
    when the slug is unknown, nothing for an unknown game."""
    from .gamerules import format_info

    try:
        return format_info(game_slug, format_slug or None).section_slugs
    except KeyError:
        try:
            return format_info(game_slug, None).section_slugs
        except KeyError:
            return []


def sections_in_game_order(*, game_slug: str, format_slug: str, sections: Mapping[str, T]) -> dict[str, T]:
    """``sections`` re-ordered as the game orders them: what every page, export and printable lists.
    Sections the format does not know keep their relative order after the known ones."""
    order = section_order(game_slug=game_slug, format_slug=format_slug)
    rank = {slug: index for index, slug in enumerate(order)}
    slugs = sorted(sections, key=lambda slug: (rank.get(slug, len(rank)), slug))
    return {slug: sections[slug] for slug in slugs}


def deck_sections(deck: Deck) -> Sections:
    """The deck's cards per section, sections in the game's order, cards in the order they were added:
    one query."""
    sections: Sections = {}
    for entry in (
        DeckCard.objects.filter(deck=deck).select_related("card__game").order_by("section", "position", "id")
    ):
        sections.setdefault(entry.section, []).append((entry.card, entry.count))
    return sections_in_game_order(game_slug=deck.game.slug, format_slug=deck.format_slug, sections=sections)


def deck_versions(deck: Deck) -> QuerySet[DeckVersion]:
    return DeckVersion.objects.filter(deck=deck).select_related("created_by").order_by("-number")


def snapshot_diff(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """Per section: cards added, removed and changed (count old → new), plus a hero change."""
    result: dict[str, Any] = {"sections": {}, "hero": None}
    old_sections, new_sections = old.get("sections", {}), new.get("sections", {})
    for slug in list(dict.fromkeys([*old_sections, *new_sections])):
        before = {
            row[0]: (row[1], row[2] if len(row) > 2 else str(row[0])) for row in old_sections.get(slug, [])
        }
        after = {
            row[0]: (row[1], row[2] if len(row) > 2 else str(row[0])) for row in new_sections.get(slug, [])
        }
        added = [
            {"card": cid, "name": after[cid][1], "count": after[cid][0]} for cid in after if cid not in before
        ]
        removed = [
            {"card": cid, "name": before[cid][1], "count": before[cid][0]}
            for cid in before
            if cid not in after
        ]
        changed = [
            {"card": cid, "name": after[cid][1], "from": before[cid][0], "to": after[cid][0]}
            for cid in after
            if cid in before and before[cid][0] != after[cid][0]
        ]
        if added or removed or changed:
            result["sections"][slug] = {"added": added, "removed": removed, "changed": changed}
    if old.get("hero") != new.get("hero"):
        result["hero"] = {
            "from": (old.get("hero") or [None, None])[1],
            "to": (new.get("hero") or [None, None])[1],
        }
    return result


def deck_version_diff(*, deck: Deck, old: int, new: int) -> dict[str, Any]:
    versions = {v.number: v for v in DeckVersion.objects.filter(deck=deck, number__in=[old, new])}
    missing = [n for n in (old, new) if n not in versions]
    if missing:
        raise Http404(f"deck {deck.pk} has no version {missing[0]}")
    return snapshot_diff(versions[old].snapshot, versions[new].snapshot)


def deck_report(
    *,
    deck: Deck | None = None,
    game: Any = None,
    format_slug: str = "",
    sections: Sections | None = None,
    hero: Card | None = None,
    banlist: Any = None,
    on_date: Any = None,
    lang: str = "en",
) -> dict[str, Any] | None:
    """The rules engine's report for a deck (or unsaved sections)."""
    if deck is not None:
        game, format_slug, hero = deck.game, deck.format_slug, deck.hero
        sections = deck_sections(deck) if sections is None else sections
        on_date = on_date or deck.on_date
        banlist = banlist if banlist is not None else _banlist_for(deck)
    # The maybeboard is the player's notebook, never part of the deck the rules judge.
    sections = without_maybe(sections or {})
    kwargs: dict[str, Any] = {
        "game": game,
        "format_slug": format_slug,
        "sections": sections or {},
        "hero": hero,
    }
    if banlist is not None:
        kwargs["banlist"] = banlist
    if on_date is not None:
        kwargs["on_date"] = on_date
    if deck is not None and deck.pk and hero is not None:
        # A partner or background beside the commander: the engine judges the pair.
        kwargs["extra_heroes"] = list(deck.co_heroes.all())
    report = deck_validate(**kwargs)
    return report.to_dict(lang) if hasattr(report, "to_dict") else dict(report)


def _banlist_for(deck: Deck) -> Any:
    return deck.banlist


def banlists_for(game: Any) -> list[dict[str, Any]]:
    """The game's ban lists, newest first, for the builder's selector."""

    rows = BanList.objects.filter(game=game).order_by("-effective_date", "name")
    return [
        {
            "id": row.pk,
            "name": row.name,
            "effective_date": row.effective_date.isoformat(),
            "region": row.region,
            "whitelist": row.is_whitelist,
        }
        for row in rows
    ]


STATUS_NAMES = {0: "forbidden", 1: "limited", 2: "semi-limited"}


def banlist_statuses(*, banlist: Any, cards: list[Card]) -> dict[int, str]:
    """card id → forbidden / limited / semi-limited on the given list (by id or canonical identity)."""
    if banlist is None or not cards:
        return {}

    by_identity: dict[str, int] = {}
    by_card: dict[int, int] = {}
    rows = BanListEntry.objects.filter(banlist=banlist).filter(
        Q(card_id__in=[c.pk for c in cards])
        | Q(identity__in=[c.identity for c in cards])
        | Q(external_id__in=[c.external_id for c in cards])
    )
    for row in rows.values_list("card_id", "identity", "external_id", "limit"):
        card_id, identity, external_id, limit = row
        if card_id:
            by_card[card_id] = limit
        by_identity[identity or external_id] = limit
    statuses: dict[int, str] = {}
    for card in cards:
        limit = by_card.get(card.pk, by_identity.get(card.identity, by_identity.get(card.external_id)))
        if limit in STATUS_NAMES:
            statuses[card.pk] = STATUS_NAMES[limit]
    return statuses


def banlist_named(*, game: Any, name: str, on_date: Any = None) -> Any:
    """A ban list by id ("12") or name; for a name, the newest version in effect on the date."""
    if not name:
        return None

    rows = BanList.objects.filter(game=game)
    if name.isdecimal():
        return rows.filter(pk=int(name)).first()
    rows = rows.filter(name=name)
    if on_date is not None:
        rows = rows.filter(effective_date__lte=on_date)
    return rows.order_by("-effective_date").first()


def banlist_for_badges(*, game: Any, name: str, format_slug: str, on_date: date | None) -> Any:
    """The named list; without a name, the format's list in effect on the date (today by default) —
    the same one deck validation applies when a deck names no list."""
    if name:
        return banlist_named(game=game, name=name, on_date=on_date)
    if not format_slug:
        return None

    try:
        fmt = default_registry().format(game.slug, format_slug)
    except KeyError:
        return None
    return banlist_choose(game=game, fmt=fmt, banlist=None, on_date=on_date)


def card_types(game: Any) -> list[str]:
    return sorted(
        t
        for t in Card.objects.filter(game=game).values_list("card_type", flat=True).distinct().order_by()
        if t
    )
