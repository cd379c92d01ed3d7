"""Live pages: short polling with ETag/304 over per-event change counters kept in the database.

Why this and not server-sent events: the venue runs gunicorn + SQLite on one laptop, the cluster runs
several web nodes on PostgreSQL. A counter column is shared by every worker and node without any pub/sub,
and a poll of an unchanged page costs one indexed primary-key read before answering 304.

The map, in the order a poll walks it:

- ``wsgi`` — ``LivePolls``, the WSGI wrapper that answers unchanged polls before Django's middleware;
- ``polls`` — ``poll_decide``, the one decision both the fast path and the views ask (304 / notice / render);
- ``versions`` — the change counters and the receiver of ``signals.tournament_changed`` that bumps them;
- ``my_event`` — a player's fingerprint and page data in a fixed handful of hand-written queries;
- ``notice`` — the short new-round notice a phone gets in the seconds after a round is posted;
- ``etags`` — how tags are written and read;
- ``sql`` — the polls' statements, prepared once per connection on PostgreSQL;
- ``shared`` — pages everyone shares, rendered once per change and language, kept in the cache gzipped;
- ``standings`` — the standings computed once per change, a page of them shared, a player's own place first;
- ``clock`` — the clock notice a phone gets when only the round clock changed;
- ``responses`` — the HTTP answers the views return.

Importing this package connects the counters' receiver (``TournamentsConfig.ready`` does).
"""

from .etags import VARY, digest, etags_parse
from .notice import REFRESH_HEADER, REFRESH_SPREAD_MAX_MS, Notice, my_event_notice
from .polls import (
    Decision,
    PersonalPoll,
    my_event_etag,
    my_event_token,
    my_event_token_read,
    personal_poll,
    poll_decide,
    shared_etag_current,
)
from .responses import POLL_MS, fragment_page, personal_page, shared_page
from .shared import entry_html, render_count, shared_entry
from .versions import live_version_bump, page_version

__all__ = [
    "POLL_MS",
    "REFRESH_HEADER",
    "REFRESH_SPREAD_MAX_MS",
    "VARY",
    "Decision",
    "Notice",
    "PersonalPoll",
    "digest",
    "entry_html",
    "etags_parse",
    "fragment_page",
    "live_version_bump",
    "my_event_etag",
    "my_event_notice",
    "my_event_token",
    "my_event_token_read",
    "page_version",
    "personal_page",
    "personal_poll",
    "poll_decide",
    "render_count",
    "shared_entry",
    "shared_etag_current",
    "shared_page",
]
