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
        "key": "banlist_forbidden.forbidden",
        "params": {
            "card": "Pot of Greed",
            "list": "2024.01 Test TCG",
            "total": 2,
            "sections": [{"en": "Main deck", "ru": "Основная колода"}],
        },
        "message": "Pot of Greed is Forbidden on 2024.01 Test TCG: remove all 2 from Main deck.",
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
    ("body", "status", "needle"),
    [
        ({"game": "yugioh", "format": "advanced"}, 400, "exactly one way"),
        ({"game": "chess", "format": "x", "sections": {}}, 400, "unknown game"),
        ({"game": "yugioh", "format": "modern", "sections": {}}, 422, "no format “modern”"),
        ({"game": "vale", "format": "standard", "sections": {}}, 422, "without player decks"),
        (
            {"game": "yugioh", "format": "advanced", "sections": {"main": [{"card": "x", "count": 0}]}},
            400,
            "count",
        ),
        (
            {"game": "yugioh", "format": "advanced", "banlist": "Nope", "sections": {}},
            422,
            "no ban list named",
        ),
    ],
)
def test_unusable_requests_are_refused_naming_the_problem(ygo, api_client, body, status, needle):
    """400 for a request the schema refuses; 422 for one it allows that names what the game cannot use."""
    res = api_client.post(URL, body, format="json")
    assert res.status_code == status
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
    bad = api_client_for(staff).post("/api/banlists/import/", {"game": "yugioh", "text": "!x 2020.01\n#date 2020-02-30"},
                                     format="json")  # fmt: skip
    assert bad.status_code == 422 and "line 2" in bad.content.decode()  # a file the readers refuse


def test_a_games_rule_set_is_published(games, api_client):
    data = api_client.get("/api/games/twindeck/rules/").json()
    basic = data["formats"][0]
    assert basic["slug"] == "basic"
    assert [s["size"]["allowed"] for s in basic["sections"]] == [None, None, [0, 16]]


@pytest.mark.parametrize(
    ("sections", "needle"),
    [
        ([1, 2], "dictionary"),
        ({"main": "Raigeki"}, "Expected a list"),
        ({"main": [{"card": "Raigeki", "count": "three"}]}, "valid integer"),
        ({"main": [{"card": "Raigeki", "count": 2.5}]}, "valid integer"),
        ({"main": [{"card": "Raigeki", "count": 10**12}]}, "less than or equal to 999"),
        ({"main": [{"card": "Raigeki", "count": -3}]}, "greater than or equal to 1"),
        ({"main": [{"card": {"id": 1}, "count": 1}]}, "Not a valid string"),
        ({"main": [{"count": 1}]}, "card"),
    ],
)
def test_wrong_types_and_absurd_counts_get_a_400_naming_the_field(ygo, api_client, sections, needle):
    res = api_client.post(URL, {"game": "yugioh", "format": "advanced", "sections": sections}, format="json")
    assert res.status_code == 400
    assert needle in res.content.decode() and "sections" in res.json()


def test_too_many_lines_and_a_non_json_body_get_a_400(ygo, api_client):
    many = {"main": [{"card": str(90000000 + i % 20), "count": 1} for i in range(501)]}
    res = api_client.post(URL, {"game": "yugioh", "format": "advanced", "sections": many}, format="json")
    assert res.status_code == 400 and "too many card lines (501)" in res.content.decode()
    res = api_client.post(URL, "not json", content_type="application/json")
    assert res.status_code == 400 and "JSON parse error" in res.content.decode()


def test_unknown_card_ids_are_reported_not_refused(ygo, api_client):
    body = {"game": "yugioh", "format": "advanced", "hero": "12345",
            "sections": {"main": [*lines(fillers(39)), {"card": "99999999999999999999", "count": 1}]}}  # fmt: skip
    report = api_client.post(URL, body, format="json").json()
    assert [(v["code"], v["card"], v["section"], v["count"]) for v in report["violations"]] == [
        ("unknown_card", "99999999999999999999", "main", 1),
        ("unknown_card", "12345", "hero", 1),
    ]
    assert "Main deck" in report["violations"][0]["message"]


