"""A phone's HTTP/1.1 connection for the benches that play a room of phones on the server's own machine.

A room's phones bring their own CPU; a bench that plays 2,000 of them on the venue laptop's two cores takes
that CPU from the server it measures, and every latency it reads includes how late its own event loop wakes.
aiohttp spent ~0.3 ms of the machine's CPU per request (its session, connector, URL and header objects), a
third of a core at 2,000 phones. ``Kept`` is one keep-alive connection on asyncio's streams, one request at a
time as a browser tab sends them, with a phone browser's headers: the request written in one piece, the status line, headers and a
Content-Length (or chunked) body read back, gzip undone. A connection the server closed (a killed worker,
``Connection: close``, the keep-alive timeout) is opened again on the next request, and a request that dies
on a kept connection before any answer comes is sent once more on a new one, as browsers do; a request whose
answer still does not come raises, as aiohttp's did, and the caller sends it again (a pick with its key).

``AioHttp`` is the same interface over aiohttp, for comparing the two clients on the same server
(``bench_draft.py --client aiohttp``).
"""

from __future__ import annotations

import asyncio
import zlib
from typing import Any

Answer = tuple[int, dict[str, str], bytes]  # status, headers (lower-case names), body (gzip undone)

# What Chromium on a phone sends with the page's fetch() besides the request's own headers: the server parses
# every one of them (gunicorn's parser, the language choice, the CSRF middleware's Origin check).
BROWSER = {
    "User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Mobile Safari/537.36",
    "Accept": "*/*",
    "Accept-Language": "en-US,en;q=0.9,ru;q=0.8",
    "Sec-Fetch-Site": "same-origin",
    "Sec-Fetch-Mode": "cors",
    "Sec-Fetch-Dest": "empty",
}


class EmptyAnswer(Exception):
    """The connection ended before a byte of the answer came."""


class Kept:
    """One phone's kept-alive connection to ``base`` (``http://host:port``)."""

    def __init__(self, base: str, timeout: float = 30.0, page: str = "/") -> None:
        host, port = base.removeprefix("http://").rsplit(":", 1)
        self.host, self.port, self.timeout = host, int(port), timeout
        self.authority = f"{host}:{port}"
        # The browser's own headers, the page the phone is on as the Referer, and its origin on a POST.
        self.browser = "".join(
            f"{name}: {value}\r\n" for name, value in {**BROWSER, "Referer": base + page}.items()
        )
        self.origin = f"Origin: {base}\r\n"
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.lock: asyncio.Lock | None = None  # one request at a time on the connection, as a browser's

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes | None = None
    ) -> Answer:
        if self.lock is None:
            self.lock = asyncio.Lock()
        async with self.lock:
            try:
                async with asyncio.timeout(self.timeout):
                    if self.reader is not None and self.reader.at_eof():
                        self.close()  # the server closed it while the phone was idle: a new one
                    reused = self.writer is not None
                    try:
                        return await self._exchange(method, path, headers, body)
                    except (ConnectionError, EmptyAnswer):
                        if not reused:
                            raise
                        # A kept connection that died under the request before any answer came (the worker
                        # was killed): sent again once on a new connection, as browsers do.
                        self.close()
                        return await self._exchange(method, path, headers, body)
            except BaseException:
                self.close()  # whatever was half read or written is not the next answer's
                raise

    async def _exchange(self, method: str, path: str, headers: dict[str, str], body: bytes | None) -> Answer:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: {self.authority}",
            "Accept-Encoding: gzip, deflate, br, zstd",
        ]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body is not None:
            lines.append(f"Content-Length: {len(body)}")
        head = "\r\n".join(lines) + "\r\n" + self.browser + (self.origin if method == "POST" else "") + "\r\n"
        self.writer.write(head.encode("latin-1") + (body or b""))
        reader = self.reader
        assert reader is not None
        status_line = await reader.readline()
        if not status_line:
            raise EmptyAnswer("the server closed the connection before answering")
        status = int(status_line.split(b" ", 2)[1])
        answer: dict[str, str] = {}
        while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            answer[name.strip().lower()] = value.strip()
        if answer.get("transfer-encoding", "").lower() == "chunked":
            data = await self._chunks(reader)
        elif status in (204, 304) or method == "HEAD":
            data = b""
        else:
            data = await reader.readexactly(int(answer.get("content-length", "0")))
        if answer.get("connection", "").lower() == "close":
            self.close()
        if answer.get("content-encoding") == "gzip":
            data = zlib.decompress(data, 16 + zlib.MAX_WBITS)
        return status, answer, data

    @staticmethod
    async def _chunks(reader: asyncio.StreamReader) -> bytes:
        parts = []
        while size := int((await reader.readline()).split(b";", 1)[0], 16):
            parts.append(await reader.readexactly(size))
            await reader.readline()
        await reader.readline()  # the blank line after the last chunk (no trailers are sent to us)
        return b"".join(parts)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class AioHttp:
    """The same interface over one aiohttp session with one kept connection (the bench's earlier client)."""

    def __init__(self, base: str, timeout: float = 30.0) -> None:
        import aiohttp

        self.base = base
        self.session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=1, keepalive_timeout=30),
            cookie_jar=aiohttp.DummyCookieJar(),
            timeout=aiohttp.ClientTimeout(total=timeout),
        )

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes | None = None
    ) -> Answer:
        async with self.session.request(method, self.base + path, headers=headers, data=body) as response:
            data = await response.read()
            return response.status, {k.lower(): v for k, v in response.headers.items()}, data

    async def aclose(self) -> None:
        await self.session.close()


def connect(kind: str, base: str, page: str = "/") -> Any:
    """A phone's connection on ``page``: ``raw`` (Kept, a phone browser's headers) or ``aiohttp`` (its own)."""
    return AioHttp(base) if kind == "aiohttp" else Kept(base, page=page)


async def disconnect(connection: Any) -> None:
    if isinstance(connection, AioHttp):
        await connection.aclose()
    else:
        connection.close()
