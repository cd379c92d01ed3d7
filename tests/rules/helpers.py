"""Small builders for engine tests: cards and decks without a database."""

from __future__ import annotations

from typing import Any

from rules.engine import CardInfo, Deck, FormatRules, default_registry


def card(name: str, **kw: Any) -> CardInfo:
    kw.setdefault("key", name)
    if "subtypes" in kw:
        kw["subtypes"] = tuple(kw["subtypes"])
    return CardInfo(name=name, **kw)


def fmt(game: str, slug: str) -> FormatRules:
    return default_registry().format(game, slug)


def filler(prefix: str, n: int, per: int, **kw: Any) -> list[tuple[CardInfo, int]]:
    """``n`` cards in distinct names, ``per`` copies each (the last gets the remainder)."""
    out: list[tuple[CardInfo, int]] = []
    i = 0
    while n > 0:
        take = min(per, n)
        out.append((card(f"{prefix} {i}", **kw), take))
        n -= take
        i += 1
    return out


def deck(**sections: list[tuple[CardInfo, int]]) -> Deck:
    return Deck(sections=dict(sections))


# The [game] table of a minimal two-player game, for tests that write their own rule-set file.
MINI_GAME = """
[game]
slug = "mini"
name = "Mini"
has_decks = true
min_players = 2
max_players = 2
first_player = "loser_chooses"
version = "1"
effective_date = 2024-01-01
"""

# One [[formats]] table for MINI_GAME: a 20-card deck, 2 copies per name.
MINI_FORMAT = """
[[formats]]
slug = "std"
name = "Standard"
copy_limits = [{ key = "name", scope = ["main"], max = 2 }]

[[formats.sections]]
slug = "main"
name = "Deck"
size = { exact = 20 }
"""
