"""Standings like pairings: computed once per change, rendered once per change and language, and on a phone
only the rows a person looks at.

A 2,000-player standings page cost 202 ms of CPU and 334 KB per load, and the page reloaded itself, so the
5 % of a room watching it cost as much as everyone's My-event polls. Now:

- ``standings_data`` computes the event's standings once per ``standings_version`` (results, drops, rounds;
  not swaps, judge calls or the clock) and keeps them in the cache, language-free;
- a page of ``PAGE_ROWS`` rows (``standings-p<n>``) and the whole list (``standings-all``, for the
  projector and print) are shared renders (``shared.shared_entry``), served with ETag/304;
- a signed-in player's phone polls ``standings-p<n>-me<player>``: their own place with a few neighbours
  first (a small per-player render from the cached data), then the shared page — a few KB, not 2,000 rows;
- a search by name lists at most ``SEARCH_ROWS`` matches from the same cached data.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.translation import get_language

from .etags import shared_etag
from .shared import RENDER_WAIT_S, SHARED_TTL, compressed, entry_html, shared_entry
from .versions import page_version

PAGE_ROWS = 50
# Rows shown above and below the player's own place.
AROUND = 2
SEARCH_ROWS = 50
# The standings change with every result: a phone watching them asks every 15 s, not every 4.
POLL_MS = 15_000

# Counts real computations per cache key; tests read it to prove "once per change".
compute_count: dict[str, int] = {}
# The latest rows this process read, per event: a phone's fragment reads them twice (its own place, the
# page), and 2,000 rows from Redis are a few hundred KB each time. The rows are never changed in place.
_recent: dict[int, tuple[str, str, list[dict[str, Any]]]] = {}
RECENT_EVENTS = 16


def _remember(tournament_id: int, key: str, stamp: str | None, rows: list[dict[str, Any]]) -> None:
    if stamp is None:
        return
    if len(_recent) >= RECENT_EVENTS and tournament_id not in _recent:
        _recent.clear()  # a handful of events run at once; bounded in a long-running worker
    _recent[tournament_id] = (key, stamp, rows)


def standings_data(tournament_id: int) -> tuple[int, list[dict[str, Any]]] | None:
    """(version, the rows of ``selectors.standings_compute``), computed at most once per version (per cache:
    while one worker computes, the others wait for its result). None when there is no such event.

    The version is read before the rows: rows newer than their version can be stored under it, never
    older ones, and the next change computes again."""
    version = page_version(tournament_id, "standings")
    if version is None:
        return None
    key = f"live:{tournament_id}:{version}:standings-data"
    stamp_key = key + ":stamp"
    recent = _recent.get(tournament_id)
    # The stamp (a few bytes) says the cache still holds the very rows this process remembers.
    if recent is not None and recent[0] == key and cache.get(stamp_key) == recent[1]:
        return version, recent[2]
    found = cache.get_many([key, stamp_key])
    rows = found.get(key)
    if rows is not None:
        _remember(tournament_id, key, found.get(stamp_key), rows)
        return version, rows
    lock, deadline = key + ":lock", time.monotonic() + RENDER_WAIT_S
    while not cache.add(lock, 1, timeout=30):
        if time.monotonic() > deadline:
            break
        time.sleep(0.02)
        rows = cache.get(key)
        if rows is not None:
            return version, rows
    try:
        rows = _compute(tournament_id)
        if rows is None:
            return None
        stamp = uuid.uuid4().hex
        cache.set_many({key: rows, stamp_key: stamp}, SHARED_TTL)
        _remember(tournament_id, key, stamp, rows)
        if len(compute_count) > 1000:
            compute_count.clear()  # a counter for tests, kept bounded in a long-running worker
        compute_count[key] = compute_count.get(key, 0) + 1
    finally:
        cache.delete(lock)
    return version, rows


def _compute(tournament_id: int) -> list[dict[str, Any]] | None:
    from .. import selectors
    from ..models import Tournament

    tournament = Tournament.objects.select_related("game").filter(pk=tournament_id).first()
    if tournament is None:
        return None
    return selectors.standings_compute(tournament=tournament)


def _shown(value: Any) -> str:
    """Rounded for people, as the printable standings: whole numbers as such, others to one decimal."""
    value = float(value or 0)
    return f"{value:.0f}" if value == int(value) else f"{value:.1f}"


def columns_for(tournament: Any, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from ..printables import tiebreak_columns

    return tiebreak_columns(tournament, rows)


def shown_rows(rows: list[dict[str, Any]], columns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies of ``rows`` with their cells as the table shows them (only the rows shown are formatted)."""
    from ..printables import CUT_LABELS

    shown = []
    for row in rows:
        cells = [
            f"{row['tiebreakers'].get(c['key'], 0) * 100:.2f}%"
            if c["percent"]
            else _shown(row["tiebreakers"].get(c["key"], 0))
            for c in columns
        ]
        cut = row.get("top_cut")
        shown.append({**row, "cells": cells, "points_text": _shown(row["points"]),
                      "cut_label": CUT_LABELS.get(cut, cut) if cut else ""})  # fmt: skip
    return shown


