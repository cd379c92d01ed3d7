"""The entity tags of live pages: what a phone holds and sends back in If-None-Match.

A shared page's tag names the page, the event, the counter it follows and the language:
``"<page>-<event>-<version>-<language>"``; on the pages with a round clock, while one is set, the version
part is ``<version>c<clock digest>``. A player's page tag names the event, the latest round, the
language and what that player sees: ``"me-<event>-<round id>-<language>-<page>.<clock>"`` — a digest of the
page without the round clock, and a short one of the clock — or NOTICE while the phone shows the short
new-round notice.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.conf import settings

VARY = "Accept-Encoding, Cookie, Accept-Language"
NOTICE = "notice"


def known_language(code: str | None) -> str | None:
    """``code`` when it is one of settings.LANGUAGES, else None.

    The language inside a tag (or a cookie) comes from the client: a poll renders the notice under it, and
    every language Django is asked to activate stays in its translation registry for the life of the
    process (2,000 polls with made-up languages grew one worker by 7.7 MB). Only the site's own fixed set
    is ever used."""
    if code is None:
        return None
    return code if code in {language for language, _name in settings.LANGUAGES} else None


def etags_parse(header: str) -> set[str]:
    """The entity tags of an If-None-Match header (weak or strong: a 304 compares them weakly)."""
    return {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}


def shared_etag(*, page: str, tournament_id: int, version: int | str, language: str) -> str:
    return f'"{page}-{tournament_id}-{version}-{language}"'


def personal_etag(*, tournament_id: int, round_id: int, language: str, mark: str) -> str:
    return f'"me-{tournament_id}-{round_id}-{language}-{mark}"'


def personal_tag_parts(tag: str, tournament_id: int) -> tuple[int, str, str] | None:
    """(round id, language, digest) of one of our player-page tags for this event, else None."""
    prefix = f'"me-{tournament_id}-'
    if not tag.startswith(prefix) or not tag.endswith('"'):
        return None
    round_part, _sep, rest = tag[len(prefix) : -1].partition("-")
    language, _sep, mark = rest.rpartition("-")
    if not round_part.isdigit() or known_language(language) is None or not mark:
        return None
    return int(round_part), language, mark


def digest(data: Any) -> str:
    """A short stable hash of what a page shows (JSON of plain values)."""
    raw = json.dumps(data, sort_keys=True, default=str, separators=(",", ":")).encode()
    return hashlib.blake2b(raw, digest_size=8).hexdigest()
