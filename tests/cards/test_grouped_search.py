"""Card search with one row per card identity: alternate artworks are printings of one row."""

from __future__ import annotations

import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db


@pytest.fixture
def sample_cards(games):  # type: ignore[no-untyped-def]
    from cards import demo

    demo.load(io.StringIO())
    return games


def test_it_returns_one_row_per_identity_with_every_printing(sample_cards, api_client) -> None:
    response = api_client.get("/api/cards/grouped/", {"game": "yugioh", "q": "dark magician"})
    assert response.status_code == 200
    data = response.json()
    names = [row["name"] for row in data["results"]]
    assert names.count("Dark Magician") == 1
    assert data["count"] == len(data["results"])
    (row,) = [r for r in data["results"] if r["name"] == "Dark Magician"]
    # The canonical printing (the original artwork) stands for the row; both artworks are one click away.
    assert row["external_id"] == "46986414"
    assert [p["external_id"] for p in row["printings"]] == ["46986414", "46986415"]
    assert [p["canonical"] for p in row["printings"]] == [True, False]


def test_it_answers_in_a_constant_number_of_queries(sample_cards, api_client) -> None:
    with CaptureQueriesContext(connection) as few:
        api_client.get("/api/cards/grouped/", {"game": "yugioh", "page_size": "2"})
    with CaptureQueriesContext(connection) as many:
        api_client.get("/api/cards/grouped/", {"game": "yugioh", "page_size": "50"})
    assert len(few) == len(many) <= 5


def test_it_previews_cards_with_the_rule_sets_words(sample_cards, api_client) -> None:
    row = api_client.get("/api/cards/grouped/", {"game": "yugioh", "q": "dark magician"}).json()["results"][0]
    stats = {s["label"]: s["value"] for s in row["preview"]["stats"]}
    assert row["preview"]["type_line"] == "Monster — Normal"
    assert stats["ATK"] == "2500" and stats["DEF"] == "2100" and stats["Level"] == "7"
    assert stats["Attribute"] == "DARK" and stats["Monster type"] == "Spellcaster"
    russian = api_client.get(
        "/api/cards/grouped/", {"game": "yugioh", "q": "dark magician"}, HTTP_ACCEPT_LANGUAGE="ru"
    ).json()["results"][0]["preview"]
    stats_ru = {s["label"]: s["value"] for s in russian["stats"]}
    assert russian["type_line"] == "Монстр — Обычный"
    assert stats_ru["АТК"] == "2500" and stats_ru["Атрибут"] == "ТЬМА" and stats_ru["Тип монстра"] == "Колдун"


def test_it_names_an_xyz_monsters_level_its_rank(sample_cards) -> None:
    from cards.labels import card_stats
    from cards.models import Card

    xyz = next(
        c for c in Card.objects.filter(game__slug="yugioh", card_type="monster") if "xyz" in c.subtypes
    )
    labels = [row["label"] for row in card_stats(xyz)]
    assert "Rank" in labels and "Level" not in labels


@pytest.mark.parametrize("params", [{"page": "0"}, {"page_size": "500"}, {"ordering": "nope"}, {"page": "x"}])
def test_it_refuses_bad_paging_with_a_clear_400(sample_cards, api_client, params) -> None:
    response = api_client.get("/api/cards/grouped/", {"game": "yugioh", **params})
    assert response.status_code == 400
    assert response.json()["detail"]
