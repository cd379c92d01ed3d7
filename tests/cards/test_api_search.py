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
    assert len(heroes) == 6 and "Странник" in heroes
    large = _names(api_client.get("/api/cards/", {"game": "everseal", "attr.size": "L"}))
    assert len(large) == 8
    pack = _names(api_client.get("/api/cards/", {"game": "everseal", "attr.keywords": "Стая"}))
    assert set(pack) == {"Снежный Волчонок", "Мшистый Жук", "Песчаная Гиена", "Чайка-Разведчица"}
    strong = _names(
        api_client.get("/api/cards/", {"game": "yugioh", "attr.atk.min": "2500", "type": "monster"})
    )
    assert "Blue-Eyes White Dragon" in strong and "Sangan" not in strong
    synchro = _names(api_client.get("/api/cards/", {"game": "yugioh", "subtype": "synchro"}))
    assert set(synchro) == {"Junk Warrior", "Stardust Dragon"}
    images = _names(api_client.get("/api/cards/", {"game": "everseal", "subtype": "image"}))
    assert images == ["Образ Феникса"]
    red = _names(api_client.get("/api/cards/", {"game": "twindeck", "attr.back": "red"}))
    assert len(red) == 6
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
