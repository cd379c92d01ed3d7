"""Turn a parsed deck list into cards of one game: by external id, then by name (and name + level for
Caster casters), in one query for the whole deck. Nothing is dropped silently: every line that does not
become a card in a section of the format is listed in ``unknown`` with its line and the reason."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from django.db.models import Q

from cards.models import Card, Game, Printing
from cards.selectors import canonical_order

from .formats import ParsedDeck, ParsedEntry
from .formats.problems import render
from .gamerules import FormatInfo, format_info

Reason = Literal["unknown", "ambiguous", "not_buildable", "section", "hero"]
# "Dark Magician #46986414" or "Dark Magician (#46986414)": a name with the id that picks one printing.
_PICKED_ID = re.compile(r"^(?P<name>.*?)\s*\(?#(?P<id>[^\s#()]+)\)?$")
_LEVEL_SUFFIX = re.compile(r"^(?P<name>.+?)\s*\(?\s*(?:lv|lvl|level|ур)\.?\s*(?P<level>\d{1,3})\s*\)?$", re.I)


@dataclass(frozen=True)
class UnresolvedLine:
    """A line that became no card: its ``reason`` (a stable API value) and the problem ``key`` and
    ``params`` that say why in words (decks/messages.py), rendered in the reader's language."""

    ref: str
    section: str
    line: int
    count: int
    reason: Reason
    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return render(self.key, self.params)

    def as_param(self) -> dict[str, Any]:
        """The problem as a report parameter, worded where the report is shown (the report names the line)."""
        return {"problem": self.key, "params": dict(self.params)}

    def to_dict(self) -> dict[str, object]:
        return {
            "ref": self.ref,
            "section": self.section,
            "line": self.line,
            "count": self.count,
            "reason": self.reason,
            "key": self.key,
            "params": dict(self.params),
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
        return self.errors + [
            render("line", {"line": u.line, "detail": u.message}) if u.line else u.message
            for u in self.unknown
        ]


def _name_keys(ref: str) -> tuple[str, tuple[str, int] | None]:
    folded = ref.strip().casefold()
    match = _LEVEL_SUFFIX.match(ref.strip())
    level_key = (match.group("name").strip().casefold(), int(match.group("level"))) if match else None
    return folded, level_key


def deck_resolve(
    *, game: Game, parsed: ParsedDeck, format_slug: str | None = None, house_sideboard: bool = False
) -> ResolvedDeck:
    """``house_sideboard``: the list is for an event that allows a sideboard as a house rule (a side section
    the format itself does not have is then accepted)."""
    fmt = format_info(game.slug, format_slug or parsed.format_slug or None, house_sideboard=house_sideboard)
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
        card, reason, key, params = _match(entry, by_id, by_name)
        if card is None:
            resolved.unknown.append(
                UnresolvedLine(entry.ref, section, entry.line, entry.count, reason, key, params)
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
                    "resolve.not_buildable",
                    {"card": str(card)},
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
                        "resolve.no_hero",
                        {"format": fmt.words()},
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
                    "resolve.section",
                    {"section": section, "format": fmt.words(), "sections": ", ".join(fmt.section_slugs)},
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
) -> tuple[Card | None, Reason, str, dict[str, Any]]:
    card = by_id.get(entry.ref)
    if card is not None:
        return card, "unknown", "", {}
    for text in (entry.ref, entry.name) if entry.by == "name" else (entry.name,):
        if not text:
            continue
        picked = _picked_id(text)
        if picked is not None and picked[1] in by_id:
            # "Dark Magician #46986414": the id the ambiguity message told the player to add.
            return by_id[picked[1]], "unknown", "", {}
        folded, level_key = _name_keys(picked[0] if picked else text)
        candidates = by_name.get(folded, [])
        if level_key and not candidates:
            candidates = [c for c in by_name.get(level_key[0], []) if c.level == level_key[1]]
        if not candidates:
            continue
        buildable = [c for c in candidates if c.deck_buildable and not c.is_token]
        if not buildable:
            # Only a token (or another card no deck may hold) has this name: say so, not "unknown".
            return candidates[0], "unknown", "", {}
        identities = {c.identity for c in buildable}
        if len(identities) > 1:
            return None, "ambiguous", "resolve.ambiguous", _ambiguity_params(text, buildable)
        # Printings of one card (alternate artworks) share a name: the canonical printing stands for them.
        return min(buildable, key=canonical_order), "unknown", "", {}
    if entry.by == "id":
        if entry.name:
            return None, "unknown", "resolve.unknown_id_named", {"ref": entry.ref, "name": entry.name}
        return None, "unknown", "resolve.unknown_id", {"ref": entry.ref}
    return None, "unknown", "resolve.unknown_name", {"ref": entry.ref}


def _picked_id(text: str) -> tuple[str, str] | None:
    match = _PICKED_ID.match(text.strip())
    return (match.group("name"), match.group("id")) if match else None


def _ambiguity_params(text: str, cards: list[Card]) -> dict[str, Any]:
    """Each different card with what tells it apart (id, set, level, type) and the exact line that picks
    it; decks/messages.py words them."""
    firsts: dict[str, Card] = {}
    for card in sorted(cards, key=canonical_order):
        firsts.setdefault(card.identity, card)
    sets = dict(
        Printing.objects.filter(card__in=list(firsts.values()))
        .order_by("card_id", "card_set__code")
        .values_list("card_id", "card_set__code")
    )
    game = cards[0].game.slug
    options = [
        {
            "name": card.name,
            "id": card.external_id,
            "set": sets.get(card.pk, ""),
            "level": card.level,
            "type": {"game": game, "field": "type", "value": card.card_type} if card.card_type else None,
        }
        for card in firsts.values()
    ]
    return {"text": text, "count": len(options), "options": options[:6]}
