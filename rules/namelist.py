"""Name-keyed ban lists (pure Python) for games whose cards have no passcodes (Magic: The Gathering).

```
#[Commander]                 comments start with '#'
!Commander 2024-09-23        a list starts with '!name' (one file may hold several)
#date 2024-09-23             its effective date (else a date in its name; else the import's --date)
#region commander            its region (else found from its name through the rule set's banlist_regions)
Black Lotus: banned
Sol Ring: restricted
Lightning Bolt: limited 2
```
``banned`` is 0 copies, ``restricted`` 1, ``limited N`` N. Names are matched to cards case-insensitively at
import; the file's spelling is what is stored and written back. Unlike EDOPro files, nothing here is
guessed: a line that is not ``Name: status`` is an error naming the line (a message key with params, as in
rules/lflist.py).
"""

from __future__ import annotations

import re

from .lflist import QUOTE, LfEntry, LfList, LflistError, LflistRead, header_lines, list_lines

_ENTRY = re.compile(
    # ``(?<!\s)``: the name ends where the blanks before ":" begin (each run scanned once: linear).
    r"^(?P<name>[^:]+?)(?<!\s)\s*:\s*(?P<status>banned|restricted|limited\s+(?P<n>\d{1,2}))\s*$",
    re.I,
)
STATUS_LIMIT = {"banned": 0, "restricted": 1}


def looks_like_namelist(text: str) -> bool:
    """True when the first entry line is ``Name: status`` rather than an EDOPro ``passcode count`` line."""
    for raw in text.lstrip("\ufeff").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", "!", "$")):
            continue
        return _ENTRY.match(line) is not None
    return False


def read_namelist(text: str) -> LflistRead:
    result = LflistRead(lists=[])
    seen: dict[str, int] = {}
    owner: LfList | None = None
    for number, line, current in list_lines(text, result):
        if current is not owner:
            owner, seen = current, {}
        match = _ENTRY.match(line)
        if match is None:
            raise LflistError("banlist_file.name_entry", line=number, text=line[:QUOTE])
        if current is None:
            raise LflistError("banlist_file.entry_before_list", line=number, text=line[:QUOTE])
        name = match["name"].strip()
        status = match["status"].casefold()
        limit = int(match["n"]) if match["n"] is not None else STATUS_LIMIT[status]
        key = name.casefold()
        if key in seen:
            raise LflistError(
                "banlist_file.name_repeated",
                line=number,
                name=name,
                earlier_line=seen[key],
                list=current.name,
            )
        seen[key] = number
        current.entries.append(LfEntry(external_id=name, limit=limit, name=name))
    if not result.lists:
        raise LflistError("banlist_file.no_list")
    return result


def _status(limit: int) -> str:
    return "banned" if limit == 0 else "restricted" if limit == 1 else f"limited {limit}"


def serialize_namelist(lists: list[LfList]) -> str:
    out: list[str] = [f"#[{lst.name}]" for lst in lists]
    for lst in lists:
        out += header_lines(lst)
        for entry in sorted(lst.entries, key=lambda e: (e.limit, e.name.casefold())):
            out.append(f"{entry.name or entry.external_id}: {_status(entry.limit)}")
    return "\n".join(out) + "\n"
