"""The search language on the pages: the card browser explains a query and points at a broken token, each
game's help page lists the fields the parser reads (from the same table as /api/games/<slug>/search-fields/),
in English and Russian; Cyrillic names and diacritics fold like Latin ones."""

from __future__ import annotations

import pytest

from cards.models import Card

pytestmark = pytest.mark.django_db


def card(game, external_id: str, name: str, **values) -> Card:  # type: ignore[no-untyped-def]
    return Card.objects.create(
        game=game,
        external_id=external_id,
        identity=external_id,
        name=name,
        search_name=name.casefold(),
        **values,
    )


@pytest.fixture
def cards(games):  # type: ignore[no-untyped-def]
    ygo, mtg, everseal = games["yugioh"], games["mtg"], games["everseal"]
    card(ygo, "89631139", "Blue-Eyes White Dragon", card_type="monster", subtypes=["normal"], level=8,
         attributes={"attribute": "LIGHT", "race": "Dragon", "atk": 3000, "def": 2500})  # fmt: skip
    card(ygo, "46986414", "Dark Magician", card_type="monster", subtypes=["normal"], level=7,
         attributes={"attribute": "DARK", "race": "Spellcaster", "atk": 2500, "def": 2100})  # fmt: skip
    card(ygo, "53129443", "Dark Hole", card_type="spell", text="Destroy all monsters on the field.")
    card(ygo, "84013237", "Number 39: Utopia", card_type="monster", subtypes=["xyz"], level=4,
         attributes={"attribute": "LIGHT", "race": "Warrior", "atk": 2500, "def": 2000})  # fmt: skip
    card(mtg, "Lim-Dûl the Necromancer", "Lim-Dûl the Necromancer", card_type="creature", cost=7,
         subtypes=["human", "wizard"], attributes={"color": "B", "power": 4, "toughness": 4, "supertypes": ["legendary"]})  # fmt: skip
    card(mtg, "Lightning Bolt", "Lightning Bolt", card_type="instant", cost=1, attributes={"color": "R"},
         text="Lightning Bolt deals 3 damage to any target.")  # fmt: skip
    card(everseal, "es-007", "Снежный Волчонок", card_type="monster", attributes={"size": "S", "atk": 2})
    return games


def api(client, game: str, q: str, **headers: str):  # type: ignore[no-untyped-def]
    return client.get("/api/cards/", {"game": game, "q": q}, **headers)


def test_it_folds_names_in_any_script_and_reads_game_fields(client, cards) -> None:  # type: ignore[no-untyped-def]
    def names(game: str, q: str) -> set[str]:
        response = api(client, game, q)
        assert response.status_code == 200, response.content
        return {c["name"] for c in response.json()["results"]}

    assert names("mtg", "lim") == {"Lim-Dûl the Necromancer"}
    assert names("mtg", "dul LIM") == {"Lim-Dûl the Necromancer"}
    assert names("mtg", "t:legendary c:b mv>=7 pow=4") == {"Lim-Dûl the Necromancer"}
    assert names("mtg", "t:wizard or o:damage") == {"Lim-Dûl the Necromancer", "Lightning Bolt"}
    assert names("mtg", '!"lightning bolt"') == {"Lightning Bolt"}
    assert names("mtg", "o:/deals \\d damage/") == {"Lightning Bolt"}
    assert names("everseal", "волчонок снежный") == {"Снежный Волчонок"}
    assert names("everseal", "ВОЛЧОНОК размер:s атака>=2") == {"Снежный Волчонок"}
    assert names("yugioh", "t:dragon atk>=3000") == {"Blue-Eyes White Dragon"}
    assert names("yugioh", "t:spellcaster -attribute:light") == {"Dark Magician"}
    assert names("yugioh", "dark -t:spell") == {"Dark Magician"}
    assert names("yugioh", "89631139") == {"Blue-Eyes White Dragon"}  # a passcode typed whole
    # A colon in a name is no field: "39" and "utopia:" are no keywords of the game.
    assert names("yugioh", "Number 39: Utopia") == {"Number 39: Utopia"}
    assert names("yugioh", "utopia: lv=4") == {"Number 39: Utopia"}


