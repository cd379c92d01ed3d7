"""Paste import as list sites write lists: Yu-Gi-Oh! group headings ("Monster", "Spell Cards (12)") are
skipped and listed, counts in brackets are read, and a near-miss name gets one "did you mean" (or none when
two cards are about as close) — in the parser, the import API's answer and the import page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cards.models import Card
from decks.formats import parse_deck
from decks.models import Deck

YGOPRODECK_STYLE = """Main Deck:
Monster Cards (7)
3 Dark Magician
Monster
(2) Sangan
Jinzo [x2]
Spell
Pot of Greed (x1)
[3] Raigeki
Spell Cards:
Trap Cards (2)
Mirror Force x2
Extra Deck (2)
2x Stardust Dragon
Side Deck:
== Traps ==
1 Trap Hole
"""


def test_it_reads_group_headings_as_groups_and_counts_in_brackets() -> None:
    deck = parse_deck(YGOPRODECK_STYLE)
    assert not deck.errors
    assert deck.counts() == {
        "main": [("Dark Magician", 3), ("Sangan", 2), ("Jinzo", 2), ("Pot of Greed", 1), ("Raigeki", 3),
                 ("Mirror Force", 2)],
        "extra": [("Stardust Dragon", 2)],
        "side": [("Trap Hole", 1)],
    }  # fmt: skip
    assert [(line.line, line.reason) for line in deck.skipped] == [
        (2, "group"), (4, "group"), (7, "group"), (10, "group"), (11, "group"), (16, "group")
    ]  # fmt: skip


def test_group_headings_do_not_make_a_blank_line_sideboard() -> None:
    # MTGO's "one blank line splits main and sideboard" rule is for lists without headings.
    deck = parse_deck("Monster\n3 Dark Magician\n\nSpell\n1 Pot of Greed\n")
    assert deck.counts() == {"main": [("Dark Magician", 3), ("Pot of Greed", 1)]}


def test_names_that_merely_end_in_brackets_stay_names() -> None:
    deck = parse_deck("1 Carella (Lv1)\nNumber 39: Utopia\nPlains (LTR) 263\n")
    assert deck.counts()["main"][0] == ("Carella (Lv1)", 1)
    assert ("Number 39: Utopia", 1) in deck.counts()["main"]


@pytest.mark.django_db
def test_the_api_imports_a_list_site_paste_and_lists_what_it_skipped(
    sample_cards, user, api_client_for
) -> None:
    client = api_client_for(user)
    answer = client.post(
        reverse("api-deck-import"), {"game": "yugioh", "data": YGOPRODECK_STYLE}, format="multipart"
    )
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["deck"]["sections"]["main"] and body["unknown"] == []
    assert [line["text"] for line in body["skipped"]][:3] == ["Monster Cards (7)", "Monster", "Spell"]
    assert {line["reason"] for line in body["skipped"]} == {"group"}


@pytest.mark.django_db
def test_a_near_miss_gets_one_did_you_mean(sample_cards, user, api_client_for) -> None:
    client = api_client_for(user)
    text = "Main\n3 Dark Magican\n1 Pot of Gred\n1 Qwxyzzy Plover\n"
    answer = client.post(reverse("api-deck-import"), {"game": "yugioh", "data": text}, format="multipart")
    assert answer.status_code == 422  # well formed, names cards this game lacks (README, API "Errors")
    unknown = {line["ref"]: line for line in answer.json()["unknown"]}
    assert unknown["Dark Magican"]["suggestion"] == "Dark Magician"
    assert unknown["Dark Magican"]["key"] == "resolve.unknown_name_suggest"
    assert "did you mean 'Dark Magician'" in unknown["Dark Magican"]["message"]
    assert unknown["Pot of Gred"]["suggestion"] == "Pot of Greed"
    assert unknown["Qwxyzzy Plover"]["suggestion"] == ""  # nothing close: no guess
    assert not Deck.objects.exists()


@pytest.mark.django_db
def test_two_names_about_as_close_get_no_did_you_mean(games, user, api_client_for) -> None:
    game = games["mtg"]
    for name in ("Stormfront Pegasus", "Stormfront Pegasur"):
        Card.objects.create(
            game=game, external_id=name, identity=name, name=name, search_name=name.casefold()
        )
    text = "1 Stormfront Pegasux\n"
    answer = api_client_for(user).post(
        reverse("api-deck-import"), {"game": "mtg", "data": text}, format="multipart"
    )
    assert answer.json()["unknown"][0]["suggestion"] == ""


@pytest.mark.django_db
def test_the_import_page_shows_did_you_mean_and_the_skipped_lines(sample_cards, user, client) -> None:
    client.force_login(user)
    form = {"game": "yugioh", "data": "Monster Cards (3)\n3 Dark Magican\n", "name": "Pasted"}
    page = client.post(reverse("decks:import"), form).content.decode()
    assert 'data-testid="did-you-mean"' in page and "Dark Magician" in page
    assert 'data-testid="skipped-lines"' in page and "Monster Cards (3)" in page and "a group heading" in page
    imported = client.post(reverse("decks:import"), {**form, "data": "Monster Cards (3)\n3 Dark Magician\n"})
    assert imported.status_code == 302
    followed = client.get(imported["Location"]).content.decode()
    assert "Monster Cards (3)" in followed  # the group headings read are said once after the import


@pytest.mark.django_db
def test_the_import_page_says_it_in_russian(sample_cards, user, client) -> None:
    client.force_login(user)
    client.cookies["django_language"] = "ru"
    form = {"game": "yugioh", "data": "Monster Cards (3)\n3 Dark Magican\n", "name": "Pasted"}
    page = client.post(reverse("decks:import"), form).content.decode()
    assert "может быть, «Dark Magician»?" in page
    assert "заголовок группы, а не карта" in page and "1 строка прочитана и намеренно пропущена" in page


def test_it_knows_russian_and_magic_group_headings_but_keeps_sections() -> None:
    deck = parse_deck("Основная колода (40):\nМонстры (20)\n3 Dark Magician\nЛовушки:\n2 Mirror Force\n")
    assert deck.counts() == {"main": [("Dark Magician", 3), ("Mirror Force", 2)]}
    magic = parse_deck("Deck\nLands (24)\n24 Mountain\nInstants (4)\n4 Shock\nSideboard\n2 Searing Blood\n")
    assert magic.counts() == {"main": [("Mountain", 24), ("Shock", 4)], "side": [("Searing Blood", 2)]}
    twin = parse_deck("Creatures\n2 Wolf\n")
    assert twin.counts() == {"creatures": [("Wolf", 2)]}  # the twin-deck game's section, not a group
