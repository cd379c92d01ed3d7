"""With TRUSTED_PROXY_IPS, X-Forwarded-For is believed only on connections from those proxies: a client
that reaches a node directly cannot choose its own address for throttles and lockouts."""

from __future__ import annotations

from typing import Any

from django.test import RequestFactory

from config.client import client_address


def _address(remote: str, forwarded: str) -> str:
    return client_address(RequestFactory().get("/", REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded))


def test_the_header_counts_only_from_listed_proxies(settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    settings.TRUSTED_PROXY_IPS = ["10.0.0.2", "10.1.0.0/16"]
    assert _address("10.0.0.2", "198.51.100.1") == "198.51.100.1"
    assert _address("10.1.4.5", "198.51.100.1") == "198.51.100.1"
    # A direct hit on the node: its own header is ignored, its socket address is what counts.
    assert _address("203.0.113.7", "192.0.2.99") == "203.0.113.7"


def test_without_a_list_the_count_alone_decides(settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    settings.TRUSTED_PROXY_IPS = []
    assert _address("203.0.113.7", "192.0.2.99") == "192.0.2.99"
    settings.TRUSTED_PROXY_COUNT = 0
    assert _address("203.0.113.7", "192.0.2.99") == "203.0.113.7"