def test_api_refuses_a_broken_query_naming_the_token_in_the_readers_language(client, cards) -> None:  # type: ignore[no-untyped-def]
    response = api(client, "yugioh", "atk>=x", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 400
    assert "«x»" in response.json()["q"][0] or "“x”" in response.json()["q"][0]
    assert "символ" in response.json()["q"][0]
    for q in ["(dark", "dark)", "o:/(a/", 'o:"x', "- dark", "dark or", "colour:x", "o:/" + "a" * 300 + "/"]:
        response = api(client, "yugioh", q)
        assert response.status_code == 400, q
        assert response.json()["q"][0]


def test_search_fields_endpoint_and_help_page_come_from_one_table(client, cards) -> None:  # type: ignore[no-untyped-def]
    data = client.get("/api/games/yugioh/search-fields/").json()
    by_name = {f["field"]: f for f in data["fields"]}
    assert by_name["atk"]["kind"] == "number" and "атк" in by_name["atk"]["aliases"]
    assert "t" in by_name["type"]["aliases"] and ">=" in by_name["level"]["operators"]
    assert client.get("/api/games/nope/search-fields/").status_code == 404
    page = client.get("/cards/search-help/yugioh/").content.decode()
    for f in data["fields"]:
        assert f'data-field="{f["field"]}"' in page
    assert "t:dragon atk&gt;=3000 -banned:" in page
    mtg = client.get("/api/games/mtg/search-fields/", HTTP_ACCEPT_LANGUAGE="ru").json()
    assert {f["field"]: f["label"] for f in mtg["fields"]}["coloridentity"] == "Цветовая идентичность"
    ru = client.get("/cards/search-help/mtg/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Поля" in ru and "Цветовая идентичность" in ru


def test_card_browser_explains_the_query_and_suggests(client, cards) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/cards/", {"game": "yugioh", "q": "t:dragon atk>=3000"}).content.decode()
    assert (
        'data-testid="search-explain"' in page and "ATK ≥ 3000" in page and "Blue-Eyes White Dragon" in page
    )
    page = client.get("/cards/", {"game": "yugioh", "q": "destroy all monsters"}).content.decode()
    assert "o:&quot;destroy all monsters&quot;" in page  # nothing by name: the same words in rules text
    page = client.get("/cards/", {"game": "yugioh", "q": "akt>1"}, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-testid="search-error"' in page and "atk:" in page


def test_a_player_saves_searches_and_a_default_part(client, cards, user) -> None:  # type: ignore[no-untyped-def]
    client.force_login(user)
    response = client.post("/cards/searches/", {"game": "yugioh", "name": "bad", "q": "akt>1"})
    assert response.status_code == 400 and "akt" in response.content.decode()
    response = client.post(
        "/cards/searches/", {"game": "yugioh", "name": "no spells", "q": "-t:spell", "is_default": "on"}
    )
    assert response.status_code == 302
    data = client.get("/api/cards/grouped/", {"game": "yugioh", "q": "dark"}).json()
    assert {row["name"] for row in data["results"]} == {"Dark Magician"}, data["explain"]
    assert "Spell" in data["explain"] or "spell" in data["explain"]
    data = client.get("/api/cards/grouped/", {"game": "yugioh", "q": "dark", "default": "0"}).json()
    assert {row["name"] for row in data["results"]} == {"Dark Magician", "Dark Hole"}
    page = client.get("/cards/", {"game": "yugioh", "q": "dark"}).content.decode()
    assert 'data-testid="search-default"' in page and "Dark Hole" not in page
    page = client.get("/cards/searches/").content.decode()
    assert "no spells" in page and "-t:spell" in page
    client.logout()
    data = client.get("/api/cards/grouped/", {"game": "yugioh", "q": "dark"}).json()
    assert data["count"] == 2  # another visitor's searches are theirs alone


def test_the_deck_page_marks_the_lines_a_query_matches(client, cards, user) -> None:  # type: ignore[no-untyped-def]
    from tests.tournaments.factories import make_deck

    deck = make_deck(user, cards["yugioh"], {"sections": {"main": [
        {"card": "89631139", "count": 3}, {"card": "46986414", "count": 2}, {"card": "53129443", "count": 1},
    ]}})  # fmt: skip
    client.force_login(user)
    page = client.get(f"/decks/{deck.pk}/", {"q": "t:monster atk>=2500 -t:dragon"}).content.decode()
    assert page.count('data-testid="search-match"') == 1
    assert "2 cards match" in page and "ATK ≥ 2500" in page
    page = client.get(f"/decks/{deck.pk}/", {"q": "o:destroy or atk=3000"}).content.decode()
    assert page.count('data-testid="search-match"') == 2 and "4 cards match" in page
    page = client.get(f"/decks/{deck.pk}/", {"q": "atk>>1"}, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-testid="deck-search-error"' in page and "символе" in page


@pytest.mark.parametrize("value", ["", "20260105", "2026-1-5", "tomorrow", "2026-02-30"])
def test_a_date_the_schema_does_not_admit_is_refused_by_name(client, cards, value) -> None:  # type: ignore[no-untyped-def]
    """The schema gives ``date`` as format: date; an empty or other spelling was read as "today"."""
    for path in ("/api/cards/", "/api/cards/grouped/"):
        answer = client.get(path, {"game": "yugioh", "q": "t:dragon -banned:", "date": value})
        assert answer.status_code == 400, (path, value, answer.content[:200])
        assert "YYYY-MM-DD" in answer.content.decode()


def test_a_real_date_reads_the_ban_lists_of_that_day(client, cards) -> None:  # type: ignore[no-untyped-def]
    answer = client.get("/api/cards/", {"game": "yugioh", "q": "blue eyes", "date": "2026-01-05"})
    assert answer.status_code == 200
    assert [row["name"] for row in answer.json()["results"]] == ["Blue-Eyes White Dragon"]
