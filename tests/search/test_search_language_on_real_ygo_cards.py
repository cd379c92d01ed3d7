"""Queries in the search language over the full shared Yu-Gi-Oh! .cdb come back with exactly the cards a
direct reading of the community file gives (names, rules text, ATK/DEF, levels, attributes, races,
negation, or, legality against a real lflist), through GET /api/cards/ and /api/cards/grouped/."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db

MONSTER, SPELL, TRAP, LINK, TUNER = 0x1, 0x2, 0x4, 0x4000000, 0x1000  # LINK monsters have no DEF
RACE_DRAGON, ATTR_DARK, ATTR_LIGHT = 0x2000, 0x20, 0x10


def plain(text: str) -> str:
    """Lower case, every run of non-letters one space: the way a player reads a name (independent of the
    code under test)."""
    return " ".join(re.sub(r"[\W_]+", " ", text.lower()).split())


@pytest.fixture
def ygo(shared_data: Path, games):  # type: ignore[no-untyped-def]
    from cards.services import cards_import

    cdb = shared_data / "ygo" / "cdb" / "cards-2020-03-30.cdb"
    result = cards_import(game=games["yugioh"], data=cdb.read_bytes(), filename=cdb.name)
    assert result.ok, result.errors[:5]
    connection = sqlite3.connect(f"file:{cdb}?mode=ro", uri=True)
    rows = connection.execute(
        "SELECT d.id, t.name, t.desc, d.type, d.atk, d.def, d.level, d.race, d.attribute, d.alias FROM datas d "
        "JOIN texts t ON t.id = d.id"
    ).fetchall()
    connection.close()
    return games["yugioh"], rows


def ids(client, q: str, **params: str) -> set[str]:  # type: ignore[no-untyped-def]
    found: set[str] = set()
    page = 1
    while True:
        response = client.get(
            "/api/cards/", {"game": "yugioh", "q": q, "page_size": 200, "page": page, **params}
        )
        assert response.status_code == 200, response.content[:300]
        data = response.json()
        found |= {card["external_id"] for card in data["results"]}
        if not data["next"]:
            return found
        page += 1


def test_it_answers_every_query_kind_as_the_cdb_reads(client, ygo) -> None:  # type: ignore[no-untyped-def]
    _game, rows = ygo
    buildable = [r for r in rows if r[3] & (MONSTER | SPELL | TRAP)]

    def expect(pred) -> set[str]:  # type: ignore[no-untyped-def]
        return {str(r[0]) for r in buildable if pred(r)}

    blue_eyes = {str(r[0]) for r in rows if "blue" in plain(r[1]) and "eyes" in plain(r[1])}
    assert len(blue_eyes) > 10
    assert ids(client, "blue eyes") == blue_eyes
    assert ids(client, "EYES blue-") == blue_eyes  # any order, case and hyphens ignored
    assert ids(client, "t:dragon atk>=3000") == expect(
        lambda r: r[3] & MONSTER and r[7] & RACE_DRAGON and r[4] >= 3000
    )
    assert ids(client, 'o:"destroy all monsters"') == {
        str(r[0]) for r in rows if "destroy all monsters" in plain(r[2])
    }
    assert ids(client, "attribute:dark lv=4 def<=1000") == expect(
        lambda r: (
            r[3] & MONSTER
            and not r[3] & LINK
            and r[8] == ATTR_DARK
            and r[6] & 0xFF == 4
            and 0 <= r[5] <= 1000
        )
    )
    assert ids(client, "t:dragon (attribute:light or attribute:dark) -atk>=2000 lv>=7") == expect(
        lambda r: r[3] & MONSTER and r[7] & RACE_DRAGON and r[8] in (ATTR_DARK, ATTR_LIGHT)
        and not r[4] >= 2000 and r[6] & 0xFF >= 7
    )  # fmt: skip
    assert ids(client, "t:spell or t:trap") == expect(lambda r: r[3] & (SPELL | TRAP))
    assert ids(client, '!"dark magician"') == {str(r[0]) for r in rows if r[1] == "Dark Magician"}
    assert ids(client, "st:tuner lv<=2 atk>=1000") == expect(
        lambda r: r[3] & MONSTER and r[3] & TUNER and r[6] & 0xFF <= 2 and r[4] >= 1000
    )
    assert ids(client, 'blue eyes -o:"fusion"') == {
        i for i in blue_eyes if "fusion" not in plain(next(r[2] for r in rows if str(r[0]) == i))
    }


def test_it_reads_legality_from_the_ban_list_in_force(client, ygo, shared_data: Path) -> None:  # type: ignore[no-untyped-def]
    from rules.services import banlist_import

    game, rows = ygo
    path = shared_data / "ygo" / "lflist" / "TCG_2020.04.lflist.conf"
    banlist_import(game=game, text=path.read_text(encoding="utf-8"), source=path.name)
    forbidden = {
        line.split()[0] for line in path.read_text(encoding="utf-8").splitlines()
        if re.match(r"^\d+ 0\b", line)
    }  # fmt: skip
    # An alternate artwork (its alias passcode listed) is as banned as the original.
    expected = {str(r[0]) for r in rows if str(r[0]) in forbidden or str(r[9]) in forbidden}
    assert len(expected) > 50
    assert ids(client, "banned:tcg", date="2020-06-01") == expected
    assert ids(client, "banned:", date="2020-06-01") == expected  # the game's first format reads TCG lists
    assert not ids(client, "banned:tcg", date="2019-01-01")  # no list in force yet
    response = client.get(
        "/api/cards/", {"game": "yugioh", "q": "t:dragon atk>=3000 -banned:", "date": "2020-06-01"}
    )
    data = response.json()
    assert "ATK ≥ 3000" in data["explain"] and "not banned" in data["explain"]


def test_it_points_at_the_broken_token(client, ygo) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/api/cards/", {"game": "yugioh", "q": "t:dragon akt>=3000"})
    assert response.status_code == 400
    message = response.json()["q"][0]
    assert "akt" in message and "10" in message and "atk:" in message
    response = client.get("/api/cards/grouped/", {"game": "yugioh", "q": 'o:"unclosed'})
    assert response.status_code == 400 and "character 3" in response.json()["q"][0]
    response = client.get("/api/cards/", {"game": "yugioh", "q": "blue eyez white"})
    assert response.status_code == 200 and response.json()["count"] == 0
    assert "blue eyes white" in response.json()["suggestions"]
    response = client.get("/api/cards/", {"game": "yugioh", "q": "t:dragon"}, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.json()["explain"].startswith("Тип")


def test_the_index_answers_as_the_plain_evaluator_does(ygo) -> None:  # type: ignore[no-untyped-def]
    """Posting lists, sorted numbers and the corpus are shortcuts: every answer equals testing each card
    with the evaluator's own predicate (the one FILTER uses)."""
    from cards.models import Game
    from cards.search import game_index
    from cardsearch import parse
    from cardsearch.evaluate import Context, compile_query

    game = Game.objects.get(slug="yugioh")
    index = game_index(game)
    queries = [
        "t:dragon atk>=3000", "attribute:dark -lv<5", "race:spellcaster or race:fairy def=0", "atk>2500 atk<=3000",
        "t:spell -t:continuous", "dragon -blue", 'o:"special summon" t:tuner', "st:xyz lv:4", "atk!=0 t:link",
        "magician (attribute:light or attribute:dark) def>=2000", "o:/destroy (all|every)/", "attribute!=water lv=1",
        'o:"destroy all monsters"', 'o:"l monsters you"', 'o:"ster"', "o:draw o:card -o:\"draw 1 card\"",
        '!"dark magician"', 'name:"eyes white"', "name=kuriboh", "ye bl", "-o:the", "t:dragon (eyes or magician)",
    ]  # fmt: skip
    for q in queries:
        node = parse(q)
        test = compile_query(node, index.table, Context())
        expected = [i for i, row in enumerate(index.rows) if test(row)]
        assert index.search(node, Context()) == expected, q
        assert expected, q
        assert len(expected) < len(index.rows), q


def test_banned_without_a_format_reads_the_format_the_page_names(client, ygo, shared_data: Path) -> None:  # type: ignore[no-untyped-def]
    """The builder sends its deck's format: `banned:` then reads that format's list, as its badges do."""
    from rules.services import banlist_import

    game, _rows = ygo
    for name in ("TCG_2020.04.lflist.conf", "GOAT_2005.4.lflist.conf"):
        path = shared_data / "ygo" / "lflist" / name
        banlist_import(game=game, text=path.read_text(encoding="utf-8"), source=path.name)
    tcg = ids(client, "banned:", date="2020-06-01")
    assert ids(client, "banned:", date="2020-06-01", format_slug="advanced") == tcg
    assert ids(client, "banned:goat", date="2020-06-01") != tcg
    response = client.get("/api/cards/", {"game": "yugioh", "q": "banned:", "format_slug": "nope"})
    assert response.status_code == 400 and "nope" in response.json()["q"][0]
