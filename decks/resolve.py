"""Turn a parsed deck list into cards of one game: by external id, then by name (and name + level for
Caster casters), in one query for the whole deck. Nothing is dropped silently: every line that does not
become a card in a section of the format is listed in ``unknown`` with its line and the reason."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Literal

from django.db.models import Q

from cards.models import Card, Game

from .formats import ParsedDeck, ParsedEntry
from .gamerules import FormatInfo, format_info

Reason = Literal["unknown", "ambiguous", "not_buildable", "section", "hero"]
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
        folded, level_key = _name_keys(text)
        candidates = by_name.get(folded, [])
        if level_key and not candidates:
            candidates = [c for c in by_name.get(level_key[0], []) if c.level == level_key[1]]
        if not candidates:
            continue
        identities = {c.identity for c in candidates}
        if len(identities) > 1:
            options = ", ".join(sorted(str(c) for c in candidates)[:6])
            return (
                None,
                "ambiguous",
                f"{text!r} matches several different cards ({options}); name one exactly",
            )
        # Alternate artworks share a name: prefer the original printing (its id is the identity).
        candidates.sort(key=lambda c: (c.external_id != c.identity, len(c.external_id), c.external_id))
        return candidates[0], "unknown", ""
    what = f"card id {entry.ref!r}" if entry.by == "id" else f"card {entry.ref!r}"
    if entry.by == "id" and entry.name:
        what += f" ({entry.name})"
    return None, "unknown", f"{what} is not in the card database"
