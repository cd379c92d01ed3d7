"""Quiet logging of expected refusals.

Django logs a request refused by an exception (``PermissionDenied`` → 403, ``SuspiciousOperation`` → 400)
with the exception's whole traceback. A refusal is the site working as meant — a bare My-event link polled
every few seconds without its session, a forged id — and 1.2 KB of traceback per poll flooded the venue's
log. The warning line stays (path and status); the traceback goes. 5xx answers keep theirs.
"""

from __future__ import annotations

import logging


class QuietRefusals(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if record.exc_info and isinstance(status, int) and status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
