"""POST /api/decks/validate/ and the ban list API."""

from __future__ import annotations

import pytest

from rules.services import banlist_import

from .conftest import SAMPLE_LIST, fillers, ydk

pytestmark = pytest.mark.django_db
URL = "/api/decks/validate/"


def lines(codes: list[str]) -> list[dict]:
    counts: dict[str, int] = {}
    for c in codes:
        counts[c] = counts.get(c, 0) + 1
    return [{"card": c, "count": n} for c, n in counts.items()]


def test_it_validates_sections_given_by_id_or_name(ygo, api_client):
    body = {"game": "yugioh", "format": "advanced",
            "sections": {"main": [*lines(fillers(39)), {"card": "raigeki", "count": 1}]}}  # fmt: skip
    res = api_client.post(URL, body, format="json")
    assert res.status_code == 200, res.content
    assert res.json()["legal"] is True


def test_it_reports_violations_with_the_stable_shape(ygo, api_client):
    banlist_import(game=ygo["game"], text=SAMPLE_LIST)
    body = {"game": "yugioh", "format": "advanced", "date": "2024-06-01",
            "sections": {"main": [*lines(fillers(38)), {"card": "55144522", "count": 2}],
                         "extra": [{"card": "Odd-Eyes Pendulum Dragon", "count": 1}],
                         "side": [{"card": "No Such Card", "count": 1}]}}  # fmt: skip
    report = api_client.post(URL, body, format="json").json()
    assert report["legal"] is False
    by_code = {v["code"]: v for v in report["violations"]}
    assert set(by_code) == {"banlist_forbidden", "section_card_type", "unknown_card"}
    assert by_code["banlist_forbidden"] == {
        "code": "banlist_forbidden",
        "message": "Pot of Greed is Forbidden on 2024.01 Test TCG: remove all 2.",
        "section": "main",
        "card": "Pot of Greed",
        "count": 2,
        "limit": 0,
    }
    assert by_code["unknown_card"]["card"] == "No Such Card"


def test_the_list_in_effect_depends_on_the_date(ygo, api_client):
    banlist_import(game=ygo["game"], text=SAMPLE_LIST)
    body = {"game": "yugioh", "format": "advanced", "sections": {"main": [*lines(fillers(38)),
            {"card": "55144522", "count": 2}]}}  # fmt: skip
    before = api_client.post(URL, {**body, "date": "2023-12-31"}, format="json").json()
    assert before["legal"] is True and [w["code"] for w in before["warnings"]] == ["banlist_limit"]
    named = api_client.post(URL, {**body, "banlist": "2024.01 Test TCG"}, format="json").json()
    assert named["legal"] is False


def test_it_validates_a_ydk_text_and_counts_alternate_artworks_together(ygo, api_client):
    banlist_import(game=ygo["game"], text=SAMPLE_LIST)
    text = ydk([*fillers(38), "46986414", "36996508"])
    report = api_client.post(URL, {"game": "yugioh", "format": "advanced", "ydk": text, "date": "2024-02-01"},
                             format="json").json()  # fmt: skip
    assert [(v["code"], v["card"], v["count"], v["limit"]) for v in report["violations"]] == [
        ("banlist_limit", "Dark Magician", 2, 1)
    ]


def test_it_answers_in_russian_when_asked(ygo, api_client):
    body = {"game": "yugioh", "format": "advanced", "sections": {"main": lines(fillers(39))}}
    report = api_client.post(URL, body, format="json", HTTP_ACCEPT_LANGUAGE="ru").json()
    assert "Основная колода" in report["violations"][0]["message"]


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"game": "yugioh", "format": "advanced"}, "exactly one way"),
        ({"game": "chess", "format": "x", "sections": {}}, "unknown game"),
        ({"game": "yugioh", "format": "modern", "sections": {}}, "no format 'modern'"),
        ({"game": "vale", "format": "standard", "sections": {}}, "without player decks"),
        (
            {"game": "yugioh", "format": "advanced", "sections": {"main": [{"card": "x", "count": 0}]}},
            "count",
        ),
        ({"game": "yugioh", "format": "advanced", "banlist": "Nope", "sections": {}}, "no ban list named"),
    ],
)
def test_unusable_requests_get_a_400_naming_the_problem(ygo, api_client, body, needle):
    res = api_client.post(URL, body, format="json")
    assert res.status_code == 400
    assert needle in res.content.decode()


def test_sideboarding_swaps_one_for_one_and_revalidates(ygo, api_client):
    body = {"game": "yugioh", "format": "advanced",
            "sections": {"main": lines(fillers(40)), "side": [{"card": "Raigeki", "count": 1}]},
            "swaps": [{"section": "main", "out": "90000000", "into": "Raigeki"}]}  # fmt: skip
    res = api_client.post("/api/decks/sideboard/", body, format="json").json()
    assert res["report"]["legal"] is True
    assert {"card": "12580477", "count": 1} in res["sections"]["main"]
    uneven = {**body, "swaps": [{"section": "main", "into": "Raigeki"}]}
    res = api_client.post("/api/decks/sideboard/", uneven, format="json").json()
    assert "sideboard_swap" in [v["code"] for v in res["report"]["violations"]]


def test_ban_lists_are_listed_and_shown_with_entries(ygo, api_client):
    [item] = banlist_import(game=ygo["game"], text=SAMPLE_LIST)
    listing = api_client.get("/api/banlists/?game=yugioh").json()
    rows = listing["results"] if isinstance(listing, dict) else listing
    assert [(r["name"], r["entry_count"], r["game"]) for r in rows] == [("2024.01 Test TCG", 4, "yugioh")]
    assert api_client.get("/api/banlists/?game=caster").json()["count"] == 0
    detail = api_client.get(f"/api/banlists/{item.banlist.pk}/").json()
    assert {e["external_id"]: e["limit"] for e in detail["entries"]}["55144522"] == 0


def test_only_staff_may_import_a_ban_list_by_api(ygo, api_client_for, user, make_user):
    body = {"game": "yugioh", "text": SAMPLE_LIST}
    assert api_client_for(user).post("/api/banlists/import/", body, format="json").status_code == 403
    staff = make_user("staffer")
    staff.is_staff = True
    staff.save()
    res = api_client_for(staff).post("/api/banlists/import/", body, format="json")
    assert res.status_code == 201 and res.json()[0]["name"] == "2024.01 Test TCG"
    again = api_client_for(staff).post("/api/banlists/import/", body, format="json")
    assert again.status_code == 200
    bad = api_client_for(staff).post("/api/banlists/import/", {"game": "yugioh", "text": "!x 2020.01\nbad"},
                                     format="json")  # fmt: skip
    assert bad.status_code == 400 and "line 2" in bad.content.decode()


def test_a_games_rule_set_is_published(games, api_client):
    data = api_client.get("/api/games/twindeck/rules/").json()
    basic = data["formats"][0]
    assert basic["slug"] == "basic"
    assert [s["size"]["allowed"] for s in basic["sections"]] == [None, None, [0, 16]]
