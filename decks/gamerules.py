"""What the deck app needs to know from a game's rule set (sections, hero, opening hand), read from the
rules engineer's registry. Kept in one place so the rest of decks/ does not depend on its internals."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from games.filters import describe_filter
from games.registry import default_registry, with_house_sideboard, word_for
from rules.messages import filter_phrases

# Opening hands of the first games, used only when a rule set does not say.
OPENING_HAND_FALLBACK: dict[str, int | dict[str, int]] = {
    "everseal": 5,
    "yugioh": 5,
    "caster": 7,
    "twindeck": {"main": 7, "creatures": 5},
}

# When a deck list names a section the format calls differently (a twin-deck "sideboard" is its
# additional set, a Caster "soul bond" deck is its extra section), try these in order.
SECTION_FALLBACKS: dict[str, tuple[str, ...]] = {
    "additional": ("side",),
    "side": ("additional",),
    "extra": ("additional", "side", "soulbond"),
    "soulbond": ("extra",),
    "creatures": ("creature",),
}


@dataclass(frozen=True)
class SectionInfo:
    slug: str
    name: str
    name_ru: str
    counted: bool = True
    provisional: bool = False
    # Language → name, from the rule set (its own name/name_ru and [game.labels.sections]).
    names: Mapping[str, str] = dataclass_field(default_factory=dict)

    def title(self, lang: str = "en") -> str:
        return word_for(self.names or {"en": self.name, "ru": self.name_ru}, lang)


@dataclass(frozen=True)
class FormatInfo:
    game_slug: str
    slug: str
    name: str
    name_ru: str
    sections: tuple[SectionInfo, ...]
    has_hero: bool
    uses_banlist: bool
    # What the format calls its hero (Everseal "Hero", Magic's Commander "Commander"), from the rule set.
    hero_label: str = "Hero"
    hero_label_ru: str = "Герой"
    # Language → name of the format and of its hero slot, from the rule set.
    names: Mapping[str, str] = dataclass_field(default_factory=dict)
    hero_names: Mapping[str, str] = dataclass_field(default_factory=dict)

    def hero_title(self, lang: str = "en") -> str:
        return word_for(self.hero_names or {"en": self.hero_label, "ru": self.hero_label_ru}, lang)

    @property
    def section_slugs(self) -> list[str]:
        return [section.slug for section in self.sections]

    def title(self, lang: str = "en") -> str:
        return word_for(self.words(), lang)

    def words(self) -> dict[str, str]:
        """Language → the format's name: what a problem's parameter carries (worded at the edge)."""
        return (
            dict(self.names)
            if self.names
            else {"en": self.name, **({"ru": self.name_ru} if self.name_ru else {})}
        )

    def map_section(self, slug: str) -> str | None:
        """The format's section for a parsed section name, or None when it has no such section."""
        slugs = self.section_slugs
        if slug in slugs:
            return slug
        # A Cockatrice zone or a header may name the section as the rule set titles it ("Main deck").
        named = slug.strip().casefold()
        for section in self.sections:
            if named in {section.name.casefold(), section.name_ru.casefold()} | {
                word.casefold() for word in section.names.values()
            }:
                return section.slug
        for candidate in SECTION_FALLBACKS.get(slug, ()):
            if candidate in slugs:
                return candidate
        return None


def _registry():  # type: ignore[no-untyped-def]

    return default_registry()


def game_formats(game_slug: str) -> list[FormatInfo]:
    try:
        game = _registry().game(game_slug)
    except KeyError:
        return []
    return [_info(game_slug, fmt) for fmt in game.formats.values()]


def format_info(game_slug: str, format_slug: str | None, *, house_sideboard: bool = False) -> FormatInfo:
    """The format's deck shape; the game's first format when none is named. KeyError names the choices.
    ``house_sideboard``: an event allows a sideboard as a house rule, so a format without one gains a side
    section (``games.registry.with_house_sideboard``)."""

    registry = _registry()
    game = registry.game(game_slug)
    if not format_slug:
        if not game.formats:
            raise KeyError(f"game {game_slug!r} has no formats")
        fmt = next(iter(game.formats.values()))
    else:
        # Format slugs are lower-case data: "Advanced" from a form or a script names the same format.
        fmt = registry.format(game_slug, format_slug.strip().casefold())
    return _info(game_slug, with_house_sideboard(fmt) if house_sideboard else fmt)


def _info(game_slug: str, fmt) -> FormatInfo:  # type: ignore[no-untyped-def]
    sections = tuple(
        SectionInfo(s.slug, s.name, s.name_ru, bool(s.counted), bool(s.provisional), s.words())
        for s in fmt.sections
    )
    return FormatInfo(
        game_slug=game_slug,
        slug=fmt.slug,
        name=fmt.name,
        name_ru=fmt.name_ru,
        sections=sections,
        has_hero=fmt.hero is not None,
        uses_banlist=fmt.banlist is not None,
        hero_label=fmt.hero.label if fmt.hero is not None else "Hero",
        hero_label_ru=fmt.hero.label_ru if fmt.hero is not None else "Герой",
        names=fmt.words(),
        hero_names=fmt.hero.words() if fmt.hero is not None else {},
    )