def test_a_superscript_digit_reference_is_an_unknown_card_not_an_id(ygo, api_client):
    """ "¹".isdigit() is true but int("¹") fails: a card reference is an id only when it is decimal."""
    body = {"game": "yugioh", "format": "advanced", "sections": {"main": [{"card": "¹", "count": 1}]}}
    res = api_client.post(URL, body, format="json")
    assert res.status_code == 200, res.content
    assert ("unknown_card", "¹") in [(v["code"], v["card"]) for v in res.json()["violations"]]


def test_pool_cards_missing_from_the_database_are_a_warning(games, api_client):
    from cards.models import Card

    game = games["twindeck"]
    red = Card.objects.create(game=game, external_id="r1", identity="r1", name="Goblin", search_name="goblin",
                              card_type="creature", attributes={"back": "red"})  # fmt: skip
    blue = Card.objects.create(game=game, external_id="b1", identity="b1", name="Sword", search_name="sword",
                               card_type="weapon", attributes={"back": "blue"})  # fmt: skip
    body = {"game": "twindeck", "format": "limited",
            "sections": {"creatures": [{"card": "r1", "count": 12}], "main": [{"card": "b1", "count": 30}]},
            "pool": [{"card": "r1", "count": 12}, {"card": "b1", "count": 30}, {"card": "Lost Card", "count": 2}]}  # fmt: skip
    report = api_client.post(URL, body, format="json").json()
    assert report["legal"] is True
    assert [(w["code"], w["card"], w["section"], w["count"]) for w in report["warnings"]] == [
        ("unknown_card", "Lost Card", "pool", 2)
    ]
    assert red and blue


def test_a_list_imported_before_its_cards_still_limits_by_alias(games, api_client):
    from cards.models import Card

    game = games["yugioh"]
    # The list names only the alternate artwork; no card exists yet, so nothing is resolved at import.
    banlist_import(game=game, text="!2024.01 Alias TCG\n36996508 1 --Dark Magician (alt)\n")
    for code in ("46986414", "36996508"):
        Card.objects.create(game=game, external_id=code, identity="46986414", name="Dark Magician",
                            search_name="dark magician", card_type="monster", subtypes=["normal"])  # fmt: skip
    for i in range(38):
        Card.objects.create(game=game, external_id=str(90000000 + i), identity=str(90000000 + i),
                            name=f"Filler {i}", search_name=f"filler {i}", card_type="spell")  # fmt: skip
    body = {"game": "yugioh", "format": "advanced", "banlist": "2024.01 Alias TCG",
            "sections": {"main": [*[{"card": str(90000000 + i), "count": 1} for i in range(38)],
                                  {"card": "46986414", "count": 2}]}}  # fmt: skip
    report = api_client.post(URL, body, format="json").json()
    assert [(v["code"], v["card"], v["count"], v["limit"]) for v in report["violations"]] == [
        ("banlist_limit", "Dark Magician", 2, 1)
    ]


def test_it_accepts_a_format_slug_in_any_case(ygo, api_client):
    body = {"game": "yugioh", "format": "Advanced",
            "sections": {"main": [*lines(fillers(39)), {"card": "raigeki", "count": 1}]}}  # fmt: skip
    res = api_client.post(URL, body, format="json")
    assert res.status_code == 200, res.content
    assert res.json()["legal"] is True


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"game": "yugioh", "format": "modern", "sections": {}}, "нет формата «modern»"),
        ({"game": "vale", "format": "standard", "sections": {}}, "без колод игроков"),
    ],
)
def test_the_engines_refusals_are_worded_in_the_requesters_language(ygo, api_client, body, needle):
    """The engine raises a message key with params; the words come from the catalogue at the edge."""
    res = api_client.post(URL, body, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert res.status_code == 422
    assert needle in res.json()["detail"]
