"""EDOPro ``lflist.conf``: parse and serialize (pure Python).

Format: ``#`` starts a comment, ``!name`` starts a list, ``$whitelist`` marks the current list as a
whitelist, entries are ``passcode count --name`` (0 forbidden, 1 limited, 2 semi-limited, 3 unlimited;
a negative count also means forbidden). One file may hold several lists.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

# After the count, EDOPro ignores the rest of the line: "--name" by convention, sometimes "-name".
_ENTRY = re.compile(r"^(?P<code>\d+)\s+(?P<count>-?\d+)(?:\s+(?P<name>.*?))?\s*$")
_DATE = re.compile(r"(?P<y>(?:19|20)\d\d)[.\-/](?P<m>\d{1,2})(?:[.\-/](?P<d>\d{1,2}))?")
_REGIONS = ("traditional", "goat", "tcg", "ocg")


class LflistError(ValueError):
    """The file cannot be read; the message names the line."""


@dataclass(frozen=True)
class LfEntry:
    external_id: str
    limit: int
    name: str = ""


@dataclass
class LfList:
    name: str
    whitelist: bool = False
    entries: list[LfEntry] = field(default_factory=list)

    @property
    def effective_date(self) -> date | None:
        """Lists are named like ``2020.04 TCG``: the year and month give the date (first of the month)."""
        match = _DATE.search(self.name)
        if not match:
            return None
        try:
            return date(int(match["y"]), int(match["m"]), int(match["d"] or 1))
        except ValueError:
            return None

    @property
    def region(self) -> str:
        folded = self.name.casefold()
        return next((r for r in _REGIONS if r in folded), "")


def parse_lflist(text: str) -> list[LfList]:
    lists: list[LfList] = []
    current: LfList | None = None
    seen: dict[str, tuple[int, int]] = {}
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("!"):
            name = line[1:].strip()
            if not name:
                raise LflistError(f"line {number}: a list needs a name after '!'")
            current = LfList(name=name)
            lists.append(current)
            seen = {}
            continue
        if current is None:
            raise LflistError(f"line {number}: {line[:40]!r} comes before any '!name' list header")
        if line.startswith("$"):
            if line.lower() == "$whitelist":
                current.whitelist = True
                continue
            raise LflistError(f"line {number}: unknown directive {line!r} (only $whitelist is known)")
        match = _ENTRY.match(line)
        if not match:
            raise LflistError(f"line {number}: expected 'passcode count --name', got {line[:60]!r}")
        count = int(match["count"])
        if count > 3:
            raise LflistError(f"line {number}: count {count} is above 3 (0 forbidden .. 3 unlimited)")
        code = str(int(match["code"]))  # drop leading zeros: passcodes are numbers
        limit = max(count, 0)
        if code in seen:
            # Real lists repeat an entry now and then; harmless when both lines agree.
            earlier_limit, earlier_line = seen[code]
            if earlier_limit == limit:
                continue
            raise LflistError(
                f"line {number}: passcode {code} is listed again in {current.name!r} with count {count} "
                f"(line {earlier_line} says {earlier_limit})"
            )
        seen[code] = (limit, number)
        # Real files put a category after the name, separated by tabs ("--Cyber Jar\t\t\tMAIN DECK MONSTERS"):
        # a comment for the reader, not part of the card name.
        name = (match["name"] or "").lstrip("-").split("\t", 1)[0].strip()
        current.entries.append(LfEntry(external_id=code, limit=limit, name=name))
    if not lists:
        raise LflistError("no list found: a list starts with a '!name' line")
    return lists


def serialize_lflist(lists: list[LfList]) -> str:
    out: list[str] = [f"#[{lst.name}]" for lst in lists]
    for lst in lists:
        out.append(f"!{lst.name}")
        if lst.whitelist:
            out.append("$whitelist")
        for entry in sorted(lst.entries, key=lambda e: (e.limit, e.name.casefold(), e.external_id)):
            out.append(f"{entry.external_id} {entry.limit} --{entry.name}" if entry.name else
                       f"{entry.external_id} {entry.limit}")  # fmt: skip
    return "\n".join(out) + "\n"
