"""Limited tests share the twin-deck sample cards (two sets, commons to rares) and a way to sign players up."""

from __future__ import annotations

from typing import Any

import pytest

from cards.demo import SAMPLES
from cards.services import cards_import


@pytest.fixture
def magic(games: dict[str, Any]) -> Any:
    """A Magic set of 50 green creatures (30 commons, 12 uncommons, 6 rares, 2 mythics) and the five basic
    lands, which any limited deck adds beyond its pool."""
    from cards.models import CardSet, Printing
    from tests.tournaments.factories import make_card

    game = games["mtg"]
    card_set = CardSet.objects.create(game=game, code="TST", name="Test set")
    specs = [("common", 30), ("uncommon", 12), ("rare", 6), ("mythic", 2)]
    for rarity, n in specs:
        for i in range(n):
            card = make_card(game, f"{rarity} {i}", f"{rarity.title()} {i}", card_type="creature",
                             attributes={"supertypes": [], "color": ["G"]})  # fmt: skip
            Printing.objects.create(card=card, card_set=card_set, rarity=rarity, code=f"{rarity[0]}{i}")
    for name in ("Plains", "Island", "Swamp", "Mountain", "Forest"):
        card = make_card(game, name, name, card_type="land", attributes={"supertypes": ["basic"]})
        Printing.objects.create(card=card, card_set=card_set, rarity="common", code=name)
    return game


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


def draft_started(api_client_for: Any, make_user: Any, organizer: Any, players: int) -> tuple[int, list]:
    """A twin-deck sample draft (seed 3) that ``players`` accounts joined, started by the organizer:
    (event id, the players as sign_up gives them)."""
    org = api_client_for(organizer)
    created = create_limited_event(org, {"kind": "draft", "product": "td-sample", "seed": 3})
    event_id = created.json()["id"]
    joined = sign_up(api_client_for, make_user, event_id, created.json()["join_code"], players)
    org.post(f"/api/tournaments/{event_id}/draft/start/")
    return event_id, joined


@pytest.fixture
def pod(twindeck: Any, api_client_for: Any, make_user: Any, organizer: Any) -> dict[str, Any]:
    """A started 4-seat twin-deck draft whose phones each hold their own session and first draft/me answer."""
    from .draft_phones import drafting_pod

    return drafting_pod(api_client_for, make_user, organizer)
