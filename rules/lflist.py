"""EDOPro ``lflist.conf``: parse and serialize (pure Python), reading what EDOPro's own loader reads.

Format: ``#`` starts a comment, ``!name`` starts a list, ``$whitelist`` marks the current list as a
whitelist, entries are ``passcode count --name`` (0 forbidden, 1 limited, 2 semi-limited, 3 unlimited;
a negative count also means forbidden). One file may hold several lists.

EDOPro (``DeckManager::LoadLFListSingle``) is lenient, and real files rely on it: lines before the first
``!`` are skipped (``[2020.04 OCG]`` written without ``#``), so are lines without a space and lines whose
passcode or count is not a number (``--SS05 Bakura`` in Speed Duel lists); the count is the leading integer
of its word (``2--Trickstar Light Stage``); a passcode listed again takes the later count (Rush lists).
We read the same way, and every line EDOPro would skip silently becomes a warning naming the line.

The reader builds no sentence: an error (:class:`LflistError`) and a warning (:class:`LfIssue`) are a message
key with named parameters (the line number among them), worded at the edge in the reader's language by the
message table of rules/banlist_messages.py.

Deckhall's own comments, written back on export: ``#date YYYY-MM-DD`` (the list's effective date — real lists
start on a given day, not on the 1st of the month their name says) and ``#region NAME`` after a ``!name``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

_COUNT = re.compile(r"^[+-]?\d+")
_NAME_DATE = re.compile(r"(?P<y>(?:19|20)\d\d)[.\-/](?P<m>\d{1,2})(?:[.\-/](?P<d>\d{1,2}))?")
# Only these exact shapes are Deckhall's; any other "#..." line, "#date changed" included, is a comment.
META_LINE = re.compile(
    r"^#\s*(?:(?P<key>date)\s*:?\s*(?P<value>\d{4}-\d{1,2}-\d{1,2})|(?P<rkey>region)\s*:?\s*(?P<region>[\w-]+))\s*$",
    re.IGNORECASE,
)
MAX_COUNT = 3
# How much of a line a message quotes: enough to find it, never a whole pasted file.
QUOTE = 40


class LflistError(ValueError):
    """The file cannot be read. ``key`` and ``params`` (``line`` among them, when a line is at fault) say
    why, for the edge to word in the requester's language (``rules.messages.error_message``)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(f"{key} {params}" if params else key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class LfIssue:
    """A line the reader skipped or read leniently: a message key and its named parameters."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "params": dict(self.params)}


def _issue(key: str, line: int, **params: Any) -> LfIssue:
    return LfIssue(key, {"line": line, **params})


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
    # From "#date" / "#region" lines under the list header (Deckhall writes them on export).
    date: date | None = None
    region: str = ""
    # Lines EDOPro would skip silently, or reads leniently.
    warnings: list[LfIssue] = field(default_factory=list)

    @property
    def effective_date(self) -> date | None:
        """The ``#date`` line's date, else the list's name: ``2020.04 TCG`` → 2020-04-01 (first of the month)."""
        if self.date is not None:
            return self.date
        match = _NAME_DATE.search(self.name)
        if not match:
            return None
        try:
            return date(int(match["y"]), int(match["m"]), int(match["d"] or 1))
        except ValueError:
            return None


@dataclass
class LflistRead:
    lists: list[LfList]
    # Warnings about lines before the first list (they belong to no list).
    warnings: list[LfIssue] = field(default_factory=list)


def apply_meta(lst: LfList, meta: re.Match[str], number: int) -> None:
    if meta["key"]:
        y, m, d = (int(part) for part in meta["value"].split("-"))
        try:
            lst.date = date(y, m, d)
        except ValueError:
            raise LflistError("banlist_file.bad_date", line=number, value=meta["value"]) from None
    else:
        lst.region = meta["region"].casefold()


