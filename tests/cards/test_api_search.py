from __future__ import annotations

import pytest

from cards.demo import SAMPLES
from cards.services import cards_import

pytestmark = pytest.mark.django_db


@pytest.fixture
def samples(games):
    for slug, name in [
        ("everseal", "everseal-sample.json"),
        ("yugioh", "yugioh-sample.json"),
        ("twindeck", "twindeck-sample.json"),
    ]:
        assert cards_import(game=games[slug], data=(SAMPLES / name).read_bytes(), filename=name).ok
    return games


def _names(response):
    assert response.status_code == 200, response.content
    return [card["name"] for card in response.json()["results"]]


def test_it_finds_cyrillic_names_case_insensitively(api_client, samples):
    assert _names(api_client.get("/api/cards/", {"game": "everseal", "q": "дракон"})) == [
        "Изумрудный Дракон",
        "Метельный Дракон",
        "Пепельный Дракон",
    ]
    assert (
        _names(api_client.get("/api/cards/", {"game": "everseal", "q": "ДРАКОН"}))[0] == "Изумрудный Дракон"
    )


def test_it_finds_latin_names_and_passcodes(api_client, samples):
    assert set(_names(api_client.get("/api/cards/", {"game": "yugioh", "q": "DARK magician"}))) == {
        "Dark Magician",
        "Dark Magician Girl",
    }
    assert _names(api_client.get("/api/cards/", {"game": "yugioh", "q": "55144522"})) == ["Pot of Greed"]


def test_it_filters_on_type_subtype_and_attributes(api_client, samples):
    heroes = _names(api_client.get("/api/cards/", {"game": "everseal", "type": "hero"}))
    assert len(heroes) == 8 and "Странник" in heroes
    large = _names(api_client.get("/api/cards/", {"game": "everseal", "attr.size": "L"}))
    assert len(large) == 9
    pack = _names(api_client.get("/api/cards/", {"game": "everseal", "attr.keywords": "Стая"}))
    assert set(pack) == {
        "Снежный Волчонок",
        "Мшистый Жук",
        "Песчаная Гиена",
        "Чайка-Разведчица",
        "Снежная Рысь",
        "Пустынный Лис",
    }
    strong = _names(
        api_client.get("/api/cards/", {"game": "yugioh", "attr.atk.min": "2500", "type": "monster"})
    )
    assert "Blue-Eyes White Dragon" in strong and "Sangan" not in strong
    synchro = _names(api_client.get("/api/cards/", {"game": "yugioh", "subtype": "synchro"}))
    assert set(synchro) == {"Junk Warrior", "Stardust Dragon"}
    images = _names(api_client.get("/api/cards/", {"game": "everseal", "subtype": "image"}))
    assert images == ["Образ Феникса"]
    red = _names(api_client.get("/api/cards/", {"game": "twindeck", "attr.back": "red"}))
    assert len(red) == 12
    tier = _names(api_client.get("/api/cards/", {"game": "twindeck", "attr.weapon_type": "7"}))
    assert tier == ["Короткий Лук"]


def test_it_paginates_and_orders(api_client, samples):
    first = api_client.get("/api/cards/", {"game": "yugioh", "page_size": 10, "ordering": "name"}).json()
    assert first["count"] == 53 and len(first["results"]) == 10 and first["next"]
    names = [c["name"] for c in first["results"]]
    assert names == sorted(names, key=str.casefold)
    second = api_client.get(first["next"]).json()
    assert not {c["id"] for c in second["results"]} & {c["id"] for c in first["results"]}
    by_level = api_client.get(
        "/api/cards/", {"game": "yugioh", "type": "monster", "ordering": "-level"}
    ).json()
    assert by_level["results"][0]["name"] == "Blue-Eyes Ultimate Dragon"


def test_it_explains_bad_filters(api_client, samples):
    response = api_client.get("/api/cards/", {"attr.bad key": "x"})
    assert response.status_code == 400 and "attribute name" in str(response.json())
    response = api_client.get("/api/cards/", {"level_min": "high"})
    assert response.status_code == 400 and "level_min" in str(response.json())
    assert api_client.get("/api/cards/", {"ordering": "secret"}).status_code == 400


def test_it_shows_card_detail_with_printings(api_client, samples):
    card = api_client.get("/api/cards/", {"game": "everseal", "q": "странник"}).json()["results"][0]
    detail = api_client.get(f"/api/cards/{card['id']}/").json()
    assert detail["printings"][0]["set_name"] == "Sample set (not official)"
    assert detail["attributes"]["restrictions"] == []
    assert api_client.get("/api/cards/999999/").status_code == 404


def test_every_ordering_is_total_and_pages_do_not_overlap(api_client, samples):
    """Ties (two "Dark Magician" printings, equal levels) are broken by a stable key, so paging through
    any ordering returns every card exactly once."""
    for ordering in ("name", "-name", "level", "-level", "cost", "-cost", "type", "external_id", "updated"):
        seen: list[int] = []
        url, params = "/api/cards/", {"game": "yugioh", "page_size": 7, "ordering": ordering}
        while url:
            body = api_client.get(url, params).json()
            seen += [card["id"] for card in body["results"]]
            url, params = body["next"], None
        assert len(seen) == len(set(seen)) == 53, ordering
    names = _names(
        api_client.get("/api/cards/", {"game": "yugioh", "q": "dark magician", "ordering": "-name"})
    )
    assert names == ["Dark Magician Girl", "Dark Magician", "Dark Magician"]
    dm = api_client.get("/api/cards/", {"game": "yugioh", "q": "dark magician", "ordering": "name"}).json()
    assert [c["external_id"] for c in dm["results"][:2]] == ["46986414", "46986415"]


def test_pagination_caps_the_page_size_and_explains_a_missing_page(api_client, games):
    from tests.cards.conftest import deckhall_json, es_card

    many = deckhall_json([es_card(f"c{i:03}", f"Карта {i:03}") for i in range(250)])
    assert cards_import(game=games["everseal"], data=many, filename="many.json").ok
    body = api_client.get("/api/cards/", {"game": "everseal", "page_size": 10_000}).json()
    assert body["count"] == 250 and len(body["results"]) == 200 and body["next"]
    assert body["results"][0]["name"] == "Карта 000" and body["results"][-1]["name"] == "Карта 199"
    response = api_client.get("/api/cards/", {"game": "everseal", "page": 99})
    assert response.status_code == 404 and "Invalid page" in response.json()["detail"]
