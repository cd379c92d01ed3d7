"""Turn a parsed deck list into cards of one game: by external id, then by name (and name + level for
Caster casters), in one query for the whole deck. Nothing is dropped silently: every line that does not
become a card in a section of the format is listed in ``unknown`` with its line and the reason."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from cards.models import Card, Game

from .choice import Reason, choose
from .formats import ParsedDeck, ParsedEntry
from .formats.problems import render
from .gamerules import FormatInfo, format_info
from .respell import near_misses, respelled_matches

# "Dark Magician (#46986414)": a name with the id that picks one printing (what the exports write; no real
# name ends so). "Dark Magician #46986414", the older form, is read too, but only when no card bears the
# whole text as its name: 31 real Yu-Gi-Oh! names end in "#N" ("Jinzo #7", "Luster Dragon #2").
# Both read in time linear in the line: the lazy name may only end where a run of blanks begins (``(?<!\s)``),
# so the blanks after it are scanned once, not once per possible end of the name (a line of 500 blanks cost
# seconds of CPU when every split of the blanks between name, "(" and level word was tried).
_PICKED_ID = re.compile(r"^(?P<name>.*?)(?<!\s)\s*\(?#(?P<id>[^\s#()]+)\)?$")
_LEVEL_SUFFIX = re.compile(
    r"^(?P<name>.+?)(?<!\s)\s*(?:\(\s*)?(?:lv|lvl|level|ур)\.?\s*(?P<level>\d{1,3})\s*\)?$", re.I
)


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
    # The one card name an unknown name is clearly a misspelling of ("did you mean"), else "".
    suggestion: str = ""

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
            "suggestion": self.suggestion,
        }


@dataclass
class ResolvedDeck:
    format: FormatInfo
    sections: dict[str, list[tuple[Card, int]]] = field(default_factory=dict)
    hero: Card | None = None
    # Heroes after the first: a Commander deck's partner or background (the rules judge the pair).
    extra_heroes: list[Card] = field(default_factory=list)
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
    if fmt.has_hero and parsed.hero is None and parsed.source_format == "xmage" and parsed.commanders:
        # XMage's Commander decks keep the commander(s) in the sideboard, which XMage plays as the command zone.
        named = {name.casefold() for name in parsed.commanders}
        entries = [("hero" if s == "side" and e.ref.casefold() in named else s, e) for s, e in entries]
    if parsed.hero:
        entries.append(("hero", parsed.hero))
    entries += [("hero", entry) for entry in parsed.extra_heroes]

    ids: set[str] = set()
    names: set[str] = set()
    for _section, entry in entries:
        ids.add(entry.ref)
        for text in (entry.ref, entry.name):
            if text:
                picked = _picked_id(text)
                for variant in (text, picked[0]) if picked is not None else (text,):
                    folded, level_key = _name_keys(variant)
                    names.add(folded)
                    if level_key:
                        names.add(level_key[0])
                if picked is not None:
                    ids.add(picked[1])
    by_id: dict[str, Card] = {}
    by_name: dict[str, list[Card]] = defaultdict(list)
    if entries:
        # One query for the whole deck, whatever the number of lines.
        query = Q(external_id__in=ids) | Q(search_name__in=names)
        for card in Card.objects.filter(game=game).filter(query):
            by_id[card.external_id] = card
            by_name[card.search_name].append(card)

    matches = {index: _match(entry, by_id, by_name) for index, (_section, entry) in enumerate(entries)}
    # Lines no exact name or id matched: read as the tool that wrote them meant them (decks/spelling.py).
    unmatched = {i: entries[i][1] for i, m in matches.items() if m[0] is None and m[1] == "unknown"}
    matches.update(respelled_matches(game, unmatched))
    still_unknown = {
        i: entries[i][1] for i in unmatched if matches[i][0] is None and matches[i][1] == "unknown"
    }
    suggestions = near_misses(game, {i: e for i, e in still_unknown.items() if e.by == "name"})
    for index, suggestion in suggestions.items():
        key, params = "resolve.unknown_name_suggest", {"ref": entries[index][1].ref, "suggestion": suggestion}
        matches[index] = (None, "unknown", key, params)

    merged: dict[str, dict[int, list]] = defaultdict(dict)  # section -> card id -> [card, count]
    for index, (section, entry) in enumerate(entries):
        card, reason, key, params = matches[index]
        if card is None:
            resolved.unknown.append(
                UnresolvedLine(
                    entry.ref,
                    section,
                    entry.line,
                    entry.count,
                    reason,
                    key,
                    params,
                    suggestions.get(index, ""),
                )
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
            elif resolved.hero is None:
                resolved.hero = card
            else:
                resolved.extra_heroes += [card] * entry.count
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

    if fmt.has_hero and resolved.hero is None and parsed.commanders:
        _commanders_from_main(resolved, merged, fmt, parsed.commanders)
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
        folded, level_key = _name_keys(text)
        candidates = by_name.get(folded, [])
        if not candidates and picked is not None:
            if picked[1] in by_id:
                # "Dark Magician (#46986414)": the id the ambiguity message told the player to add.
                return by_id[picked[1]], "unknown", "", {}
            folded, level_key = _name_keys(picked[0])
            candidates = by_name.get(folded, [])
        if level_key and not candidates:
            candidates = [c for c in by_name.get(level_key[0], []) if c.level == level_key[1]]
        if not candidates:
            continue
        return choose(text, candidates)
    if entry.by == "id":
        if entry.name:
            return None, "unknown", "resolve.unknown_id_named", {"ref": entry.ref, "name": entry.name}
        return None, "unknown", "resolve.unknown_id", {"ref": entry.ref}
    return None, "unknown", "resolve.unknown_name", {"ref": entry.ref}


def _picked_id(text: str) -> tuple[str, str] | None:
    match = _PICKED_ID.match(text.strip())
    return (match.group("name"), match.group("id")) if match else None


def _commanders_from_main(
    resolved: ResolvedDeck, merged: dict[str, dict[int, list]], fmt: FormatInfo, names: list[str]
) -> None:
    """A Cockatrice deck keeps its commander in "main" and names it (``<bannerCard>``, "CDR:" lines), an
    XMage deck keeps it in the sideboard: one copy of each named card found there becomes the hero, as
    those clients' players mean it."""
    boards = [merged.get(fmt.map_section(slug) or slug, {}) for slug in ("main", "side")]
    for name in names:
        wanted = name.casefold()
        found = next(
            ((board, s) for board in boards for s in board.values() if s[0].name.casefold() == wanted), None
        )
        if found is None:
            continue
        board, slot = found
        card = slot[0]
        slot[1] -= 1
        if slot[1] == 0:
            del board[card.pk]
        if resolved.hero is None:
            resolved.hero = card
        else:
            resolved.extra_heroes.append(card)
