"""Where phones reach this site: the origin every join link, QR code and poster names, and the laptop's
`<name>.local` address when it really leads here.

QR codes always carry the LAN address (or the certificate's host name with HTTPS): an address works on every
phone, while `.local` names need mDNS, which not every phone resolves. The `.local` name is only shown beside
it, as an easier address to type, when it resolves to the LAN address on the laptop itself (the system's own
responder publishes it: Bonjour on macOS, Avahi on Linux, recent Windows; Deckhall does not run a second
mDNS responder, which would contend with the system's for the same name).
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

from django.conf import settings
from django.http import HttpRequest

from venue import lan

RESOLVE_TIMEOUT = 1.0  # seconds: a name that takes longer would not help a player typing it either
CACHE_SECONDS = 60.0  # the answer is asked for on every poster and event page; the network rarely changes
_cache: dict[tuple[str, str], tuple[float, bool]] = {}
_lock = threading.Lock()


def local_name() -> str:
    return socket.gethostname().split(".")[0].lower() + ".local"


def resolve(name: str) -> set[str]:
    """Every address ``name`` resolves to on this machine (empty when it does not resolve)."""
    try:
        return {info[4][0].split("%")[0] for info in socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)}
    except (OSError, UnicodeError):
        return set()


def resolves_to(name: str, address: str) -> bool:
    """True when ``name`` resolves to ``address`` here, within RESOLVE_TIMEOUT (getaddrinfo has no timeout
    of its own, so it runs in a daemon thread that is left behind if it hangs); cached for CACHE_SECONDS."""
    key = (name, address)
    now = time.monotonic()
    with _lock:
        hit = _cache.get(key)
    if hit is not None and now - hit[0] < CACHE_SECONDS:
        return hit[1]
    found: list[set[str]] = []
    worker = threading.Thread(target=lambda: found.append(resolve(name)), daemon=True)
    worker.start()
    worker.join(RESOLVE_TIMEOUT)
    answer = bool(found) and address in found[0]
    with _lock:
        _cache[key] = (now, answer)
    return answer


def forget() -> None:
    """Drop the cached answers (a test changes the resolver; a restart does the same)."""
    with _lock:
        _cache.clear()


def _with_port(host: str, port: str) -> str:
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"{shown}:{port}" if port else shown


def _certificate_covers(name: str) -> bool:
    if not settings.VENUE_TLS_CERT:
        return True
    from venue.tls import TLSError, certificate_names

    try:
        return certificate_names(settings.VENUE_TLS_CERT).covers(name)
    except TLSError:
        return False


def local_origin(scheme: str, port: str, address: str) -> str:
    """``scheme://<name>.local:port`` when that name leads to ``address`` (and, with HTTPS, the certificate is
    valid for it: a link that opens on a certificate warning is no easier), else ""."""
    name = local_name()
    if not resolves_to(name, address) or not _certificate_covers(name):
        return ""
    return f"{scheme}://{_with_port(name, port)}"


def phone_origin(request: HttpRequest) -> dict[str, Any]:
    """``origin`` (scheme://host[:port]) for links and QR codes; ``loopback`` and ``opened_as`` when the page was
    opened from an address only this computer reaches; ``lan``, the address (or certificate host name) used
    instead in venue mode; ``local``, the `.local` origin to show beside it, or "". Outside venue mode the host
    is kept (``make run`` listens on loopback only) and the page only warns."""
    host = request.get_host()
    name, port = lan.split_host(host)
    loopback = lan.is_loopback_host(name)
    address = lan.primary_address() if settings.VENUE_MODE else None
    public = (settings.VENUE_HOST if settings.VENUE_MODE else "") or address
    if public:
        host = _with_port(public, port)
    local = local_origin(request.scheme, port, address) if address else ""
    return {"origin": f"{request.scheme}://{host}", "loopback": loopback, "opened_as": name, "lan": public,
            "venue": settings.VENUE_MODE, "local": local}  # fmt: skip