def list_lines(text: str, result: LflistRead) -> Iterator[tuple[int, str, LfList | None]]:
    """The lines of a ban-list text that are neither blank, comments nor ``!name`` headers, with their line
    number and the list they belong to; headers open a new list in ``result`` and ``#date`` / ``#region``
    lines are applied to the current list. Shared by the EDOPro and the name-keyed readers."""
    current: LfList | None = None
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            meta = META_LINE.match(line)
            if meta and current is not None:
                apply_meta(current, meta, number)
            continue
        if line.startswith("!"):
            name = line[1:].strip()
            if not name:
                raise LflistError("banlist_file.no_name", line=number)
            current = LfList(name=name)
            result.lists.append(current)
            continue
        yield number, line, current


def read_lflist(text: str) -> LflistRead:
    """Every list of an lflist.conf text, with a warning for each line EDOPro would skip."""
    result = LflistRead(lists=[])
    seen: dict[str, tuple[int, int]] = {}
    index: dict[str, int] = {}
    owner: LfList | None = None
    for number, line, current in list_lines(text, result):
        if current is None:
            result.warnings.append(_issue("banlist_file.before_list", number, text=line[:QUOTE]))
            continue
        if current is not owner:
            owner, seen, index = current, {}, {}
        warn = current.warnings.append
        if line.startswith("$"):
            if line[1:].lower().startswith("whitelist"):
                current.whitelist = True
            else:
                warn(_issue("banlist_file.unknown_directive", number, text=line[:QUOTE]))
            continue
        parts = line.split(None, 1)
        if len(parts) < 2:
            warn(_issue("banlist_file.no_count", number, text=line[:QUOTE]))
            continue
        code_text, rest = parts
        count_match = _COUNT.match(rest)
        if not code_text.isdecimal() or count_match is None:
            warn(_issue("banlist_file.not_passcode_count", number, text=line[:QUOTE]))
            continue
        count = int(count_match.group())
        if count > MAX_COUNT:
            warn(_issue("banlist_file.count_above", number, count=count, max=MAX_COUNT))
            count = MAX_COUNT
        code = str(int(code_text))  # drop leading zeros: passcodes are numbers
        limit = max(count, 0)
        # After the count EDOPro ignores the rest: "--name" by convention; real files put a category after
        # the name, separated by tabs ("--Cyber Jar\t\t\tMAIN DECK MONSTERS"), a comment for the reader.
        name = rest[count_match.end() :].strip().lstrip("-").split("\t", 1)[0].strip()
        entry = LfEntry(external_id=code, limit=limit, name=name)
        if code in seen:
            earlier_limit, earlier_line = seen[code]
            seen[code] = (limit, number)
            if earlier_limit != limit:
                warn(_issue("banlist_file.repeated", number, code=code, count=count, earlier_line=earlier_line,
                            earlier=earlier_limit))  # fmt: skip
            current.entries[index[code]] = LfEntry(code, limit, name or current.entries[index[code]].name)
            continue
        seen[code] = (limit, number)
        index[code] = len(current.entries)
        current.entries.append(entry)
    if not result.lists:
        raise LflistError("banlist_file.no_list")
    return result


def parse_lflist(text: str) -> list[LfList]:
    """The lists of an lflist.conf text (see :func:`read_lflist` for the warnings about skipped lines)."""
    return read_lflist(text).lists


def header_lines(lst: LfList) -> list[str]:
    """``!name`` and the ``#date`` / ``#region`` lines a re-import reads back."""
    out = [f"!{lst.name}"]
    if lst.date is not None:
        out.append(f"#date {lst.date.isoformat()}")
    if lst.region:
        out.append(f"#region {lst.region}")
    return out


def serialize_lflist(lists: list[LfList]) -> str:
    out: list[str] = [f"#[{lst.name}]" for lst in lists]
    for lst in lists:
        out += header_lines(lst)
        if lst.whitelist:
            out.append("$whitelist")
        for entry in sorted(lst.entries, key=lambda e: (e.limit, e.name.casefold(), e.external_id)):
            out.append(f"{entry.external_id} {entry.limit} --{entry.name}" if entry.name else
                       f"{entry.external_id} {entry.limit}")  # fmt: skip
    return "\n".join(out) + "\n"
