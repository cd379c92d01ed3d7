"""What a WSGI wrapper under test hands requests on to, in place of Django (or the next wrapper)."""

from __future__ import annotations

from typing import Any


class Downstream:
    """Stands in for what comes after the wrapper: records that the request reached it."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        self.calls += 1
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"django"]
