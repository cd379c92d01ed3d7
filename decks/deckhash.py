"""A deck's short hash for tournament deck checks: the same list gives the same 8 characters anywhere.

For Magic it is Cockatrice's hash, so a judge can compare Deckhall's with the one Cockatrice shows
(Cockatrice, common/deck_list/deck_list.cpp, ``computeDeckHash``):

1. for each card of the counted sections, one entry per copy: the section's prefix ("SB:" for the
   sideboard, nothing for the main deck) + the card's name lower-cased (QString::toLower);
2. the entries sorted (QStringList::sort: case-sensitive, by UTF-16 code units) and joined with ";";
3. SHA-1 of the UTF-8 bytes; its first five bytes read as a 40-bit big-endian number;
4. written in base 32 with Qt's digits 0-9a-v (QString::number(n, 32)), left-padded with "0" to 8.

Other games use the same steps; their rule set (``[game.deck_hash]``) says which sections count, with
which prefix, and whether a card counts by its name or its database id (a Yu-Gi-Oh! passcode).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping

from .gamerules import hash_rule

DIGITS = "0123456789abcdefghijklmnopqrstuv"


def _qt_base32(number: int) -> str:
    if number == 0:
        return "0"
    out = []
    while number:
        number, digit = divmod(number, 32)
        out.append(DIGITS[digit])
    return "".join(reversed(out))


def _utf16_units(text: str) -> bytes:
    # QString compares UTF-16 code units; Python compares code points: they differ only past U+FFFF.
    return text.encode("utf-16-be")


def cockatrice_hash(entries: Iterable[str]) -> str:
    """Steps 2-4 above over the per-copy entries of step 1."""
    cards = sorted(entries, key=_utf16_units)
    # Not for security: Cockatrice's hash is SHA-1, and matching it is the point.
    digest = hashlib.sha1(";".join(cards).encode("utf-8"), usedforsecurity=False).digest()
    number = int.from_bytes(digest[:5], "big")
    return _qt_base32(number).rjust(8, "0")


def deck_hash(sections: Mapping[str, Iterable[tuple[str, int]]], *, counted: Mapping[str, str]) -> str:
    """``sections``: section slug → (key, copies) lines; ``counted``: section slug → prefix. Sections not
    in ``counted`` (a maybeboard, tokens) leave the hash as it is."""
    entries: list[str] = []
    for slug, lines in sections.items():
        if slug not in counted:
            continue
        prefix = counted[slug]
        for key, copies in lines:
            entries.extend([prefix + key.lower()] * copies)
    return cockatrice_hash(entries)


def deck_hash_of(*, game_slug: str, sections: Mapping[str, Iterable[tuple[object, int]]]) -> str:
    """The hash of a deck's cards (decks.selectors.Sections shape: Card rows) by its game's rule set."""
    key_field, counted = hash_rule(game_slug)
    keyed = {
        slug: [(str(getattr(card, key_field)), count) for card, count in lines]
        for slug, lines in sections.items()
    }
    return deck_hash(keyed, counted=counted)


def snapshot_hash(*, game_slug: str, snapshot: Mapping[str, object] | None) -> str:
    """The hash of a frozen deck list (a tournament's snapshot: {"sections": {slug: [{"name", "external_id",
    "count"}]}}), so a judge compares it with the one on the player's sheet and in their client."""
    key_field, counted = hash_rule(game_slug)
    raw = (snapshot or {}).get("sections") or {}
    assert isinstance(raw, Mapping)
    keyed = {
        slug: [
            (str(line.get(key_field) or line.get("name") or ""), int(line.get("count") or 0))
            for line in lines
        ]
        for slug, lines in raw.items()
    }
    return deck_hash(keyed, counted=counted)
