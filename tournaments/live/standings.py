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

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.translation import get_language

from .etags import shared_etag
from .shared import RENDER_WAIT_S, SHARED_TTL, compressed, entry_html, render_once
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


def every_s() -> float:
    """Standings are computed at most this often (seconds): during a round a 1,000-table event reports a
    result every second or two, and computing 2,000 players' standings for each would keep a core busy.
    A phone polls them every 15 s anyway. ``LIVE_STANDINGS_EVERY_S`` in the settings (0: every change)."""
    return float(getattr(settings, "LIVE_STANDINGS_EVERY_S", 10))


# Standings a page being opened may show, at most this many seconds behind (polls: ``every_s()``).
OPENED_EVERY_S = 2.0


def _cached_rows(tournament_id: int, key: str) -> list[dict[str, Any]] | None:
    stamp_key = key + ":stamp"
    recent = _recent.get(tournament_id)
    # The stamp (a few bytes) says the cache still holds the very rows this process remembers.
    if recent is not None and recent[0] == key and cache.get(stamp_key) == recent[1]:
        return recent[2]
    found = cache.get_many([key, stamp_key])
    rows = found.get(key)
    if rows is not None:
        _remember(tournament_id, key, found.get(stamp_key), rows)
    return rows


def standings_data(tournament_id: int, *, fresh: bool = False) -> tuple[int, list[dict[str, Any]]] | None:
    """(version, the rows of ``selectors.standings_compute``), computed at most once per version (per cache:
    while one worker computes, the others wait for its result), and at most once per ``every_s()``: until
    then the latest computed version is returned, under its own version (``fresh``, a page being opened:
    at most OPENED_EVERY_S behind). None when there is no such event.

    The version is read before the rows: rows newer than their version can be stored under it, never
    older ones, and the next change computes again."""
    version = page_version(tournament_id, "standings")
    if version is None:
        return None
    key = f"live:{tournament_id}:{version}:standings-data"
    stamp_key = key + ":stamp"
    rows = _cached_rows(tournament_id, key)
    if rows is not None:
        return version, rows
    latest_key = f"live:{tournament_id}:standings-latest"
    latest = cache.get(latest_key)
    # A page being opened (``fresh``) takes rows at most OPENED_EVERY_S old: while results pour in, a
    # standings page opened every second must not compute 2,000 players' standings for every result.
    window = min(OPENED_EVERY_S, every_s()) if fresh else every_s()
    if latest is not None and latest[0] < version and time.time() - latest[1] < window:
        rows = _cached_rows(tournament_id, f"live:{tournament_id}:{latest[0]}:standings-data")
        if rows is not None:
            return latest[0], rows
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
        cache.set_many({key: rows, stamp_key: stamp, latest_key: (version, time.time())}, SHARED_TTL)
        _remember(tournament_id, key, stamp, rows)
        if len(compute_count) > 1000:
            compute_count.clear()  # a counter for tests, kept bounded in a long-running worker
        compute_count[key] = compute_count.get(key, 0) + 1
    finally:
        cache.delete(lock)
    return version, rows


def _compute(tournament_id: int) -> list[dict[str, Any]] | None:
    from ..models import Tournament
    from ..reads import selectors

    tournament = Tournament.objects.select_related("game").filter(pk=tournament_id).first()
    if tournament is None:
        return None
    return selectors.standings_compute(tournament=tournament)


def _shown(value: Any) -> str:
    """Rounded for people, as the printable standings: whole numbers as such, others to one decimal."""
    value = float(value or 0)
    return f"{value:.0f}" if value == int(value) else f"{value:.1f}"


def columns_for(tournament: Any, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from ..printables.documents import tiebreak_columns

    return tiebreak_columns(tournament, rows)


def shown_rows(rows: list[dict[str, Any]], columns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies of ``rows`` with their cells as the table shows them (only the rows shown are formatted)."""
    from ..printables.documents import CUT_LABELS

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


def render_page(tournament: Any, number: int, url: str, rows: list[dict[str, Any]]) -> str:
    """The shared fragment: page ``number`` of the standings (0: all of them), with the pager."""
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


def render_mine(tournament: Any, mine: int, rows: list[dict[str, Any]]) -> str:
    """The player's own place and ``AROUND`` neighbours each side (empty when they are not listed)."""
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
    data = standings_data(tournament.pk, fresh=True)
    rows = data[1] if data is not None else []
    needle = query.casefold()
    found = [row for row in rows if needle in row["name"].casefold()]
    return {**_table_context(tournament, rows, found[:SEARCH_ROWS]), "found": len(found),
            "more": len(found) > SEARCH_ROWS}  # fmt: skip


def standings_fragment(
    *, tournament: Any, number: int, mine: int | None, url: str, fresh: bool = False
) -> tuple[str, bytes | None, bytes | None] | None:
    """(ETag, HTML, gzipped HTML) of the fragment a page polls: the shared page, preceded on a signed-in
    player's phone by their own place. None when there is no such event.

    Keyed and tagged by the version of the rows shown (``standings_data``), which may be the previous one
    for a few seconds: a phone holding it gets 304 (``responses.fragment_page``), and the next computation
    brings the new one. ``fresh`` (a page being opened, not polled): never the previous rows."""
    data = standings_data(tournament.pk, fresh=fresh)
    if data is None:
        return None
    version, rows = data
    language = get_language() or "en"
    page = page_name(number=number, mine=None)
    key = f"live:{tournament.pk}:{version}:{language}:{page}"
    entry = cache.get(key)
    if entry is None:
        entry = render_once(key, lambda: render_page(tournament, number, url, rows), wait=True)
        if entry is None:  # (never with wait=True: it renders itself once the wait is over)
            return None
    if not mine:
        return shared_etag(page=page, tournament_id=tournament.pk, version=version, language=language), *entry
    html = render_mine(tournament, mine, rows) + entry_html(("", *entry))
    raw, gz = compressed(html)
    etag = shared_etag(page=page_name(number=number, mine=mine), tournament_id=tournament.pk,
                       version=version, language=language)  # fmt: skip
    return etag, raw, gz
