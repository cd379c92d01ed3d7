"""Text folding: what makes "Blue-Eyes", "blue eyes" and "BLUE EYES" one name, and "Lím-Dûl" read "lim dul"."""

from __future__ import annotations

import unicodedata

# Letters that NFKD does not take apart but players type without their marks.
_EXTRA = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "ё": "е"})


def fold(text: str) -> str:
    """Casefolded, without diacritics, every run of punctuation, hyphens and spaces one space.

    One pass over the characters (linear in the length, no regular expression)."""
    if not text:
        return ""
    decomposed = unicodedata.normalize("NFKD", text.casefold().translate(_EXTRA))
    out: list[str] = []
    space = True
    for ch in decomposed:
        if ch.isalnum():
            out.append(ch)
            space = False
        elif unicodedata.category(ch) == "Mn":
            continue  # a combining mark: the letter before it stays
        elif not space:
            out.append(" ")
            space = True
    return "".join(out).rstrip()


def words(text: str) -> list[str]:
    return fold(text).split()
