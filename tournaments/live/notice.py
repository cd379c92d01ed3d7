"""The short "new round" notice of a player's page: what a phone needs within seconds of a round being posted.

It holds the round, the player's table and opponents (what the public pairings page shows), rendered with
two small queries and a tiny template. The full page (result forms, deck …) follows after a delay spread by
the round's size, so a 2,000-phone room does not ask for 2,000 full renders at once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils import translation

from .etags import NOTICE, personal_etag
from .my_event import my_event_pairing

# The phone fetches its full page this many milliseconds after the notice (header read by live.js).
REFRESH_HEADER = "X-Live-Refresh"
# A round's full pages are spread over up to this long: 2,000 full renders (~10 ms of a laptop core each
# through gunicorn) in the seconds after a round is posted would take a 2-core laptop well past the 5 s in
# which every phone must show its new table. Nobody reports a game in a round's first minute, so a
# 1,000-table round spreads over a minute (a third of a core), a 16-table one over a second.
REFRESH_SPREAD_MAX_MS = 60_000
REFRESH_MS_PER_MATCH = 60


@dataclass(frozen=True, slots=True)
class Notice:
    etag: str
    body: bytes
    refresh_ms: int


def my_event_notice(*, tournament_id: int, player_id: int, language: str) -> Notice | None:
    """The notice for this player in ``language``; None when the player has no pairing to show."""
    pairing = my_event_pairing(tournament_id=tournament_id, player_id=player_id)
    if pairing is None:
        return None
    with translation.override(language):
        body = render_to_string("tournaments/_my_event_notice.html", pairing).encode()
    spread = min(REFRESH_SPREAD_MAX_MS, REFRESH_MS_PER_MATCH * pairing["round"].match_count)
    etag = personal_etag(
        tournament_id=tournament_id, round_id=pairing["round"].pk, language=language, mark=NOTICE
    )
    return Notice(etag=etag, body=body, refresh_ms=random.randint(0, spread))
