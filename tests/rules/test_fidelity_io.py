"""Through the CLI and the API: pools for limited decks, refused swaps unchanged, too many heroes,
and rules judged by the version in force on a date.

Rule texts: g001 1.5.2 (limited: the additional set is every card received at the event), g001 3.8 (any
number of swaps after a game), g001 1.1.2 / 1.2.2 (limited: 12+ creatures, 30+ main); everseal.ru.txt
"Дополнительно к колоде идёт карта Героя" (one Hero), and its changelog "Последние изменения: 28.09.25 —
Лимит количества карт в колоде был изменен с 30 до 40" (exactly 30 before, 30–40 from 28.09.25).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import run_validate_deck

pytestmark = pytest.mark.django_db


run = run_validate_deck


def _card(game: Any, ext: str, name: str, kind: str, **attributes: Any) -> Any:
    from cards.models import Card

    return Card.objects.create(
        game=game, external_id=ext, identity=ext, name=name, search_name=name.casefold(), card_type=kind,
        attributes=attributes,
    )  # fmt: skip


@pytest.fixture
def twin(games: dict[str, Any]) -> Any:
    game = games["twindeck"]
    for i in range(20):
        _card(game, f"r{i}", f"Goblin {i}", "creature", back="red")
    for i in range(40):
        _card(game, f"b{i}", f"Sword {i}", "weapon", back="blue")
    return game


@pytest.fixture
def everseal(games: dict[str, Any]) -> Any:
    game = games["everseal"]
    for i in range(14):
        _card(game, f"m{i}", f"Wolf {i}", "monster", size="S")
    _card(game, "h1", "Aria", "hero", restrictions=[{"kind": "forbid", "filter": {"size": "L"}}])
    _card(game, "h2", "Boris", "hero", restrictions=[{"kind": "forbid", "filter": {"size": "L"}}])
    return game


def limited_text(creatures: range, main: range, pool: bool) -> str:
    out = ["Creatures"] + [f"1 Goblin {i}" for i in creatures] + ["Main"] + [f"1 Sword {i}" for i in main]
    if pool:
        out += ["Pool"] + [f"1 Goblin {i}" for i in range(20)] + [f"1 Sword {i}" for i in range(40)]
    return "\n".join(out) + "\n"


def test_validate_deck_reads_a_pool_section_as_the_pool_not_as_a_deck_section(twin, tmp_path: Path):
    """g001 1.5.2: a limited deck is judged against the registered pool; decks/README.md lists `pool` as a
    section slug of deck files — it is not counted or reported as a deck section."""
    f = tmp_path / "limited.txt"
    f.write_text(limited_text(range(12), range(30), pool=True), encoding="utf-8")
    code, out, err = run("--game", "twindeck", "--format", "limited", "--json", str(f))
    report = json.loads(out)
    assert (code, report["violations"]) == (0, []), (out, err)


def test_validate_deck_takes_the_pool_from_a_file(twin, tmp_path: Path):
    """g001 1.5.2: the pool is every card received; a deck card outside it is `not_in_pool`."""
    deck, pool = tmp_path / "deck.txt", tmp_path / "pool.txt"
    deck.write_text(limited_text(range(12), range(30), pool=False), encoding="utf-8")
    pool.write_text("\n".join(f"1 Goblin {i}" for i in range(12)) + "\n"
                    + "\n".join(f"1 Sword {i}" for i in range(29)) + "\n", encoding="utf-8")  # fmt: skip
    code, out, _ = run("--game", "twindeck", "--format", "limited", "--pool", str(pool), "--json", str(deck))
    report = json.loads(out)
    assert code == 1
    assert [(v["code"], v["card"]) for v in report["violations"]] == [("not_in_pool", "Sword 29")]
    # Without any pool the deck cannot be judged legal.
    code, out, _ = run("--game", "twindeck", "--format", "limited", "--json", str(deck))
    assert code == 1 and [v["code"] for v in json.loads(out)["violations"]] == ["not_in_pool"]


def test_two_heroes_are_too_many_heroes_not_unknown_cards(everseal, tmp_path: Path):
    """everseal.ru.txt: «Дополнительно к колоде идёт карта Героя» — one Hero; two known heroes are a
    hero-count violation, in English and Russian, and no `unknown_card` or `hero_missing`."""
    f = tmp_path / "two.txt"
    f.write_text(
        "Hero: Aria\nHero: Boris\nMain\n" + "".join(f"3 Wolf {i}\n" for i in range(10)), encoding="utf-8"
    )
    code, out, _ = run("--game", "everseal", "--format", "standard", "--json", str(f))
    report = json.loads(out)
    assert code == 1
    assert [v["code"] for v in report["violations"]] == ["hero_count"]
    v = report["violations"][0]
    assert (v["count"], v["limit"]) == (2, 1) and "Aria" in v["message"] and "Boris" in v["message"]
    assert "exactly one" in v["message"]
    _, out_ru, _ = run("--game", "everseal", "--format", "standard", "--json", "--lang", "ru", str(f))
    assert "ровно одна" in json.loads(out_ru)["violations"][0]["message"]


def test_the_same_hero_twice_is_too_many_heroes_and_not_missing(everseal, tmp_path: Path):
    """everseal.ru.txt: one Hero card; "2 Aria" in the hero slot is one hero too many, not none."""
    f = tmp_path / "twice.txt"
    f.write_text("Hero\n2 Aria\nMain\n" + "".join(f"3 Wolf {i}\n" for i in range(10)), encoding="utf-8")
    code, out, _ = run("--game", "everseal", "--format", "standard", "--json", str(f))
    codes = [v["code"] for v in json.loads(out)["violations"]]
    assert code == 1 and codes == ["hero_count"]


def test_an_unknown_hero_is_still_an_unknown_card(everseal, tmp_path: Path):
    """`unknown_card` is kept for cards the database does not know."""
    f = tmp_path / "ghost.txt"
    f.write_text("Hero: Ghost\nMain\n" + "".join(f"3 Wolf {i}\n" for i in range(10)), encoding="utf-8")
    _, out, _ = run("--game", "everseal", "--format", "standard", "--json", str(f))
    assert "unknown_card" in [v["code"] for v in json.loads(out)["violations"]]


def everseal_text(n: int) -> str:
    rows, left, i = [], n, 0
    while left:
        take = min(3, left)
        rows.append(f"{take} Wolf {i}")
        left, i = left - take, i + 1
    return "Hero: Aria\nMain\n" + "\n".join(rows) + "\n"


@pytest.mark.parametrize(
    ("size", "on", "legal", "version"),
    [
        (35, "2025-09-01", False, "before 2025-09-28"),
        (30, "2025-09-01", True, "before 2025-09-28"),
        (35, "2025-09-28", True, "2025-09-28"),
        (30, "2025-10-15", True, "2025-09-28"),
    ],
)
def test_validate_deck_uses_the_rules_in_force_on_the_date(
    everseal, tmp_path: Path, size, on, legal, version
):
    """everseal.ru.txt changelog 28.09.25: exactly 30 cards before, 30–40 from then; the report names the
    version it used."""
    f = tmp_path / "deck.txt"
    f.write_text(everseal_text(size), encoding="utf-8")
    code, out, _ = run("--game", "everseal", "--format", "standard", "--date", on, "--json", str(f))
    report = json.loads(out)
    assert (code == 0) is legal, report
    assert report["rules"]["version"] == version
    _, text, _ = run("--game", "everseal", "--format", "standard", "--date", on, str(f))
    assert f"everseal/standard {version}" in text


def test_the_validate_api_judges_by_the_date_and_names_the_version(everseal, api_client):
    """everseal.ru.txt changelog 28.09.25 through POST /api/decks/validate/ `date`."""
    body = {"game": "everseal", "format": "standard", "hero": "Aria",
            "sections": {"main": [{"card": f"Wolf {i}", "count": 3} for i in range(11)] + [
                {"card": "Wolf 11", "count": 2}]}}  # fmt: skip
    old = api_client.post("/api/decks/validate/", {**body, "date": "2025-09-01"}, format="json").json()
    new = api_client.post("/api/decks/validate/", {**body, "date": "2025-10-01"}, format="json").json()
    assert old["legal"] is False and [v["code"] for v in old["violations"]] == ["section_size"]
    assert old["violations"][0]["limit"] == 30 and old["rules"]["version"] == "before 2025-09-28"
    assert new["legal"] is True and new["rules"] == {
        "game": "everseal", "format": "standard", "version": "2025-09-28", "effective_date": "2025-09-28",
    }  # fmt: skip


SIDEBOARD = "/api/decks/sideboard/"


def limited_body(**extra: Any) -> dict[str, Any]:
    return {
        "game": "twindeck",
        "format": "limited",
        "sections": {
            "creatures": [{"card": f"r{i}", "count": 1} for i in range(12)],
            "main": [{"card": f"b{i}", "count": 1} for i in range(30)],
        },
        **extra,
    }


def test_the_sideboard_api_swaps_within_the_pool_in_a_limited_event(twin, api_client):
    """g001 3.8: any number of swaps; 1.5.2: the additional set is the rest of the pool."""
    pool = [{"card": f"r{i}", "count": 1} for i in range(20)] + [
        {"card": f"b{i}", "count": 1} for i in range(40)
    ]
    swaps = [{"section": "main", "out": "b0", "into": "b35", "count": 1},
             {"section": "main", "out": "b1", "into": "b36", "count": 1}]  # fmt: skip
    res = api_client.post(SIDEBOARD, limited_body(pool=pool, swaps=swaps), format="json")
    assert res.status_code == 200, res.content
    body = res.json()
    assert body["report"]["legal"] is True, body["report"]
    main = {line["card"] for line in body["sections"]["main"]}
    assert {"b35", "b36"} <= main and not {"b0", "b1"} & main


def test_the_sideboard_api_returns_a_refused_swap_unchanged(twin, api_client):
    """g001 1.2: the main deck takes blue backs only — a red card siding in is refused, nothing moves."""
    pool = [{"card": f"r{i}", "count": 1} for i in range(20)] + [
        {"card": f"b{i}", "count": 1} for i in range(40)
    ]
    body = limited_body(pool=pool, swaps=[{"section": "main", "out": "b0", "into": "r15", "count": 1}])
    res = api_client.post(SIDEBOARD, body, format="json").json()
    assert {"section_card_type", "sideboard_swap"} <= {v["code"] for v in res["report"]["violations"]}
    sent = {
        slug: [(line["card"], line["count"]) for line in lines] for slug, lines in body["sections"].items()
    }
    got = {
        slug: [(line["card"], line["count"]) for line in lines]
        for slug, lines in res["sections"].items()
        if lines
    }
    assert got == sent


def test_the_sideboard_api_refuses_unknown_pool_cards_as_unprocessable(twin, api_client):
    res = api_client.post(
        SIDEBOARD, limited_body(pool=[{"card": "nope", "count": 1}], swaps=[]), format="json"
    )
    assert res.status_code == 422 and "nope" in res.json()["detail"]
