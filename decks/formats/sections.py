"""Section headers people write in deck lists (English and Russian), normalised to slugs.

The slugs are game-neutral; the resolver maps them onto the sections of a format's rule set.
"""

from __future__ import annotations

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
#
# Headers are read by plain scanning, not regular expressions: a header is user text of up to 500
# characters, and the earlier patterns ("[\s…]*\(?\s*\d*\s*…\s*$", five runs of optional blanks in a
# row) backtracked in about K⁵ steps over K blanks, so one line of "a", 56 blanks and "b" took seconds.
# Every function below looks at each character a bounded number of times.
_LEADING_DECORATION = frozenset("=#*-[")
_TRAILING_DECORATION = frozenset("=*-]")
_COUNT_PUNCTUATION = frozenset(":—–-")
# What may follow a trailing count: "(40 cards)", "— 40 карт"; longest first.
_COUNT_WORDS = ("cards", "card", "карта", "карту", "карты", "карт")


def _strip_decoration(text: str) -> str:
    start, end = 0, len(text)
    while start < end and (text[start].isspace() or text[start] in _LEADING_DECORATION):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in _TRAILING_DECORATION):
        end -= 1
    return text[start:end]


def _skip_blanks_left(text: str, end: int) -> int:
    while end > 0 and text[end - 1].isspace():
        end -= 1
    return end


def _strip_trailing_count(text: str) -> str:
    """``text`` without a trailing "(40 cards):", "— 40", ": 15" (read right to left, each piece once)."""
    end = _skip_blanks_left(text, len(text))
    if end and text[end - 1] == ":":
        end = _skip_blanks_left(text, end - 1)
    if end and text[end - 1] == ")":
        end = _skip_blanks_left(text, end - 1)
    for word in _COUNT_WORDS:
        if text.endswith(word, 0, end):
            end = _skip_blanks_left(text, end - len(word))
            break
    while end and text[end - 1].isdecimal():
        end -= 1
    end = _skip_blanks_left(text, end)
    if end and text[end - 1] == "(":
        end -= 1
    while end and (text[end - 1].isspace() or text[end - 1] in _COUNT_PUNCTUATION):
        end -= 1
    return text[:end]


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
    text = _strip_decoration(header.strip()).casefold()
    text = _strip_trailing_count(text).strip().rstrip(":").strip()
    text = text.replace("ё", "е").replace("_", " ")
    return _ALIAS_TO_SLUG.get(" ".join(text.split()))


def section_title(slug: str) -> str:
    return SECTION_TITLES.get(slug, slug.replace("_", " ").title())


# Headings list sites write inside a section to group its cards, never a section of their own:
# YGOPRODeck / DuelingBook / Master Duel Meta ("Monster", "Spell Cards (12)", "Traps:"), and Magic sites'
# type groups that are no section slug ("Lands (24)", "Instants"; "Creatures" is the twin-deck game's
# section and stays one).
GROUP_HEADINGS = frozenset(
    {
        "monster",
        "monsters",
        "monster cards",
        "main deck monster",
        "spell",
        "spells",
        "spell cards",
        "trap",
        "traps",
        "trap cards",
        "monster card",
        "spell card",
        "trap card",
        "effect monsters",
        "normal monsters",
        "ritual monsters",
        "pendulum monsters",
        "fusion monsters",
        "synchro monsters",
        "xyz monsters",
        "link monsters",
        "монстры",
        "монстр",
        "карты монстров",
        "заклинания",
        "заклинание",
        "карты заклинаний",
        "ловушки",
        "ловушка",
        "карты ловушек",
        "lands",
        "land",
        "instants",
        "instant",
        "sorceries",
        "sorcery",
        "artifacts",
        "artifact",
        "enchantments",
        "enchantment",
        "planeswalkers",
        "planeswalker",
        "battles",
        "other spells",
        "spells & artifacts",
    }
)


def group_heading(line: str) -> bool:
    """True when the line is a list site's group heading ("Monster Cards (20)", "== Traps ==", "Spell:")."""
    text = _strip_decoration(line.strip()).casefold()
    text = _strip_trailing_count(text).strip().rstrip(":").strip()
    return " ".join(text.replace("ё", "е").split()) in GROUP_HEADINGS
