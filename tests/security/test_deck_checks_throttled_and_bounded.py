"""The deck checks anyone may call are throttled per client address and per signed-in account, in the
database like the join and sign-up throttles, and a rotated X-Forwarded-For does not buy more checks; the
largest hostile list the check accepts is resolved in bounded time (it held a worker 22 s with 8 lines of
blanks when the resolver's level-suffix pattern backtracked)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

URL = "/api/decks/validate/"


def _check(client: Client, text: str = "3 Dark Magician", **headers: Any) -> Any:
    body = {"game": "yugioh", "format": "advanced", "text": text}
    return client.post(URL, body, content_type="application/json", **headers)


def test_anonymous_checks_stop_at_the_limit_per_address_whatever_the_forwarded_header(
    games, settings
) -> None:
    settings.DECK_CHECK_THROTTLE_RATE = "4/min"
    client = Client(REMOTE_ADDR="198.51.100.7")
    codes = [_check(client, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code for n in range(6)]
    assert codes == [200, 200, 200, 200, 429, 429]
    refused = _check(client)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert _check(Client(REMOTE_ADDR="198.51.100.8")).status_code == 200  # another address is not held


def test_a_signed_in_account_is_counted_across_addresses(games, settings, user) -> None:
    settings.DECK_CHECK_THROTTLE_RATE = "3/min"
    codes = []
    for n in range(5):
        client = Client(REMOTE_ADDR=f"192.0.2.{n + 1}")
        client.force_login(user)
        codes.append(_check(client).status_code)
    assert codes == [200, 200, 200, 429, 429]


def test_the_sideboard_and_team_checks_are_throttled_too(games, settings, user) -> None:
    settings.DECK_CHECK_THROTTLE_RATE = "1/min"
    client = Client(REMOTE_ADDR="198.51.100.9")
    client.force_login(user)
    for url in ("/api/decks/sideboard/", "/api/tournaments/team-check/"):
        client.post(url, {}, content_type="application/json")
        assert client.post(url, {}, content_type="application/json").status_code == 429, url


@pytest.mark.parametrize(
    "line",
    [
        "a" + " " * 497 + "b",
        " " * 240 + "(lv" + " " * 240 + "9",
        "x (" + " " * 480 + "#" * 10,
        "Sol Ring" + " /" * 240,
    ],
    ids=["blanks", "level-words", "picked-id", "faces"],
)
def test_the_largest_hostile_list_is_resolved_in_bounded_time(games, settings, line: str) -> None:
    settings.DECK_CHECK_THROTTLE_RATE = "1000/min"
    text = "\n".join([line] * (200_000 // (len(line) + 1)))
    client = Client(REMOTE_ADDR="198.51.100.10")
    start = time.process_time()
    answer = _check(client, text)
    spent = time.process_time() - start
    assert answer.status_code in (200, 400), answer.content[:300]
    # Linear patterns: ~0.1-0.5 s for 200 KB; the backtracking level suffix took ~2 s per line here.
    assert spent < 10, spent
