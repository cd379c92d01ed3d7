"""Registered deck lists: JSON snapshots of decks, their validation and sideboard swaps.

The snapshot shape is ``{"hero": {card_id, external_id, name} | null,
"sections": {slug: [{"card_id", "external_id", "name", "count"}]}}`` and, for a deck with partner
commanders (a pair the rule set allows, ``hero.pairs``), ``"co_heroes": [{card_id, external_id, name}]`` —
the key is left out when there are none, so older snapshots read the same. It copies names and ids so
the registered list survives later edits of the source deck (and even of the card database).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from cards.models import Card
from decks.formats import ParsedDeck, parse_deck
from decks.maybe import MAYBE
from decks.resolve import deck_resolve
from games.registry import default_registry
from rules.engine import Swap
from rules.services import deck_sideboard, deck_validate

Snapshot = dict[str, Any]


def _card_entry(card: Card, count: int | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"card_id": card.pk, "external_id": card.external_id, "name": str(card)}
    if count is not None:
        entry["count"] = count
    return entry


def snapshot_from_sections(
    sections: Mapping[str, Iterable[tuple[Card, int]]],
    hero: Card | None = None,
    co_heroes: Iterable[Card] = (),
) -> Snapshot:
    snapshot: Snapshot = {
        "hero": _card_entry(hero) if hero is not None else None,
        "sections": {
            slug: [_card_entry(card, count) for card, count in lines if count > 0]
            for slug, lines in sections.items()
        },
    }
    partners = [_card_entry(card) for card in co_heroes]
    if partners:
        # Kept even without a hero: the rules report then says what is wrong instead of losing the card.
        snapshot["co_heroes"] = partners
    return snapshot


def snapshot_from_deck(deck: Any) -> Snapshot:
    """Copy a ``decks.Deck`` (its current content) into a snapshot."""
    sections: dict[str, list[tuple[Card, int]]] = {}
    # The maybeboard is never registered: a frozen list holds only what is played.
    entries = deck.entries.exclude(section=MAYBE).select_related("card")
    for entry in entries.order_by("section", "position", "id"):
        sections.setdefault(entry.section, []).append((entry.card, entry.count))
    co_heroes = list(deck.co_heroes.order_by("id")) if deck.pk and deck.hero_id else []
    return snapshot_from_sections(sections, deck.hero, co_heroes)


def snapshot_from_payload(*, game: Any, payload: Mapping[str, Any]) -> Snapshot:
    """A deck given inline (API): ``{"hero"?: ref, "co_heroes"?: [ref], "sections": {slug: [{"card": ref,
    "count"}]}}`` — ``co_heroes``: the partner commanders beside the hero (a Background, a Doctor's companion…).

    A card reference is the card's database id (int) or its external id (passcode / name) in the game.
    """
    raw_sections = payload.get("sections")
    if not isinstance(raw_sections, Mapping):
        raise ValidationError({"deck": _("The deck needs a 'sections' object: {slug: [{card, count}]}.")})
    refs: set[str] = set()
    for slug, lines in raw_sections.items():
        if not isinstance(lines, list):
            raise ValidationError({"deck": _("Section %(s)s must be a list.") % {"s": slug}})
        for line in lines:
            if not isinstance(line, Mapping) or "card" not in line:
                raise ValidationError(
                    {"deck": _("Each line of %(s)s needs 'card' and 'count'.") % {"s": slug}}
                )
            refs.add(str(line["card"]))
    if payload.get("hero") is not None:
        refs.add(str(payload["hero"]))
    partner_refs = payload.get("co_heroes") or []
    if not isinstance(partner_refs, list) or not all(isinstance(r, (int, str)) for r in partner_refs):
        raise ValidationError({"deck": _("'co_heroes' must be a list of card references.")})
    if partner_refs and payload.get("hero") is None:
        raise ValidationError({"deck": _("A partner commander needs a hero beside it: give 'hero' too.")})
    refs.update(str(r) for r in partner_refs)
    cards = _cards_by_ref(game, refs)
    sections: dict[str, list[tuple[Card, int]]] = {}
    for slug, lines in raw_sections.items():
        for line in lines:
            count = line.get("count", 1)
            if not isinstance(count, int) or count < 1:
                raise ValidationError(
                    {"deck": _("Count of %(c)s must be a positive integer.") % {"c": line["card"]}}
                )
            sections.setdefault(str(slug), []).append((cards[str(line["card"])], count))
    hero = cards[str(payload["hero"])] if payload.get("hero") is not None else None
    return snapshot_from_sections(sections, hero, [cards[str(r)] for r in partner_refs])


def snapshot_from_text(
    *, game: Any, format_slug: str, text: str | bytes, filename: str = "", field: str = "deck",
    as_pool: bool = False, house_sideboard: bool = False,
) -> Snapshot:  # fmt: skip
    """A list pasted or uploaded in any supported deck format (text, .ydk, ydke://, .cod, CSV, JSON).

    Every line must become a card: the problems are listed line by line under ``field``. A pool is just the
    cards the player received, whatever sections the file names, so with ``as_pool`` every line goes to
    one section (the rules engine compares a deck with the pool as a whole).
    """

    if not (text.strip() if isinstance(text, str) else text):
        raise ValidationError({field: _("Paste or upload the list.")})
    parsed = parse_deck(text, filename=filename or None)
    if parsed.errors:
        raise ValidationError({field: [str(e) for e in parsed.errors][:10]})
    if as_pool:
        merged = ParsedDeck(name=parsed.name)
        for entry in [e for entries in parsed.sections.values() for e in entries] + (
            [parsed.hero] if parsed.hero else []
        ):
            merged.add("main", entry)
        parsed = merged
    resolved = deck_resolve(
        game=game, parsed=parsed, format_slug=format_slug, house_sideboard=house_sideboard
    )
    if not resolved.ok:
        raise ValidationError({field: resolved.problems()[:10]})
    if not any(count for lines in resolved.sections.values() for _card, count in lines):
        raise ValidationError({field: _("The list has no cards.")})
    return snapshot_from_sections(resolved.sections, resolved.hero, resolved.extra_heroes)


def _cards_by_ref(game: Any, refs: set[str]) -> dict[str, Card]:
    by_external = {c.external_id: c for c in Card.objects.filter(game=game, external_id__in=refs)}
    ids = [int(r) for r in refs if r.isdecimal()]
    by_id = {str(c.pk): c for c in Card.objects.filter(game=game, pk__in=ids)}
    found: dict[str, Card] = {}
    missing = []
    for ref in sorted(refs):
        card = by_external.get(ref) or by_id.get(ref)
        if card is None:
            missing.append(ref)
        else:
            found[ref] = card
    if missing:
        raise ValidationError(
            {"deck": _("Unknown cards for this game: %(m)s.") % {"m": ", ".join(missing[:20])}}
        )
    return found


def snapshot_cards(snapshot: Snapshot) -> tuple[dict[str, list[tuple[Card, int]]], Card | None]:
    """Load the Card rows a snapshot names (by id), for the rules engine."""
    ids = {line["card_id"] for lines in snapshot.get("sections", {}).values() for line in lines}
    hero_entry = snapshot.get("hero")
    if hero_entry:
        ids.add(hero_entry["card_id"])
    cards = Card.objects.in_bulk(ids)
    sections = {
        slug: [(cards[line["card_id"]], int(line["count"])) for line in lines if line["card_id"] in cards]
        for slug, lines in snapshot.get("sections", {}).items()
    }
    hero = cards.get(hero_entry["card_id"]) if hero_entry else None
    return sections, hero


def snapshot_co_heroes(snapshot: Snapshot | None) -> list[Card]:
    """The partner commanders a snapshot names (Card rows, in the snapshot's order)."""
    entries = (snapshot or {}).get("co_heroes") or []
    cards = Card.objects.in_bulk([entry["card_id"] for entry in entries])
    return [cards[entry["card_id"]] for entry in entries if entry["card_id"] in cards]


def snapshot_size(snapshot: Snapshot | None) -> dict[str, int]:
    if not snapshot:
        return {}
    return {slug: sum(int(line["count"]) for line in lines) for slug, lines in snapshot["sections"].items()}


def additional_set_pool(tournament: Any, snapshot: Snapshot | None) -> Snapshot | None:
    """g001 1.5.2: in a limited format the additional set is every card the player received but the decks, so a
    list registered with its additional set and no separate pool is its own pool (deck + additional set);
    None when the format uses no pool or the list has no additional set."""
    fmt = default_registry().game(tournament.game.slug).formats.get(tournament.format_slug)
    if snapshot is None or fmt is None or fmt.pool_scope is None or fmt.sideboard is None:
        return None
    side = (snapshot.get("sections") or {}).get(fmt.sideboard.section) or []
    return snapshot if any(line.get("count", 0) > 0 for line in side) else None


def validate_snapshot(*, tournament: Any, snapshot: Snapshot, pool: Snapshot | None = None) -> dict[str, Any]:
    """Validate a snapshot against the event's format and ban list; returns the report as a dict."""

    sections, hero = snapshot_cards(snapshot)
    pool_lines = None
    if pool is None:
        pool = additional_set_pool(tournament, snapshot)
    if pool is not None:
        pool_sections, _hero = snapshot_cards(pool)
        pool_lines = [line for lines in pool_sections.values() for line in lines]
    report = deck_validate(
        game=tournament.game,
        format_slug=tournament.format_slug,
        sections=sections,
        hero=hero,
        extra_heroes=snapshot_co_heroes(snapshot),
        pool=pool_lines,
        banlist=tournament.banlist,
        on_date=tournament.on_date,
        house_sideboard=tournament.allow_sideboard,
    )
    return report.to_dict()


def compare_lists(registered: Snapshot | None, presented: Snapshot) -> list[dict[str, Any]]:
    """Deck check: every line where the presented list differs from the registered one."""

    def counts(snap: Snapshot | None) -> dict[tuple[str, str], tuple[int, str]]:
        out: dict[tuple[str, str], tuple[int, str]] = {}
        for slug, lines in (snap or {}).get("sections", {}).items():
            for line in lines:
                key = (slug, str(line["external_id"]))
                prev = out.get(key, (0, line["name"]))[0]
                out[key] = (prev + int(line["count"]), line["name"])
        return out

    a, b = counts(registered), counts(presented)
    diffs = []
    for key in sorted(set(a) | set(b)):
        reg, pres = a.get(key, (0, ""))[0], b.get(key, (0, ""))[0]
        if reg != pres:
            name = (a.get(key) or b.get(key) or (0, key[1]))[1]
            diffs.append({"section": key[0], "card": name, "registered": reg, "presented": pres})
    for reg_hero, pres_hero in _hero_pairs(registered or {}, presented):
        if reg_hero != pres_hero:
            diffs.append(
                {
                    "section": "hero",
                    "card": str(pres_hero or reg_hero),
                    "registered": 1 if reg_hero else 0,
                    "presented": 1 if pres_hero else 0,
                }
            )
    return diffs


def _hero_pairs(registered: Snapshot, presented: Snapshot) -> list[tuple[str | None, str | None]]:
    """The commander, then each partner, registered against presented (partners compared as a set, so a
    list that names Sam before Frodo is the same deck)."""

    def heroes(snap: Snapshot) -> tuple[str | None, list[str]]:
        hero = (snap.get("hero") or {}).get("external_id")
        return hero, sorted(str(e["external_id"]) for e in snap.get("co_heroes") or [])

    (reg, reg_co), (pres, pres_co) = heroes(registered), heroes(presented)
    if sorted(filter(None, [reg, *reg_co])) == sorted(filter(None, [pres, *pres_co])):
        return []
    pairs: list[tuple[str | None, str | None]] = [(reg, pres)]
    pairs += [(c, c if c in pres_co else None) for c in reg_co]
    pairs += [(None, c) for c in pres_co if c not in reg_co]
    return pairs


def apply_swaps(
    *, tournament: Any, snapshot: Snapshot, swaps: Iterable[Mapping[str, Any]], pool: Snapshot | None = None
) -> tuple[Snapshot, dict[str, Any]]:
    """Sideboard swaps on a snapshot (``[{"section", "out"?, "in"?, "count"}]``, cards by external id or name).

    The rules engine checks the swap itself (Yu-Gi-Oh! one-for-one, twin-deck sizes kept) and the result.
    ``pool``: the player's registered pool in a limited event, where the additional set is the rest of it
    (g001 1.5.2), so a swap is judged against deck + additional set, never against "no pool".
    """

    parsed: list[Any] = []
    for i, raw in enumerate(swaps, start=1):
        if not isinstance(raw, Mapping):
            raise ValidationError({"swaps": _("Swap %(n)s must be an object.") % {"n": i}})
        out, into = raw.get("out"), raw.get("in", raw.get("into"))
        count = raw.get("count", 1)
        if (out in (None, "") and into in (None, "")) or not isinstance(count, int):
            raise ValidationError(
                {"swaps": _("Swap %(n)s needs a card to take out or put in, and a count.") % {"n": i}}
            )
        parsed.append(
            Swap(section=str(raw.get("section") or "main"), out=str(out) if out else None,
                 into=str(into) if into else None, count=count)
        )  # fmt: skip
    if not parsed:
        raise ValidationError({"swaps": _("No swaps given.")})
    sections, hero = snapshot_cards(snapshot)
    co_heroes = snapshot_co_heroes(snapshot)
    pool_lines = None
    if pool is not None:
        pool_sections, _pool_hero = snapshot_cards(pool)
        pool_lines = [line for lines in pool_sections.values() for line in lines]
    new_sections, report = deck_sideboard(
        game=tournament.game,
        format_slug=tournament.format_slug,
        sections=sections,
        swaps=parsed,
        hero=hero,
        extra_heroes=co_heroes,
        banlist=tournament.banlist,
        on_date=tournament.on_date,
        pool=pool_lines,
        house_sideboard=tournament.allow_sideboard,
    )
    keys = {key for lines in new_sections.values() for key, _n in lines}
    cards = {c.external_id: c for c in Card.objects.filter(game=tournament.game, external_id__in=keys)}
    new_snapshot = {
        "hero": snapshot.get("hero"),
        "sections": {
            slug: [_card_entry(cards[key], n) for key, n in lines if key in cards]
            for slug, lines in new_sections.items()
        },
    }
    if snapshot.get("co_heroes"):
        new_snapshot["co_heroes"] = snapshot["co_heroes"]  # the commanders never leave the command zone
    return new_snapshot, report.to_dict()
