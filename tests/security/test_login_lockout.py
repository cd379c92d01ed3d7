"""Password guessing is limited on every log-in path, by trusted client address, without letting an
attacker lock other people out."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from config.throttles import ClientScopedRateThrottle

PASSWORD = "s3cret-Pass!"


@pytest.fixture(autouse=True)
def _fresh_counters(settings: Any) -> Any:
    cache.clear()
    settings.LOGIN_MAX_FAILURES = 3
    settings.LOGIN_ADDRESS_MAX_FAILURES = 8
    yield
    cache.clear()


def _token(address: str, username: str, password: str, **extra: Any) -> Any:
    return APIClient().post(
        "/api/auth/token/", {"username": username, "password": password}, format="json",
        REMOTE_ADDR=address, **extra,
    )  # fmt: skip


def _page_login(address: str, username: str, password: str) -> Any:
    client = Client(REMOTE_ADDR=address)
    response = client.post("/accounts/login/", {"username": username, "password": password})
    response.client_user = client.get("/").wsgi_request.user
    return response


def test_it_refuses_a_token_for_an_account_locked_out_on_the_log_in_page(user: Any) -> None:
    for attempt in range(3):
        assert _page_login("198.51.100.1", "alice", f"guess{attempt}").status_code == 200
    refused = _token("198.51.100.1", "alice", PASSWORD)
    assert refused.status_code == 429
    assert "token" not in refused.json()


def test_it_locks_the_log_in_page_after_failures_on_the_token_endpoint(user: Any) -> None:
    for attempt in range(3):
        assert _token("198.51.100.1", "alice", f"guess{attempt}").status_code == 401
    refused = _page_login("198.51.100.1", "alice", PASSWORD)
    assert refused.status_code == 429
    assert not refused.client_user.is_authenticated


def test_it_locks_the_admin_log_in_too(make_user: Any) -> None:
    admin = make_user("root")
    admin.is_staff = True
    admin.save(update_fields=["is_staff"])
    for attempt in range(3):
        _token("198.51.100.1", "root", f"guess{attempt}")
    client = Client(REMOTE_ADDR="198.51.100.1")
    client.post("/admin/login/?next=/admin/", {"username": "root", "password": PASSWORD})
    assert not client.get("/admin/").wsgi_request.user.is_authenticated


def test_an_attacker_cannot_lock_the_owner_out_from_another_address(user: Any) -> None:
    for attempt in range(20):
        _token("198.51.100.1", "alice", f"guess{attempt}")
        _page_login("198.51.100.1", "alice", f"guess{attempt}")
    assert _token("198.51.100.1", "alice", PASSWORD).status_code == 429
    assert _token("203.0.113.9", "alice", PASSWORD).status_code == 200
    owner = _page_login("203.0.113.9", "alice", PASSWORD)
    assert owner.status_code == 302 and owner.client_user.is_authenticated


def test_it_stops_one_address_spraying_many_accounts(make_user: Any) -> None:
    make_user("victim")
    # One guess at each of eight accounts stays under the per-account limit ...
    codes = [_token("198.51.100.1", f"user{i}", "Password1").status_code for i in range(8)]
    assert codes == [401] * 8
    # ... but the address as a whole is now refused, even for an account it never tried.
    assert _token("198.51.100.1", "victim", PASSWORD).status_code == 429
    assert _token("203.0.113.9", "victim", PASSWORD).status_code == 200


def test_behind_a_proxy_one_client_does_not_lock_out_the_others(user: Any, settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = "10.0.0.2"
    for attempt in range(10):
        _token(proxy, "alice", f"guess{attempt}", HTTP_X_FORWARDED_FOR="198.51.100.1")
    assert _token(proxy, "alice", PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.1").status_code == 429
    assert _token(proxy, "alice", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 200


def test_a_client_cannot_escape_the_lockout_by_forging_x_forwarded_for(user: Any, settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = "10.0.0.2"
    for attempt in range(10):
        # The attacker writes its own entry first; the proxy appends the address it really saw.
        forged = f"192.0.2.{attempt}, 198.51.100.1"
        _token(proxy, "alice", f"guess{attempt}", HTTP_X_FORWARDED_FOR=forged)
    assert (
        _token(proxy, "alice", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.99, 198.51.100.1").status_code == 429
    )


@pytest.mark.parametrize("proxies", [0, 1])
def test_a_rotated_x_forwarded_for_does_not_bypass_the_token_throttle(
    user: Any, settings: Any, monkeypatch: pytest.MonkeyPatch, proxies: int
) -> None:
    settings.TRUSTED_PROXY_COUNT = proxies
    settings.LOGIN_MAX_FAILURES = 1_000
    settings.LOGIN_ADDRESS_MAX_FAILURES = 1_000
    monkeypatch.setattr(ClientScopedRateThrottle, "THROTTLE_RATES", {"auth": "5/min"})
    codes = [
        _token(
            "198.51.100.1", "alice", f"guess{i}", HTTP_X_FORWARDED_FOR=f"192.0.2.{i}, 198.51.100.1"
        ).status_code
        for i in range(8)
    ]
    assert codes == [401] * 5 + [429] * 3


def test_ipv6_clients_are_counted_per_64_network(user: Any) -> None:
    for attempt in range(3):
        _token(f"2001:db8:1:2::{attempt + 1:x}", "alice", f"guess{attempt}")
    assert _token("2001:db8:1:2::ffff", "alice", PASSWORD).status_code == 429
    assert _token("2001:db8:1:3::1", "alice", PASSWORD).status_code == 200
