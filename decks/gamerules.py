"""What the deck app needs to know from a game's rule set (sections, hero, opening hand), read from the
rules engineer's registry. Kept in one place so the rest of decks/ does not depend on its internals."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

# The fallbacks, used only when a rule set does not say.
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

    def title(self, lang: str = "en") -> str:
        return self.name_ru if lang.startswith("ru") and self.name_ru else self.name


@dataclass(frozen=True)
class FormatInfo:
    game_slug: str
    slug: str
    name: str
    name_ru: str
    sections: tuple[SectionInfo, ...]
    has_hero: bool
    uses_banlist: bool

    @property
    def section_slugs(self) -> list[str]:
        return [section.slug for section in self.sections]

    def title(self, lang: str = "en") -> str:
        return self.name_ru if lang.startswith("ru") and self.name_ru else self.name

    def map_section(self, slug: str) -> str | None:
        """The format's section for a parsed section name, or None when it has no such section."""
        slugs = self.section_slugs
        if slug in slugs:
            return slug
        for candidate in SECTION_FALLBACKS.get(slug, ()):
            if candidate in slugs:
                return candidate
        return None


def _registry():  # type: ignore[no-untyped-def]
    from rules.engine.registry import default_registry

    return default_registry()


def game_formats(game_slug: str) -> list[FormatInfo]:
    try:
        game = _registry().game(game_slug)
    except KeyError:
        return []
    return [_info(game_slug, fmt) for fmt in game.formats.values()]


def format_info(game_slug: str, format_slug: str | None) -> FormatInfo:
    """The format's deck shape; the game's first format when none is named. KeyError names the choices."""
    registry = _registry()
    game = registry.game(game_slug)
    if not format_slug:
        if not game.formats:
            raise KeyError(f"game {game_slug!r} has no formats")
        return _info(game_slug, next(iter(game.formats.values())))
    return _info(game_slug, registry.format(game_slug, format_slug))


def _info(game_slug: str, fmt) -> FormatInfo:  # type: ignore[no-untyped-def]
    sections = tuple(
        SectionInfo(s.slug, s.name, s.name_ru, bool(s.counted), bool(s.provisional)) for s in fmt.sections
    )
    return FormatInfo(
        game_slug=game_slug,
        slug=fmt.slug,
        name=fmt.name,
        name_ru=fmt.name_ru,
        sections=sections,
        has_hero=fmt.hero is not None,
        uses_banlist=fmt.banlist is not None,
    )


def opening_hand(game_slug: str) -> dict[str, int]:
    """Opening hand size per section drawn from ({"main": 5} or twin-deck's {"main": 7, "creatures": 5})."""
    raw: int | dict[str, int] | None = None
    with contextlib.suppress(KeyError):
        raw = _registry().game(game_slug).opening_hand
    if raw is None:
        raw = OPENING_HAND_FALLBACK.get(game_slug, 5)
    return dict(raw) if isinstance(raw, dict) else {"main": int(raw)}
