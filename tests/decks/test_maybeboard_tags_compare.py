"""The maybeboard, line tags, folders and deck comparison over the API: maybe is kept in versions and
copies but never judged, registered or written into a play format; tags live per line; compare reads
only decks the caller may see."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from decks.compare import Line, compare_sections

pytestmark = pytest.mark.django_db


def create(client, sections, **extra):
    body = {"game": "yugioh", "format_slug": "advanced", "name": "Tagged", "sections": sections}
    body.update(extra)
    response = client.post(reverse("api-deck-list"), body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_it_keeps_maybe_and_tags_through_a_save_and_a_version(sample_cards, user, api_client_for, card):
    client = api_client_for(user)
    dm, pot, force = (
        card("yugioh", "46986414"),
        card("yugioh", "Pot of Greed"),
        card("yugioh", "Mirror Force"),
    )
    deck = create(
        client,
        {
            "main": [
                {"card": dm.pk, "count": 3, "tags": ["win con", "Boss", "boss"]},
                {"card": pot.pk, "count": 1},
            ],
            "maybe": [{"card": force.pk, "count": 2, "tags": ["tech"]}],
        },
        folder="Testing",
    )
    assert deck["folder"] == "Testing"
    main = {line["name"]: line for line in deck["sections"]["main"]}
    assert main["Dark Magician"]["tags"] == ["win con", "Boss"]
    assert main["Pot of Greed"]["tags"] == []
    assert deck["sections"]["maybe"][0] == {**deck["sections"]["maybe"][0], "count": 2, "tags": ["tech"]}

    # A PATCH without tags keeps each remaining line's tags; the version holds them.
    patched = client.patch(
        reverse("api-deck-detail", args=[deck["id"]]),
        {"sections": {"main": [{"card": dm.pk, "count": 2}], "maybe": [{"card": force.pk, "count": 1}]}},
        format="json",
    ).json()
    assert patched["sections"]["main"][0]["tags"] == ["win con", "Boss"]
    assert patched["sections"]["maybe"][0]["tags"] == ["tech"]
    version = client.get(reverse("api-deck-version", args=[deck["id"], 2])).json()
    assert version["snapshot"]["sections"]["maybe"] == [[force.pk, 1, "Mirror Force"]]
    assert version["snapshot"]["tags"][f"main:{dm.pk}"] == ["win con", "Boss"]

    # Restoring version 1 brings back its lines with their tags.
    restored = client.post(reverse("api-deck-restore", args=[deck["id"], 1])).json()
    assert {line["name"]: line["tags"] for line in restored["sections"]["main"]}["Pot of Greed"] == []
    assert restored["sections"]["maybe"][0]["count"] == 2


def test_it_never_judges_or_plays_the_maybeboard(sample_cards, user, api_client_for, card):
    client = api_client_for(user)
    dm, exodia = card("yugioh", "46986414"), card("yugioh", "Pot of Greed")
    deck = create(
        client, {"main": [{"card": dm.pk, "count": 3}], "maybe": [{"card": exodia.pk, "count": 40}]}
    )
    report = client.get(reverse("api-deck-report", args=[deck["id"]])).json()
    assert not any(v.get("card") == "Pot of Greed" for v in report["violations"])
    assert not any("maybe" in json.dumps(v) for v in report["violations"])
    # The rules API ignores a maybe section sent with a deck too.
    judged = client.post(
        "/api/decks/validate/",
        {"game": "yugioh", "format": "advanced",
         "sections": {"main": [{"card": "46986414", "count": 3}], "maybe": [{"card": "55144522", "count": 9}]}},
        format="json",
    )  # fmt: skip
    assert judged.status_code == 200, judged.json()
    assert not any("maybe" in json.dumps(v) for v in judged.json()["violations"])
    ydk = client.get(reverse("api-deck-export", args=[deck["id"]]) + "?fmt=ydk").content.decode()
    assert exodia.external_id not in ydk
    as_json = json.loads(client.get(reverse("api-deck-export", args=[deck["id"]]) + "?fmt=json").content)
    assert as_json["sections"]["maybe"][0]["count"] == 40


def test_it_refuses_bad_tags_naming_the_line(sample_cards, user, api_client_for, card):
    client = api_client_for(user)
    dm = card("yugioh", "46986414")
    body = {"game": "yugioh", "format_slug": "advanced", "name": "Bad",
            "sections": {"main": [{"card": dm.pk, "count": 1, "tags": ["x" * 41]}]}}  # fmt: skip
    response = client.post(reverse("api-deck-list"), body, format="json")
    assert response.status_code == 400
    assert "tags" in json.dumps(response.json())
    body["sections"]["main"][0]["tags"] = [f"t{i}" for i in range(11)]
    assert client.post(reverse("api-deck-list"), body, format="json").status_code == 400


def test_it_compares_two_decks_by_copies():
    a = {"main": [Line("dm", 1, "Dark Magician", 3), Line("pot", 2, "Pot of Greed", 1)]}
    b = {
        "main": [Line("dm", 9, "Dark Magician", 1), Line("mf", 3, "Mirror Force", 2)],
        "side": [Line("x", 4, "X", 1)],
    }
    result = compare_sections(a, b)
    assert result["main"]["both"] == [
        {"card": 1, "name": "Dark Magician", "count": 1, "count_a": 3, "count_b": 1}
    ]
    assert result["main"]["only_a"] == [
        {"card": 1, "name": "Dark Magician", "count": 2},
        {"card": 2, "name": "Pot of Greed", "count": 1},
    ]
    assert result["main"]["only_b"] == [{"card": 3, "name": "Mirror Force", "count": 2}]
    assert result["side"] == {"only_a": [], "only_b": [{"card": 4, "name": "X", "count": 1}], "both": []}


def test_it_compares_only_decks_the_caller_may_read(sample_cards, user, other_user, api_client_for, card):
    mine, theirs = api_client_for(user), api_client_for(other_user)
    dm, pot = card("yugioh", "46986414"), card("yugioh", "Pot of Greed")
    a = create(mine, {"main": [{"card": dm.pk, "count": 3}], "maybe": [{"card": pot.pk, "count": 1}]})
    public = create(
        theirs, {"main": [{"card": dm.pk, "count": 2}, {"card": pot.pk, "count": 1}]}, visibility="public"
    )
    private = create(theirs, {"main": [{"card": dm.pk, "count": 1}]})
    url = reverse("api-deck-compare")
    answer = mine.get(url, {"a": a["id"], "b": public["id"]})
    assert answer.status_code == 200, answer.json()
    sections = answer.json()["sections"]
    assert sections["main"]["both"][0]["count"] == 2
    assert sections["main"]["only_a"] == [{"card": dm.pk, "name": "Dark Magician", "count": 1}]
    assert sections["main"]["only_b"] == [{"card": pot.pk, "name": "Pot of Greed", "count": 1}]
    assert sections["maybe"]["only_a"][0]["count"] == 1
    assert mine.get(url, {"a": a["id"], "b": private["id"]}).status_code == 404
    assert mine.get(url, {"a": a["id"], "b": "x"}).status_code == 400
    assert mine.get(url, {"a": a["id"]}).status_code == 400


def test_it_says_where_a_card_may_go_before_it_is_added(sample_cards, api_client, card):
    dm, stardust, pot = (
        card("yugioh", "46986414"),
        card("yugioh", "Stardust Dragon"),
        card("yugioh", "Pot of Greed"),
    )
    answer = api_client.get(
        reverse("api-deck-card-fit"),
        {"game": "yugioh", "format_slug": "advanced", "cards": f"{dm.pk},{stardust.pk},{pot.pk}"},
    )
    assert answer.status_code == 200, answer.json()
    cards = answer.json()["cards"]
    assert cards[str(dm.pk)]["sections"] == ["main", "side", "maybe"]
    assert cards[str(stardust.pk)]["sections"] == ["extra", "side", "maybe"]
    assert "extra" not in cards[str(pot.pk)]["sections"]
    assert cards[str(pot.pk)]["status"] is None  # no ban list in the database yet

    from datetime import date

    from rules.models import BanList, BanListEntry

    banlist = BanList.objects.create(game=sample_cards["yugioh"], name="TCG", effective_date=date(2024, 1, 1))
    BanListEntry.objects.create(banlist=banlist, external_id=pot.external_id, card=pot, limit=0)
    listed = api_client.get(
        reverse("api-deck-card-fit"),
        {"game": "yugioh", "format_slug": "advanced", "cards": f"{pot.pk},{dm.pk}", "banlist": banlist.pk},
    ).json()["cards"]
    assert listed[str(pot.pk)]["status"] == "forbidden" and listed[str(dm.pk)]["status"] is None
    assert (
        api_client.get(
            reverse("api-deck-card-fit"), {"game": "yugioh", "format_slug": "nope", "cards": "1"}
        ).status_code
        == 422
    )
    assert (
        api_client.get(
            reverse("api-deck-card-fit"), {"game": "yugioh", "format_slug": "advanced", "cards": "a"}
        ).status_code
        == 400
    )


def test_the_deck_page_shows_tags_and_the_maybeboard_apart(sample_cards, user, client, card):
    from decks.services import deck_create

    dm, force = card("yugioh", "46986414"), card("yugioh", "Mirror Force")
    deck = deck_create(
        owner=user,
        game=sample_cards["yugioh"],
        name="Page",
        format_slug="advanced",
        sections={"main": [(dm, 3)], "maybe": [(force, 2)]},
        tags={("main", dm.pk): ["boss"]},
        folder="Locals",
    )
    client.force_login(user)
    page = client.get(reverse("decks:detail", args=[deck.pk])).content.decode()
    assert 'data-testid="line-tag">boss<' in page
    assert 'data-testid="section-maybe"' in page and "Maybeboard" in page
    listing = client.get(reverse("decks:list"), {"folder": "Locals"}).content.decode()
    assert 'data-testid="deck-folder">Locals<' in listing
    unfiled = client.get(reverse("decks:list"), {"folder": "-"}).content.decode()
    assert 'data-testid="deck-folder"' not in unfiled


def test_it_lists_a_folder_of_the_callers_own_decks(sample_cards, user, other_user, api_client_for, card):
    mine, theirs = api_client_for(user), api_client_for(other_user)
    dm = card("yugioh", "46986414")
    create(mine, {"main": [{"card": dm.pk, "count": 1}]}, folder="Locals", name="In folder")
    create(mine, {"main": [{"card": dm.pk, "count": 1}]}, name="Loose")
    create(
        theirs, {"main": [{"card": dm.pk, "count": 1}]}, folder="Locals", visibility="public", name="Theirs"
    )
    listed = mine.get(reverse("api-deck-list"), {"folder": "Locals"}).json()["results"]
    assert [d["name"] for d in listed] == ["In folder"] and listed[0]["folder"] == "Locals"
    loose = mine.get(reverse("api-deck-list"), {"folder": ""}).json()["results"]
    assert [d["name"] for d in loose] == ["Loose"]
