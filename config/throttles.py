"""DRF's scoped throttle keyed on the client address from config.client.

DRF's own get_ident() believes the whole X-Forwarded-For header unless NUM_PROXIES is set, so a client
rotating that header escaped the limit; here the address comes from the trusted-proxy setting.
"""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import ScopedRateThrottle

from .client import client_address


class ClientScopedRateThrottle(ScopedRateThrottle):
    def get_ident(self, request: Any) -> str:
        return client_address(request)
