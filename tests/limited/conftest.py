"""Limited tests share the twin-deck sample cards (two sets, commons to rares) and a way to sign players up."""

from __future__ import annotations

from typing import Any

import pytest

from cards.demo import SAMPLES
from cards.services import cards_import


@pytest.fixture
def twindeck(games: dict[str, Any]) -> Any:
    name = "twindeck-sample.json"
    assert cards_import(game=games["twindeck"], data=(SAMPLES / name).read_bytes(), filename=name).ok
    return games["twindeck"]


def create_limited_event(client: Any, limited: dict[str, Any], **extra: Any) -> Any:
    body = {"name": "Prerelease", "game": "twindeck", "format": "limited", "deck_registration": True, **extra}
    return client.post("/api/tournaments/", {**body, "limited": limited}, format="json")


def sign_up(
    api_client_for: Any, make_user: Any, event_id: int, code: str, count: int, prefix: str = "p"
) -> list[tuple[Any, Any, int]]:
    """``count`` accounts join with the join code: (user, their API client, player id) in joining order."""
    out = []
    for i in range(count):
        user = make_user(f"{prefix}{i:02d}")
        client = api_client_for(user)
        answer = client.post("/api/tournaments/join/", {"code": code}, format="json")
        assert answer.status_code == 201, answer.content
        out.append((user, client, answer.json()["id"]))
    return out
