"""Pages everyone shares (pairings, standings, projector): rendered once per change and language, kept in the
cache gzipped, served with an ETag.

While another worker renders a new version, the previous one is served at once with its own (older) ETag
rather than waited for: after a round is posted a 2,000-name page takes a while to render, and workers
waiting on it would stall every phone in the room. Its next poll gets the new version.
"""

from __future__ import annotations

import gzip
import time
from collections.abc import Callable

from django.core.cache import cache
from django.utils.translation import get_language

from .etags import shared_etag
from .versions import page_state

# Shared renders are kept this long; a new version makes a new key, so this only bounds memory.
SHARED_TTL = 15 * 60
# Another worker renders the same page: wait this long for its result before rendering ourselves.
RENDER_WAIT_S = 3.0

# Counts real renders of shared pages per cache key; tests read it to prove "once per change".
render_count: dict[str, int] = {}
RENDER_COUNT_CAP = 1_000

Entry = tuple[str, bytes | None, bytes | None]


def compressed(body: str) -> tuple[bytes, bytes | None]:
    raw = body.encode()
    # Tiny bodies gain nothing from gzip; mtime=0 keeps the bytes (and so caches) reproducible.
    return raw, gzip.compress(raw, compresslevel=6, mtime=0) if len(raw) > 512 else None


def entry_html(entry: Entry) -> str:
    """The HTML of a shared entry (ETag, HTML or None, gzipped HTML or None)."""
    raw = entry[1] if entry[1] is not None else gzip.decompress(entry[2] or b"")
    return raw.decode()


def shared_entry(*, tournament_id: int, page: str, render: Callable[[], str]) -> Entry | None:
    """(ETag, HTML, gzipped HTML) of a page that looks the same to everyone (per language), rendered at
    most once per change it shows; None when there is no such event."""
    version = page_state(tournament_id, page)
    if version is None:
        return None
    language = get_language() or "en"
    key = f"live:{tournament_id}:{version}:{language}:{page}"
    latest = f"live:{tournament_id}:{language}:{page}:latest"
    entry = cache.get(key)
    if entry is None:
        entry = render_once(key, render, wait=False)
        if entry is None:
            stale = cache.get(latest)
            if stale is not None:
                return shared_etag(
                    page=page, tournament_id=tournament_id, version=stale[0], language=language
                ), *stale[1:]
            entry = render_once(key, render, wait=True)
        cache.set(latest, (version, *entry), SHARED_TTL)
    return shared_etag(page=page, tournament_id=tournament_id, version=version, language=language), *entry


def render_once(
    key: str, render: Callable[[], str], *, wait: bool
) -> tuple[bytes | None, bytes | None] | None:
    """Render under a short cache lock so a burst of phones after a change causes one render, not one each
    (per cache: once overall with the venue's file cache or Redis; once per process with local memory).
    When another worker holds the lock: None at once, or (``wait``) its result, waited for up to
    RENDER_WAIT_S before rendering anyway."""
    lock = key + ":lock"
    deadline = time.monotonic() + RENDER_WAIT_S
    while not cache.add(lock, 1, timeout=30):
        if not wait:
            return None
        if time.monotonic() > deadline:
            break
        time.sleep(0.02)
        entry = cache.get(key)
        if entry is not None:
            return entry
    try:
        raw, gz = compressed(render())
        # Kept gzipped only (a tenth of the size): every phone of a 2,000-player room fetches the
        # 2,000-name page from the cache after each round, Redis sends it over the network each time.
        entry = (None, gz) if gz is not None else (raw, None)
        if len(render_count) >= RENDER_COUNT_CAP and key not in render_count:
            render_count.clear()  # a counter for tests, not a record: kept bounded in a long-running worker
        render_count[key] = render_count.get(key, 0) + 1
        cache.set(key, entry, SHARED_TTL)
    finally:
        cache.delete(lock)
    return entry
