"""Section headers people write in deck lists (English and Russian), normalised to slugs.

The slugs are game-neutral; the resolver maps them onto the sections of a format's rule set.
"""

from __future__ import annotations

import re

SECTION_ALIASES: dict[str, tuple[str, ...]] = {
    "main": (
        "main",
        "main deck",
        "maindeck",
        "deck",
        "main board",
        "mainboard",
        "основная",
        "основная колода",
        "основа",
        "колода",
        "мейн",
        "мейн колода",
        "основной",
        "main deck monsters",
    ),
    "extra": (
        "extra",
        "extra deck",
        "extradeck",
        "экстра",
        "экстра колода",
        "экстра-колода",
        "дополнительная",
        "дополнительная колода",
    ),
    "side": (
        "side",
        "side deck",
        "sidedeck",
        "sideboard",
        "side board",
        "сайд",
        "сайд колода",
        "сайд-колода",
        "сайдборд",
        "запасная колода",
        "запас",
        # Arena lists a companion on its own; the rules put it outside the game, in the sideboard.
        "companion",
        "компаньон",
    ),
    # MTG's commander is the hero of the Commander format (its label comes from the rule set).
    "hero": (
        "hero",
        "heroes",
        "герой",
        "героя",
        "карта героя",
        "commander",
        "commanders",
        "command zone",
        "командир",
        "командиры",
    ),
    "creatures": (
        "creatures",
        "creature",
        "creature deck",
        "creatures deck",
        "существа",
        "колода существ",
        "существо",
    ),
    "additional": (
        "additional",
        "additional set",
        "дополнительный набор",
        "доп набор",
        "доп. набор",
        "дополнительный",
    ),
    "pool": ("pool", "card pool", "пул", "пул карт"),
    "images": ("images", "image", "образы", "образ"),
    "soulbond": (
        "soulbond",
        "soul bond",
        "soul bond servants",
        "soulbond servants",
        "слуги связи душ",
        "связь душ",
    ),
    "tokens": ("tokens", "token", "токены"),
}

_ALIAS_TO_SLUG = {alias: slug for slug, aliases in SECTION_ALIASES.items() for alias in aliases}

# "Main Deck (40):", "Side: 15", "== Extra ==", "Основная колода — 40" all name a section.
_DECORATION = re.compile(r"^[\s=#*\-\[]*|[\s=*\-\]]*$")
_TRAILING_COUNT = re.compile(r"[\s:—–\-]*\(?\s*\d*\s*(cards?|карт[ауы]?)?\s*\)?\s*:?\s*$", re.IGNORECASE)

SECTION_TITLES: dict[str, str] = {
    "main": "Main",
    "extra": "Extra",
    "side": "Side",
    "hero": "Hero",
    "creatures": "Creatures",
    "additional": "Additional",
    "pool": "Pool",
    "images": "Images",
    "soulbond": "Soul Bond",
    "tokens": "Tokens",
}


def section_slug(header: str) -> str | None:
    """The slug a header names, or None when the text is not a known section header."""
    text = _DECORATION.sub("", header.strip()).casefold()
    text = _TRAILING_COUNT.sub("", text).strip().rstrip(":").strip()
    text = text.replace("ё", "е").replace("_", " ")
    text = re.sub(r"\s+", " ", text)
    return _ALIAS_TO_SLUG.get(text)


def section_title(slug: str) -> str:
    return SECTION_TITLES.get(slug, slug.replace("_", " ").title())