def opening_hand(game_slug: str) -> dict[str, int]:
    """Opening hand size per section drawn from ({"main": 5} or twin-deck's {"main": 7, "creatures": 5})."""
    raw: int | dict[str, int] | None = None
    with contextlib.suppress(KeyError):
        raw = _registry().game(game_slug).opening_hand
    if raw is None:
        raw = OPENING_HAND_FALLBACK.get(game_slug, 5)
    return dict(raw) if isinstance(raw, dict) else {"main": int(raw)}


def playtest_rules(game_slug: str) -> dict[str, Any]:
    """The game's ``[game.playtest]`` as plain data for pages: mulligan rule, first-turn draws per seat,
    card types the cost curve leaves out."""
    try:
        rules = _registry().game(game_slug).playtest
    except KeyError:
        return {"mulligan": "none", "draw_first": 0, "draw_second": 0, "curve_skip_types": []}
    return {
        "mulligan": rules.mulligan,
        "draw_first": rules.draw_first,
        "draw_second": rules.draw_second,
        "curve_skip_types": list(rules.curve_skip_types),
    }


def filter_labels(game_slug: str, lang: str = "en") -> dict[str, str]:
    """Field -> the label the game's rule set gives it in ``lang`` (its search filters), for describing a
    filter in the players' words ("Size L", not "size L"); empty for an unknown game."""
    try:
        filters = _registry().game(game_slug).search_filters
    except KeyError:
        return {}
    return {f.field: f.title(lang) for f in filters}


def hero_filter_labels(lang: str = "en") -> dict[str, str]:
    """The labels of the games whose formats have a hero (the only ones with hero restrictions), for a
    caller that does not say which game a restriction belongs to; a field the games label differently
    is left out, so it shows as its key rather than under another game's name."""
    merged: dict[str, str] = {}
    conflicting: set[str] = set()
    for game in _registry().games.values():
        if not any(fmt.hero is not None for fmt in game.formats.values()):
            continue
        for field, label in filter_labels(game.slug, lang).items():
            if merged.setdefault(field, label) != label:
                conflicting.add(field)
    return {field: label for field, label in merged.items() if field not in conflicting}


def describe_restriction(
    item: object,
    lang: str = "en",
    sections: dict[str, str] | None = None,
    labels: dict[str, str] | None = None,
) -> str:
    """One hero deck-building restriction (card data: attributes["restrictions"]) in words, for the hero
    picker — the same kinds the rules engine applies; anything else is shown as it was entered. The words
    come from the catalogues in ``lang`` (a restriction's own ``text``/``text_ru`` is card data, kept).

    ``labels`` (field -> label in ``lang``, see filter_labels) names the filter's fields; without it the
    hero games' own labels are used."""
    from django.utils import translation

    if isinstance(item, str):
        return item
    if not isinstance(item, dict):
        return str(item)
    if lang.startswith("ru") and isinstance(item.get("text_ru"), str):
        return item["text_ru"]
    if isinstance(item.get("text"), str):
        return item["text"]
    if labels is None:
        labels = hero_filter_labels(lang)
    with translation.override(lang):
        return _restriction_words(item, lang, sections or {}, labels)


def _restriction_words(item: dict, lang: str, sections: dict[str, str], labels: dict[str, str]) -> str:  # type: ignore[type-arg]
    from django.utils.translation import gettext, ngettext

    kind = item.get("kind")
    what = describe_filter(item.get("filter") or {}, labels, filter_phrases())
    count = item.get("count", 1)
    number = count if isinstance(count, int) else 0
    if kind == "forbid":
        return gettext("No cards with %(what)s") % {"what": what}
    if kind == "only":
        return gettext("Only cards with %(what)s") % {"what": what}
    if kind in ("require", "at_least"):
        return ngettext("At least %(count)s card with %(what)s", "At least %(count)s cards with %(what)s", number) % {
            "count": count, "what": what,
        }  # fmt: skip
    if kind == "at_most":
        return ngettext("At most %(count)s card with %(what)s", "At most %(count)s cards with %(what)s", number) % {
            "count": count, "what": what,
        }  # fmt: skip
    if kind == "copy_limit":
        limit = item.get("max")
        return ngettext(
            "At most %(limit)s copy of a card",
            "At most %(limit)s copies of a card",
            limit if isinstance(limit, int) else 0,
        ) % {"limit": limit}
    if kind == "section_size":
        slug = str(item.get("section", ""))
        where = sections.get(slug, slug)
        low, high = item.get("min"), item.get("max")
        if low is not None and high is not None:
            return gettext("%(section)s: %(min)s–%(max)s cards") % {"section": where, "min": low, "max": high}
        if low is not None:
            return gettext("%(section)s: at least %(min)s cards") % {"section": where, "min": low}
        return gettext("%(section)s: at most %(max)s cards") % {"section": where, "max": high}
    return ", ".join(f"{key}: {value}" for key, value in item.items())


def hash_rule(game_slug: str) -> tuple[str, dict[str, str]]:
    """The deck hash's rule from the game's rule set: the card field that keys a card ("name" or
    "external_id") and section → prefix of the sections that count (Cockatrice's for an unknown game)."""
    try:
        game = _registry().game(game_slug)
    except KeyError:
        return "name", {"main": "", "side": "SB:"}
    return game.deck_hash_key, dict(game.deck_hash_sections)
