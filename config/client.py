"""The client's address as throttles and log-in lockouts see it.

Behind a load balancer every request comes from the balancer's address, so REMOTE_ADDR alone would
make one lockout hit everyone; but ``X-Forwarded-For`` is written by the client too, so trusting all of
it lets an attacker pick a fresh address for every guess. Only the entries appended by the proxies we
run are believed: with ``TRUSTED_PROXY_COUNT = n`` the client is the n-th address from the right of
``X-Forwarded-For`` (each proxy appends the address it received the request from). With no proxies
configured the header is ignored entirely.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _valid_address(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None


def client_address(request: HttpRequest) -> str:
    remote = request.META.get("REMOTE_ADDR", "") or ""
    count = settings.TRUSTED_PROXY_COUNT
    if count <= 0:
        return remote
    hops = [hop for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    # Fewer hops than proxies: the request did not come through all of them (a direct hit on a node),
    # so the header is not ours and the socket address is the best we know.
    if len(hops) < count:
        return remote
    return _valid_address(hops[-count]) or remote