def page_count(rows: list[dict[str, Any]]) -> int:
    return max(1, -(-len(rows) // PAGE_ROWS))


def page_name(*, number: int, mine: int | None) -> str:
    """The cache/ETag name of a standings fragment (``number`` 0: the whole list)."""
    base = "standings-all" if number == 0 else f"standings-p{number}"
    return f"{base}-me{mine}" if mine else base


def _table_context(tournament: Any, rows: list[dict[str, Any]], part: list[dict[str, Any]]) -> dict[str, Any]:
    columns = columns_for(tournament, rows)
    return {"tournament": tournament, "rows": shown_rows(part, columns), "columns": columns,
            "cut_column": any(r.get("top_cut") for r in rows)}  # fmt: skip


def render_page(tournament: Any, number: int, url: str) -> str:
    """The shared fragment: page ``number`` of the standings (0: all of them), with the pager."""
    data = standings_data(tournament.pk)
    rows = data[1] if data is not None else []
    pages = page_count(rows)
    number = min(number, pages)
    part = rows if number == 0 else rows[(number - 1) * PAGE_ROWS : number * PAGE_ROWS]
    first = 0 if not part else (0 if number == 0 else (number - 1) * PAGE_ROWS) + 1
    return render_to_string(
        "tournaments/_live_standings_page.html",
        {**_table_context(tournament, rows, part), "number": number, "pages": pages, "total": len(rows),
         "first": first, "last": first + len(part) - 1, "url": url,
         "previous": number - 1 if number > 1 else None, "next": number + 1 if 0 < number < pages else None},
    )  # fmt: skip


def render_mine(tournament: Any, mine: int) -> str:
    """The player's own place and ``AROUND`` neighbours each side (empty when they are not listed)."""
    data = standings_data(tournament.pk)
    rows = data[1] if data is not None else []
    at = next((i for i, row in enumerate(rows) if row["player"] == mine), None)
    if at is None:
        return ""
    part = rows[max(0, at - AROUND) : at + AROUND + 1]
    return render_to_string(
        "tournaments/_live_standings_mine.html",
        {**_table_context(tournament, rows, part), "mine": mine, "place": rows[at]},
    )


def search(tournament: Any, query: str) -> dict[str, Any]:
    """Rows whose player name holds ``query`` (case-insensitive), at most SEARCH_ROWS, as table context."""
    data = standings_data(tournament.pk)
    rows = data[1] if data is not None else []
    needle = query.casefold()
    found = [row for row in rows if needle in row["name"].casefold()]
    return {**_table_context(tournament, rows, found[:SEARCH_ROWS]), "found": len(found),
            "more": len(found) > SEARCH_ROWS}  # fmt: skip


def standings_fragment(
    *, tournament: Any, number: int, mine: int | None, url: str
) -> tuple[str, bytes, bytes | None] | None:
    """(ETag, HTML, gzipped HTML) of the fragment a page polls: the shared page, preceded on a signed-in
    player's phone by their own place. None when there is no such event."""
    page = page_name(number=number, mine=None)
    entry = shared_entry(
        tournament_id=tournament.pk, page=page, render=lambda: render_page(tournament, number, url)
    )
    if entry is None:
        return None
    if not mine:
        return entry
    version = page_version(tournament.pk, page)
    if version is None:
        return None
    # The shared part may be the previous version while another worker renders the new one: the tag names
    # the version of the older of the two parts, so the next poll fetches again.
    shared_version = int(entry[0].rsplit("-", 2)[-2])
    html = render_mine(tournament, mine) + entry_html(entry)
    raw, gz = compressed(html)
    etag = shared_etag(page=page_name(number=number, mine=mine), tournament_id=tournament.pk,
                       version=min(version, shared_version), language=get_language() or "en")  # fmt: skip
    return etag, raw, gz
