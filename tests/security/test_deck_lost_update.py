"""Saves carry the version they started from: a save based on an old version is refused (409) with the
deck as it is now, so two tabs can never silently undo each other's work."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from decks.models import Deck, DeckVersion


@pytest.fixture
def deck(api_client_for: Any, user: Any, games: Any) -> dict[str, Any]:
    response = api_client_for(user).post("/api/decks/", {"game": "yugioh", "name": "Base"}, format="json")
    assert response.status_code == 201
    return response.json()


@pytest.mark.parametrize("method", ["put", "patch"])
def test_a_stale_save_is_refused_with_the_current_deck(
    api_client_for: Any, user: Any, deck: dict[str, Any], method: str
) -> None:
    tab_one, tab_two = api_client_for(user), api_client_for(user)
    url = f"/api/decks/{deck['id']}/"
    first = getattr(tab_one, method)(url, {"name": "From tab one", "base_version": 1}, format="json")
    assert first.status_code == 200 and first.json()["current_version"] == 2
    second = getattr(tab_two, method)(url, {"notes": "From tab two", "base_version": 1}, format="json")
    assert second.status_code == 409
    body = second.json()
    assert body["current_version"] == 2
    assert body["deck"]["name"] == "From tab one" and body["deck"]["notes"] == ""
    assert "version 1" in body["detail"]
    stored = Deck.objects.get(pk=deck["id"])
    assert (stored.name, stored.notes, stored.current_version) == ("From tab one", "", 2)
    assert DeckVersion.objects.filter(deck=stored).count() == 2


def test_a_save_from_the_current_version_goes_through(
    api_client_for: Any, user: Any, deck: dict[str, Any]
) -> None:
    client = api_client_for(user)
    url = f"/api/decks/{deck['id']}/"
    for base in (1, 2, 3):
        response = client.patch(url, {"notes": f"edit {base}", "base_version": base}, format="json")
        assert response.status_code == 200, response.content
    assert Deck.objects.get(pk=deck["id"]).current_version == 4


@pytest.mark.django_db(transaction=True)
def test_twenty_simultaneous_saves_from_one_base_let_exactly_one_through(
    api_client_for: Any, make_user: Any, games: Any
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks across connections need PostgreSQL (the CI's PostgreSQL leg runs this)")
    owner = make_user("racer")
    created = (
        api_client_for(owner).post("/api/decks/", {"game": "yugioh", "name": "Race"}, format="json").json()
    )
    url = f"/api/decks/{created['id']}/"
    barrier = threading.Barrier(20)
    codes: list[int] = []
    lock = threading.Lock()

    def save(index: int) -> None:
        client = api_client_for(owner)
        try:
            barrier.wait()
            response = client.put(url, {"notes": f"tab {index}", "base_version": 1}, format="json")
            with lock:
                codes.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=save, args=(i,)) for i in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == [200] + [409] * 19
    stored = Deck.objects.get(pk=created["id"])
    assert stored.current_version == 2
    assert DeckVersion.objects.filter(deck=stored).count() == 2
