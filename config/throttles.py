"""DRF's scoped throttle keyed on the client address from config.client.

DRF's own get_ident() believes the whole X-Forwarded-For header unless NUM_PROXIES is set, so a client
rotating that header escaped the limit; here the address comes from the trusted-proxy setting.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle

from accounts.attempts import address_key, attempt_count, parse_rate

from .client import client_address


class ClientScopedRateThrottle(ScopedRateThrottle):
    def get_ident(self, request: Any) -> str:
        return client_address(request)


class DeckCheckThrottle(BaseThrottle):
    """The deck checks anyone may call (``POST /api/decks/validate/``, the sideboard and partner checks, the
    team check): each parses and resolves a whole list, so each is counted per client address (from the
    trusted-proxy setting, never the client's own ``X-Forwarded-For``) and, when signed in, per account as
    well — a second address does not buy an account more checks. Counted in the database like the join and
    sign-up throttles (accounts.attempts): atomic across workers and nodes, never evicted by a full cache.
    DECK_CHECK_THROTTLE_RATE ("120/min" by default: a builder's live check every half second)."""

    def allow_request(self, request: Any, view: Any) -> bool:
        limit, self.window = parse_rate(settings.DECK_CHECK_THROTTLE_RATE)
        keys = [f"throttle:deck_check:{address_key(request)}"]
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            keys.append(f"throttle:deck_check:user:{user.pk}")
        # Every key counts the request (no short-circuit): a refused burst still fills the account's counter.
        counts = [attempt_count(key, window=self.window) for key in keys]
        return all(count <= limit for count in counts)

    def wait(self) -> float | None:
        return float(getattr(self, "window", 60))
