"""Turn a parsed deck list into cards of one game: by external id, then by name (and name + level for
Caster casters), in one query for the whole deck. Nothing is dropped silently: every line that does not
become a card in a section of the format is listed in ``unknown`` with its line and the reason."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Literal

from django.db.models import Q

from cards.models import Card, Game, Printing
from cards.selectors import canonical_order

from .formats import ParsedDeck, ParsedEntry
from .gamerules import FormatInfo, format_info

Reason = Literal["unknown", "ambiguous", "not_buildable", "section", "hero"]
# "Dark Magician #46986414" or "Dark Magician (#46986414)": a name with the id that picks one printing.
_PICKED_ID = re.compile(r"^(?P<name>.*?)\s*\(?#(?P<id>[^\s#()]+)\)?$")
_LEVEL_SUFFIX = re.compile(r"^(?P<name>.+?)\s*\(?\s*(?:lv|lvl|level|ур)\.?\s*(?P<level>\d{1,3})\s*\)?$", re.I)


@dataclass(frozen=True)
class UnresolvedLine:
    ref: str
    section: str
    line: int
    count: int
    reason: Reason
    message: str

    def to_dict(self) -> dict[str, object]:
        return {
            "ref": self.ref,
            "section": self.section,
            "line": self.line,
            "count": self.count,
            "reason": self.reason,
            "message": self.message,
        }


@dataclass
class ResolvedDeck:
    format: FormatInfo
    sections: dict[str, list[tuple[Card, int]]] = field(default_factory=dict)
    hero: Card | None = None
    unknown: list[UnresolvedLine] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    name: str = ""
    notes: str = ""

    @property
    def ok(self) -> bool:
        return not self.unknown and not self.errors

    def problems(self) -> list[str]:
        return self.errors + [f"line {u.line}: {u.message}" if u.line else u.message for u in self.unknown]


def _name_keys(ref: str) -> tuple[str, tuple[str, int] | None]:
    folded = ref.strip().casefold()
    match = _LEVEL_SUFFIX.match(ref.strip())
    level_key = (match.group("name").strip().casefold(), int(match.group("level"))) if match else None
    return folded, level_key


def deck_resolve(*, game: Game, parsed: ParsedDeck, format_slug: str | None = None) -> ResolvedDeck:
    fmt = format_info(game.slug, format_slug or parsed.format_slug or None)
    resolved = ResolvedDeck(format=fmt, name=parsed.name, notes=parsed.notes)
    resolved.errors += [str(error) for error in parsed.errors]

    entries: list[tuple[str, ParsedEntry]] = [
        (section, entry) for section, items in parsed.sections.items() for entry in items
    ]
    if parsed.hero:
        entries.append(("hero", parsed.hero))

    ids: set[str] = set()
    names: set[str] = set()
    for _section, entry in entries:
        ids.add(entry.ref)
        for text in (entry.ref, entry.name):
            if text:
                picked = _picked_id(text)
                if picked is not None:
                    ids.add(picked[1])
                    text = picked[0]
                folded, level_key = _name_keys(text)
                names.add(folded)
                if level_key:
                    names.add(level_key[0])
    by_id: dict[str, Card] = {}
    by_name: dict[str, list[Card]] = defaultdict(list)
    if entries:
        # One query for the whole deck, whatever the number of lines.
        query = Q(external_id__in=ids) | Q(search_name__in=names)
        for card in Card.objects.filter(game=game).filter(query):
            by_id[card.external_id] = card
            by_name[card.search_name].append(card)

    merged: dict[str, dict[int, list]] = defaultdict(dict)  # section -> card id -> [card, count]
    for section, entry in entries:
        card, reason, message = _match(entry, by_id, by_name)
        if card is None:
            resolved.unknown.append(
                UnresolvedLine(entry.ref, section, entry.line, entry.count, reason, message)
            )
            continue
        if card.is_token or not card.deck_buildable:
            resolved.unknown.append(
                UnresolvedLine(
                    entry.ref,
                    section,
                    entry.line,
                    entry.count,
                    "not_buildable",
                    f"{card} is a token or otherwise cannot be put in a deck",
                )
            )
            continue
        if section == "hero":
            if not fmt.has_hero:
                resolved.unknown.append(
                    UnresolvedLine(
                        entry.ref,
                        "hero",
                        entry.line,
                        entry.count,
                        "hero",
                        f"{fmt.game_slug}/{fmt.slug} decks have no hero",
                    )
                )
            else:
                resolved.hero = card
            continue
        target = fmt.map_section(section)
        if target is None:
            resolved.unknown.append(
                UnresolvedLine(
                    entry.ref,
                    section,
                    entry.line,
                    entry.count,
                    "section",
                    f"section {section!r} is not part of {fmt.game_slug}/{fmt.slug} "
                    f"(its sections: {', '.join(fmt.section_slugs)})",
                )
            )
            continue
        slot = merged[target].setdefault(card.pk, [card, 0])
        slot[1] += entry.count

    for section in fmt.section_slugs:
        if section in merged:
            resolved.sections[section] = [(card, count) for card, count in merged[section].values()]
    return resolved


def _match(
    entry: ParsedEntry, by_id: dict[str, Card], by_name: dict[str, list[Card]]
) -> tuple[Card | None, Reason, str]:
    card = by_id.get(entry.ref)
    if card is not None:
        return card, "unknown", ""
    for text in (entry.ref, entry.name) if entry.by == "name" else (entry.name,):
        if not text:
            continue
        picked = _picked_id(text)
        if picked is not None and picked[1] in by_id:
            # "Dark Magician #46986414": the id the ambiguity message told the player to add.
            return by_id[picked[1]], "unknown", ""
        folded, level_key = _name_keys(picked[0] if picked else text)
        candidates = by_name.get(folded, [])
        if level_key and not candidates:
            candidates = [c for c in by_name.get(level_key[0], []) if c.level == level_key[1]]
        if not candidates:
            continue
        buildable = [c for c in candidates if c.deck_buildable and not c.is_token]
        if not buildable:
            # Only a token (or another card no deck may hold) has this name: say so, not "unknown".
            return candidates[0], "unknown", ""
        identities = {c.identity for c in buildable}
        if len(identities) > 1:
            return None, "ambiguous", _ambiguity_message(text, buildable)
        # Printings of one card (alternate artworks) share a name: the canonical printing stands for them.
        return min(buildable, key=canonical_order), "unknown", ""
    what = f"card id {entry.ref!r}" if entry.by == "id" else f"card {entry.ref!r}"
    if entry.by == "id" and entry.name:
        what += f" ({entry.name})"
    return None, "unknown", f"{what} is not in the card database"


def _picked_id(text: str) -> tuple[str, str] | None:
    match = _PICKED_ID.match(text.strip())
    return (match.group("name"), match.group("id")) if match else None


def _ambiguity_message(text: str, cards: list[Card]) -> str:
    """Name each different card with what tells it apart and the exact line that picks it."""
    firsts: dict[str, Card] = {}
    for card in sorted(cards, key=canonical_order):
        firsts.setdefault(card.identity, card)
    sets = dict(
        Printing.objects.filter(card__in=list(firsts.values()))
        .order_by("card_id", "card_set__code")
        .values_list("card_id", "card_set__code")
    )
    options = []
    for card in firsts.values():
        facts = [f"#{card.external_id}"]
        if card.pk in sets:
            facts.append(f"set {sets[card.pk]}")
        if card.level is not None:
            facts.append(f"level {card.level}")
        if card.card_type:
            facts.append(card.card_type)
        options.append(f"{card.name} ({', '.join(facts)}) — write “{card.name} #{card.external_id}”")
    return f"{text!r} matches {len(options)} different cards: " + "; ".join(options[:6])
