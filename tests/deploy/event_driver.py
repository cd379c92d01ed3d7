"""Drive a Swiss event over HTTP with the standard library only.

Used by the venue crash test, and by .ci/smoke.py, which runs in the runtime-only environment (the lock
alone: no pytest, no test packages), so nothing here may import more than the standard library.
"""

from __future__ import annotations

import http.cookiejar
import json
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any


class HTTPFailure(AssertionError):
    pass


class _BehindTLSProxy(http.cookiejar.DefaultCookiePolicy):
    # A production node behind a TLS-terminating proxy sets Secure cookies; talking to the node itself over
    # plain HTTP (as the proxy does), the client must still send them back.
    def return_ok_secure(self, cookie: http.cookiejar.Cookie, request: Any) -> bool:
        return True


class Site:
    """One client of one base URL; `token` authenticates API calls, the cookie jar keeps a session.

    `behind_proxy`: talk to a production node as its TLS-terminating proxy would (X-Forwarded-Proto:
    https, Secure cookies sent back). A jar may be shared between Sites of several nodes.
    """

    def __init__(
        self,
        base: str,
        *,
        token: str | None = None,
        behind_proxy: bool = False,
        cookies: http.cookiejar.CookieJar | None = None,
    ) -> None:
        self.base = base.rstrip("/")
        self.token = token
        self.behind_proxy = behind_proxy
        self.cookies = cookies or http.cookiejar.CookieJar(_BehindTLSProxy() if behind_proxy else None)
        self._opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        self.last_url = ""

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        expect: tuple[int, ...] = (200, 201, 202),
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
        timeout: float = 60,
    ) -> tuple[int, Any, dict[str, str]]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if body is not None and raw is None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        if self.behind_proxy:
            request.add_header("X-Forwarded-Proto", "https")
            request.add_header("Origin", "https://" + self.base.split("://", 1)[1])
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with self._opener.open(request, timeout=timeout) as response:
                status, payload, got = response.status, response.read(), dict(response.headers)
                self.last_url = response.url
        except urllib.error.HTTPError as exc:
            status, payload, got = exc.code, exc.read(), dict(exc.headers)
        kind = got.get("Content-Type", "")
        parsed = json.loads(payload) if payload and kind.startswith("application/json") else payload
        if status not in expect:
            raise HTTPFailure(f"{method} {path} answered {status}, expected {expect}: {payload[:500]!r}")
        return status, parsed, got

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.call("GET", path, **kwargs)[1]

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Any:
        return self.call("POST", path, body if body is not None else {}, **kwargs)[1]

    def upload(self, path: str, fields: dict[str, str], filename: str, content: bytes) -> Any:
        """POST a multipart form with one file (the card import endpoint takes one)."""
        boundary = f"deckhall-{uuid.uuid4().hex}"
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
            for name, value in fields.items()
        ]
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n".encode()
            + content
            + f"\r\n--{boundary}--\r\n".encode()
        )
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        return self.call("POST", path, raw=b"".join(parts), headers=headers)[1]

    def csrf_token(self) -> str:
        return next((c.value for c in self.cookies if c.name == "csrftoken"), "")

    def log_in_form(self, username: str, password: str) -> None:
        """Log in through the HTML form, as a browser does: the session lands in the cookie jar."""
        self.call("GET", "/accounts/login/")
        form = urllib.parse.urlencode(
            {"username": username, "password": password, "csrfmiddlewaretoken": self.csrf_token()}
        ).encode()
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        self.call("POST", "/accounts/login/", raw=form, headers=headers)
        if "/accounts/login/" in self.last_url:
            raise HTTPFailure(f"log-in as {username} on {self.base} failed")

    def log_in_token(self, username: str, password: str) -> str:
        self.token = self.post("/api/auth/token/", {"username": username, "password": password})["token"]
        return self.token


def wait_healthy(base: str, *, timeout: float = 240, process: Any = None) -> dict[str, Any]:
    """Poll /healthz until it answers 200 (a starting server refuses connections meanwhile)."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise HTTPFailure(f"the server exited with {process.returncode} before it was healthy")
        try:
            with urllib.request.urlopen(base.rstrip("/") + "/healthz", timeout=5) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as exc:
            last = f"{exc.code}: {exc.read()[:300]!r}"
        except OSError as exc:
            last = str(exc)
        time.sleep(0.5)
    raise HTTPFailure(f"{base}/healthz not healthy after {timeout:.0f} s: {last}")


def event_create(
    site: Site, *, name: str, players: int, rounds: int, game: str = "yugioh", fmt: str = "advanced"
) -> int:
    event = site.post(
        "/api/tournaments/", {"name": name, "game": game, "format": fmt, "rounds": rounds, "seed": 7}
    )
    for number in range(1, players + 1):
        site.post(f"/api/tournaments/{event['id']}/players/", {"name": f"Player {number:04d}"})
    return int(event["id"])


def round_pair(site: Site, event_id: int) -> dict[str, Any]:
    return site.post(f"/api/tournaments/{event_id}/rounds/")


def rounds_list(site: Site, event_id: int) -> list[dict[str, Any]]:
    return site.get(f"/api/tournaments/{event_id}/rounds/")["rounds"]


def round_report(site: Site, round_: dict[str, Any], *, limit: int | None = None) -> int:
    """Enter results (as an organizer: final at once) for the round's unfinished matches; returns how many."""
    done = 0
    for match in round_["matches"]:
        if match["bye"] or match["status"] == "final" or len(match["players"]) != 2:
            continue
        if limit is not None and done >= limit:
            break
        wins = [[2, 0], [2, 1], [0, 2], [1, 2]][match["table"] % 4]
        site.post(f"/api/matches/{match['id']}/result/", {"wins": wins, "draws": 0})
        done += 1
    return done


def standings(site: Site, event_id: int) -> list[dict[str, Any]]:
    return site.get(f"/api/tournaments/{event_id}/standings/")["standings"]
