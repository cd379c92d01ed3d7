"""How other deck tools spell a card's name, reduced to keys the resolver can compare (pure Python).

A deck line is first looked up by its exact name (a real name always wins, ``Jinzo #7`` included); only a
line no card bears is tried again here, as the tool that wrote it meant it:

- decorations other tools put around a name are dropped: Moxfield's ``#tags`` and ``*F*`` / ``*E*`` foil
  marks, Archidekt's ``[Category]`` and ``^Tag,#colour^``, a printing written ``(SET) 123``, ``(set)`` or
  ``[SET]`` (any case), Cockatrice's ``SET:`` prefix is not a thing, so it is not guessed;
- the key folds what people type differently: accents (``Khazad-dum`` for ``Khazad-dûm``), ``Ae`` for
  ``Æ``, curly and straight apostrophes and quotes, dashes, spacing, and the separators of split and
  double-faced cards (``Fire/Ice``, ``Fire // Ice``, ``Refuse /// Cooperate``);
- a card with several faces is also known by its front face (``Murderous Rider`` for
  ``Murderous Rider // Swift End``).

Several cards under one key are never guessed between: the resolver lists them.
"""

from __future__ import annotations

import re
import unicodedata

# Letters NFKD does not take apart.
_LETTERS = str.maketrans(
    {
        "æ": "ae",
        "Æ": "ae",
        "œ": "oe",
        "Œ": "oe",
        "ø": "o",
        "Ø": "o",
        "ß": "ss",
        "ð": "d",
        "þ": "th",
        "ł": "l",
        "Ł": "l",
        "‘": "'",
        "’": "'",
        "‚": "'",
        "ʼ": "'",
        "`": "'",
        "´": "'",
        "“": '"',
        "”": '"',
        "„": '"',
        "‐": "-",
        "‑": "-",
        "‒": "-",
        "–": "-",
        "—": "-",
        "−": "-",
    }
)
# "Fire/Ice", "Fire // Ice", "Refuse /// Cooperate": one separator of faces, however written.
# (The blanks around a separator are folded by _SPACES afterwards: a pattern "\s*/{1,3}\s*" would retry
# its leading blanks from every position of a long run of them, quadratic in the run.)
_FACES = re.compile(r"/{1,3}")
_SPACES = re.compile(r"\s+")
# Trailing decorations, one at a time from the end (each pattern is anchored and, with ``(?<!\s)``, linear).
_TRAILERS = (
    re.compile(r"(?<!\s)\s+\*[A-Za-z]{1,2}\*$"),  # Moxfield/Arena foil and etched marks: *F*, *E*
    re.compile(r"(?<!\s)\s+#!?[^\s\d#][^\s#]*$"),  # Moxfield tags: #ramp, #!Removal (never "#7")
    re.compile(r"(?<!\s)\s+\^[^^]{0,80}\^$"),  # Archidekt labels: ^Have,#37d67a^
    re.compile(r"(?<!\s)\s+\[[^\[\]]{1,40}\]$"),  # Archidekt [Category], "Name [SET]"
    re.compile(r"(?<!\s)\s+\([A-Za-z0-9]{2,6}\)(?:\s+[A-Za-z0-9★\-]{1,10})?$"),  # (SET) 123, (set)
)


def fold(text: str) -> str:
    """The comparison key of a name: case, accents, apostrophes, dashes, spacing and face separators
    folded, so every spelling above of one name gives one key."""
    # Twice: taking letters apart (NFKD) or lower-casing may give a letter the other step maps ("Ð").
    for _ in range(2):
        text = unicodedata.normalize("NFKD", text.casefold().translate(_LETTERS))
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = _FACES.sub(" // ", text)
    return _SPACES.sub(" ", text).strip()


# A decoration is at most ~90 characters and a real line carries a handful: looking only at the line's
# tail, a bounded number of times, keeps the cost linear in the line whatever it holds ("(x3)" × 2,000 or
# 10,000 blanks once took each pattern's search over the whole line, once per decoration removed).
_TAIL = 160
_MAX_TRAILERS = 8


def undecorated(text: str) -> str:
    """The name without the tags, marks, categories and printing other tools write after it."""
    text = text.strip()
    for _round in range(_MAX_TRAILERS):
        cut = max(0, len(text) - _TAIL)
        tail = text[cut:]
        match = None
        for pattern in _TRAILERS:
            match = pattern.search(tail)
            if match and cut + match.start() > 0:
                break
            match = None
        if match is None:
            break
        text = text[: cut + match.start()].rstrip()
    return text


def spellings(text: str) -> list[str]:
    """The keys a deck line may mean, best first: the folded line, then the folded line without its
    decorations."""
    keys = [fold(text)]
    bare = fold(undecorated(text))
    if bare and bare not in keys:
        keys.append(bare)
    return keys


def card_keys(name: str) -> list[str]:
    """The keys a card is known by: its folded name, and its front face when it has several faces."""
    keys = [fold(name)]
    # Only the " // " of Magic's multi-face names makes faces ("D/D/D Doom King" is one name).
    if " // " in name:
        front = fold(name.split(" // ", 1)[0])
        if front and front not in keys:
            keys.append(front)
    return keys
