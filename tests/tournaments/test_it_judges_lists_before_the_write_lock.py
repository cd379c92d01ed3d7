"""No request holds the SQLite write lock while it parses or judges a list.

The venue's SQLite opens every transaction with BEGIN IMMEDIATE: the one write lock of the whole venue
is taken at the transaction's first statement. So the slow work of a registration — hashing a newcomer's
password, parsing the pasted list, resolving its names and running the rules engine — must happen before
the transaction opens. These tests watch each slow step and record whether it ran inside a transaction.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.db import connection
from django.test import Client

from tournaments.models import Player
from tournaments.printables import decklists

from .factories import make_event, ydk_text, ygo_cards, ygo_payload

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def watched() -> Iterator[list[tuple[str, bool]]]:
    """(step, ran inside a transaction) for every parse, judgement and password hash."""
    from accounts.models import User

    calls: list[tuple[str, bool]] = []

    def watch(name: str, real: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls.append((name, connection.in_atomic_block))
            return real(*args, **kwargs)

        return wrapper

    with (
        mock.patch.object(decklists, "parse_deck", watch("parse", decklists.parse_deck)),
        mock.patch.object(decklists, "validate_snapshot", watch("judge", decklists.validate_snapshot)),
        mock.patch.object(User, "set_password", watch("hash", User.set_password)),
    ):
        yield calls


def test_a_newcomer_joining_with_a_pasted_list_writes_only_after_the_slow_work(
    games: Any, organizer: Any, watched: list[tuple[str, bool]]
) -> None:
    event = make_event(organizer, games["yugioh"], deck_registration=True)
    text = ydk_text(ygo_payload(ygo_cards(games["yugioh"])))
    response = Client().post(
        f"/tournaments/join/{event.join_code}/",
        {"username": "newcomer", "password1": "Quite-long-pass-42", "password2": "Quite-long-pass-42",
         "deck_text": text},
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Player.objects.filter(tournament=event, user__username="newcomer").exclude(deck=None).exists()
    assert {name for name, _ in watched} >= {"parse", "judge", "hash"}
    assert [step for step in watched if step[1]] == []


def test_a_signed_in_player_joining_by_the_api_writes_only_after_the_judgement(
    games: Any, organizer: Any, user: Any, api_client_for: Any, watched: list[tuple[str, bool]]
) -> None:
    event = make_event(organizer, games["yugioh"], deck_registration=True)
    text = ydk_text(ygo_payload(ygo_cards(games["yugioh"])))
    response = api_client_for(user).post(
        "/api/tournaments/join/", {"code": event.join_code, "list": text}, format="json"
    )
    assert response.status_code == 201, response.content
    assert {name for name, _ in watched} >= {"parse", "judge"}
    assert [step for step in watched if step[1]] == []


def test_a_player_registering_a_list_later_writes_only_after_the_judgement(
    games: Any, organizer: Any, user: Any, watched: list[tuple[str, bool]]
) -> None:
    from tournaments import services

    event = make_event(organizer, games["yugioh"], deck_registration=True)
    player = services.player_register(tournament=event, by=user)
    watched.clear()
    client = Client()
    client.force_login(user)
    text = ydk_text(ygo_payload(ygo_cards(games["yugioh"])))
    client.post(f"/tournaments/{event.pk}/players/{player.pk}/registration/", {"deck_text": text})
    player.refresh_from_db()
    assert player.deck is not None
    assert {name for name, _ in watched} >= {"parse", "judge"}
    assert [step for step in watched if step[1]] == []
