"""The client's address as throttles and log-in lockouts see it.

Behind a load balancer every request comes from the balancer's address, so REMOTE_ADDR alone would
make one lockout hit everyone; but ``X-Forwarded-For`` is written by the client too, so trusting all of
it lets an attacker pick a fresh address for every guess. Only the entries appended by the proxies we
run are believed: with ``TRUSTED_PROXY_COUNT = n`` the client is the n-th address from the right of
``X-Forwarded-For`` (each proxy appends the address it received the request from). With no proxies
configured the header is ignored entirely.

``TRUSTED_PROXY_COUNT`` is only sound when the app's nodes cannot be reached except through those
proxies: a client that reaches a node directly writes the whole header itself and so picks its own
address. Where that cannot be guaranteed by the network, ``TRUSTED_PROXY_IPS`` lists the proxies'
addresses (or networks): the header is then believed only on connections from one of them, and any other
peer is counted by its socket address.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest


def _valid_address(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def _from_trusted_proxy(remote: str) -> bool:
    entries = tuple(getattr(settings, "TRUSTED_PROXY_IPS", ()) or ())
    if not entries:
        return True
    try:
        peer = ipaddress.ip_address(remote)
    except ValueError:
        return False
    return any(peer in network for network in _networks(entries))


def client_address(request: HttpRequest) -> str:
    remote = request.META.get("REMOTE_ADDR", "") or ""
    count = settings.TRUSTED_PROXY_COUNT
    if count <= 0 or not _from_trusted_proxy(remote):
        return remote
    hops = [hop for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    # Fewer hops than proxies: the request did not come through all of them (a direct hit on a node),
    # so the header is not ours and the socket address is the best we know.
    if len(hops) < count:
        return remote
    return _valid_address(hops[-count]) or remote
