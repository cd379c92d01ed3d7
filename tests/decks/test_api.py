"""The decks API: CRUD with owner-only writes, versions, import (unknown cards listed) and export."""

from __future__ import annotations

import pytest
from django.urls import reverse

from decks.models import Deck

pytestmark = pytest.mark.django_db


def test_it_creates_reads_updates_and_deletes_a_deck(sample_cards, user, api_client_for, card) -> None:
    client = api_client_for(user)
    pot, dm = card("yugioh", "Pot of Greed"), card("yugioh", "46986414")
    created = client.post(
        reverse("api-deck-list"),
        {
            "game": "yugioh",
            "format_slug": "advanced",
            "name": "API deck",
            "sections": {"main": [{"card": pot.pk, "count": 1}]},
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    pk = created.json()["id"]
    changed = client.put(
        reverse("api-deck-detail", args=[pk]),
        {"sections": {"main": [{"card": dm.pk, "count": 3}]}, "message": "swap"},
        format="json",
    )
    assert changed.status_code == 200
    assert changed.json()["sections"]["main"][0]["name"] == "Dark Magician"
    assert changed.json()["current_version"] == 2
    versions = client.get(reverse("api-deck-versions", args=[pk])).json()
    assert [v["number"] for v in versions] == [2, 1]
    v2 = client.get(reverse("api-deck-version", args=[pk, 2])).json()
    assert v2["diff"]["sections"]["main"]["added"][0]["name"] == "Dark Magician"
    restored = client.post(reverse("api-deck-restore", args=[pk, 1]))
    assert restored.json()["sections"]["main"][0]["name"] == "Pot of Greed"
    assert client.delete(reverse("api-deck-detail", args=[pk])).status_code == 204
    assert not Deck.objects.filter(pk=pk).exists()


def test_it_names_bad_input(sample_cards, user, api_client_for, card) -> None:
    client = api_client_for(user)
    everseal_card = card("everseal", "Кракен")
    response = client.post(
        reverse("api-deck-list"),
        {"game": "yugioh", "name": "x", "sections": {"main": [{"card": everseal_card.pk, "count": 1}]}},
        format="json",
    )
    assert response.status_code == 422
    assert response.json() == {"sections": [f"card id {everseal_card.pk} is not a card of Yu-Gi-Oh! TCG"]}
    response = client.post(
        reverse("api-deck-list"),
        {
            "game": "yugioh",
            "name": "x",
            "sections": {"main": [{"card": card("yugioh", "Raigeki").pk, "count": 0}]},
        },
        format="json",
    )
    assert response.status_code == 400 and "count" in str(response.json())
    assert not Deck.objects.exists()


def test_it_enforces_visibility_and_ownership(ygo_deck, api_client, api_client_for, other_user, user) -> None:
    detail = reverse("api-deck-detail", args=[ygo_deck.pk])
    assert api_client.get(detail).status_code == 404  # private: not even its existence
    assert api_client_for(other_user).get(detail).status_code == 404
    assert (
        api_client_for(other_user)
        .get(reverse("api-deck-export", args=[ygo_deck.pk]) + "?fmt=ydk")
        .status_code
        == 404
    )
    assert api_client_for(user).get(detail).status_code == 200
    for visibility in ("unlisted", "public"):
        Deck.objects.filter(pk=ygo_deck.pk).update(visibility=visibility)
        assert api_client.get(detail).status_code == 200
        assert api_client_for(other_user).put(detail, {"name": "taken"}, format="json").status_code == 403
        assert api_client_for(other_user).delete(detail).status_code == 403
        assert api_client.put(detail, {"name": "taken"}, format="json").status_code in (401, 403)
        listed = [d["id"] for d in api_client.get(reverse("api-deck-list")).json()["results"]]
        assert (ygo_deck.pk in listed) == (visibility == "public")
    copy = api_client_for(other_user).post(reverse("api-deck-copy", args=[ygo_deck.pk]))
    assert (
        copy.status_code == 201 and copy.json()["visibility"] == "private" and copy.json()["owner"] == "bob"
    )


def test_it_refuses_an_import_with_unknown_cards_unless_allowed(sample_cards, user, api_client_for) -> None:
    client = api_client_for(user)
    text = "Main\n3 Dark Magician\n2 No Such Card\nSide\n1 Mirror Force\n"
    refused = client.post(reverse("api-deck-import"), {"game": "yugioh", "data": text}, format="multipart")
    assert refused.status_code == 422
    assert refused.json()["unknown"] == [
        {"ref": "No Such Card", "section": "main", "line": 3, "count": 2, "reason": "unknown",
         "key": "resolve.unknown_name", "params": {"ref": "No Such Card"},
         "message": "card 'No Such Card' is not in the card database", "suggestion": ""}
    ]  # fmt: skip
    assert not Deck.objects.exists()
    allowed = client.post(
        reverse("api-deck-import"),
        {"game": "yugioh", "data": text, "allow_unknown": True, "name": "Imp"},
        format="multipart",
    )
    assert allowed.status_code == 201
    assert allowed.json()["deck"]["sections"]["main"][0]["count"] == 3
    assert len(allowed.json()["unknown"]) == 1


def test_it_reports_syntax_errors_with_lines(sample_cards, user, api_client_for) -> None:
    response = api_client_for(user).post(
        reverse("api-deck-import"),
        {"game": "yugioh", "data": "#main\n123\nnope\n", "fmt": "ydk"},
        format="multipart",
    )
    assert response.status_code == 422
    assert response.json()["errors"] == ["line 3: 'nope' is not a card passcode (digits only)"]


@pytest.mark.parametrize("fmt", ["ydk", "ydke", "text", "csv", "json", "cod"])
def test_it_exports_and_reimports_the_same_deck(ygo_deck, user, api_client_for, fmt) -> None:
    client = api_client_for(user)
    exported = client.get(reverse("api-deck-export", args=[ygo_deck.pk]) + f"?fmt={fmt}")
    assert exported.status_code == 200
    assert "attachment" in exported["Content-Disposition"]
    again = client.post(
        reverse("api-deck-import"),
        {"game": "yugioh", "format_slug": "advanced", "data": exported.content.decode(), "fmt": fmt},
        format="multipart",
    )
    assert again.status_code == 201, again.json()
    original = client.get(reverse("api-deck-detail", args=[ygo_deck.pk])).json()["sections"]
    imported = again.json()["deck"]["sections"]

    def cards(sections):  # type: ignore[no-untyped-def]
        return {
            s: sorted((line["external_id"], line["count"]) for line in lines) for s, lines in sections.items()
        }

    assert cards(imported) == cards(original)


def test_it_does_not_shadow_the_rules_validate_endpoint(ygo_deck, api_client) -> None:
    response = api_client.post(
        "/api/decks/validate/",
        {"game": "yugioh", "format": "advanced", "sections": {"main": [{"card": "46986414", "count": 4}]}},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["legal"] is False


def test_it_gives_ban_list_badges(ygo_deck, api_client, card) -> None:
    from datetime import date

    from rules.models import BanList, BanListEntry

    pot, dm = card("yugioh", "Pot of Greed"), card("yugioh", "46986414")
    old = BanList.objects.create(
        game=ygo_deck.game, name="TCG", effective_date=date(2020, 1, 1), region="tcg"
    )
    new = BanList.objects.create(
        game=ygo_deck.game, name="TCG", effective_date=date(2024, 1, 1), region="tcg"
    )
    BanListEntry.objects.create(banlist=old, external_id=pot.external_id, card=pot, limit=1)
    BanListEntry.objects.create(banlist=new, external_id=pot.external_id, card=pot, limit=0)
    BanListEntry.objects.create(banlist=new, external_id=dm.external_id, identity=dm.identity, limit=2)
    url = reverse("api-deck-banlist-status") + f"?game=yugioh&cards={pot.pk},{dm.pk}"
    assert api_client.get(url).json()["statuses"] == {}  # no list and no format: nothing to say
    chosen = api_client.get(url + f"&banlist={old.pk}").json()
    assert chosen["statuses"] == {str(pot.pk): "limited"}
    # No list chosen: the format's list in effect on the date, the one validation applies, gives the badges.
    in_effect = api_client.get(url + "&format_slug=advanced&date=2025-06-01").json()
    assert in_effect["statuses"] == {str(pot.pk): "forbidden", str(dm.pk): "semi-limited"}
    earlier = api_client.get(url + "&format_slug=advanced&date=2021-06-01").json()
    assert earlier["statuses"] == {str(pot.pk): "limited"}
    bad = api_client.get(url + "&format_slug=advanced&date=someday")
    assert bad.status_code == 400 and "date" in bad.json()
