"""Real XMage, Forge, OCTGN and mtg.wtf files imported into Magic as their clients mean them (XMage's
sideboard commander, OCTGN's command zone), and written back as XMage and Forge read them: export → import
gives the same deck. Art-series cards ("Sol Ring // Sol Ring") never compete with the real card."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from cards.models import Card, CardSet, Printing
from decks.formats import parse_deck
from decks.selectors import deck_sections
from decks.services import deck_export, deck_import

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).parent / "fixtures" / "clients"
XMAGE_LINE = re.compile(r"^(?:SB: )?\d+ \[(\w+):(\w+)\] (.+)$")


def _card(game: Any, name: str, *, legendary: bool = False, external_id: str = "") -> Card:
    attrs: dict[str, Any] = {"supertypes": ["legendary"]} if legendary else {}
    return Card.objects.create(game=game, external_id=external_id or name, identity=external_id or name,
                               name=name, search_name=name.casefold(), card_type="creature", attributes=attrs)  # fmt: skip


def _cards_of_xmage_file(game: Any, text: str, legendary: set[str] = frozenset()) -> None:
    """The file's cards, each with the printing XMage names it by."""
    for line in text.splitlines():
        found = XMAGE_LINE.match(line)
        if not found:
            continue
        set_code, number, name = found.groups()
        card = Card.objects.filter(game=game, name=name).first() or _card(
            game, name, legendary=name in legendary
        )
        card_set, _ = CardSet.objects.get_or_create(game=game, code=set_code)
        Printing.objects.get_or_create(card=card, card_set=card_set, code=number)


def _by_name(deck: Any) -> dict[str, list[tuple[str, int]]]:
    return {
        section: sorted((card.name, count) for card, count in lines)
        for section, lines in deck_sections(deck).items()
    }


def test_an_xmage_file_round_trips_through_xmage_and_forge(games, user) -> None:
    text = (FIXTURES / "xmage_blood_and_fire.dck").read_text()
    _cards_of_xmage_file(games["mtg"], text)
    deck = deck_import(
        owner=user, game=games["mtg"], data=text, filename="Blood and Fire.dck", format_slug="constructed"
    ).deck
    assert deck.name == "Blood and Fire"
    assert dict(_by_name(deck)["main"])["Swamp"] == 10
    for fmt in ("xmage", "forge"):
        exported = deck_export(deck=deck, fmt=fmt)
        assert exported.filename.endswith(".dck")
        again = deck_import(owner=user, game=games["mtg"], data=exported.content, filename=exported.filename,
                            format_slug="constructed").deck  # fmt: skip
        assert _by_name(again) == _by_name(deck), fmt
        assert again.name == "Blood and Fire"
    xmage = deck_export(deck=deck, fmt="xmage").content.decode()
    assert "10 [M12:238] Swamp" in xmage and xmage.startswith("NAME:Blood and Fire\n")


def test_an_xmage_commander_precon_puts_its_sideboard_commander_in_the_command_zone(games, user) -> None:
    text = (FIXTURES / "xmage_lorehold_legacies_excerpt.dck").read_text()
    _cards_of_xmage_file(games["mtg"], text, legendary={"Osgir, the Reconstructor"})
    result = deck_import(owner=user, game=games["mtg"], data=text, filename="Lorehold Legacies (RW).dck",
                         format_slug="commander")  # fmt: skip
    deck = result.deck
    assert deck.hero.name == "Osgir, the Reconstructor"
    assert "side" not in _by_name(deck)
    assert [line.reason for line in result.skipped] == ["layout", "layout"]
    exported = deck_export(deck=deck, fmt="xmage").content.decode()
    assert "SB: 1 [C21:335] Osgir, the Reconstructor" in exported
    again = deck_import(
        owner=user, game=games["mtg"], data=exported, filename="x.dck", format_slug="commander"
    ).deck
    assert again.hero == deck.hero and _by_name(again) == _by_name(deck)
    # The same file in a format without a commander keeps the card in its sideboard.
    constructed = deck_import(
        owner=user, game=games["mtg"], data=text, filename="x.dck", format_slug="constructed"
    ).deck
    assert constructed.hero is None and _by_name(constructed)["side"] == [("Osgir, the Reconstructor", 1)]


def test_a_forge_commander_file_round_trips(games, user) -> None:
    text = (FIXTURES / "forge_aura_of_courage_excerpt.dck").read_text()
    for entry in parse_deck(text).sections["main"]:
        _card(games["mtg"], entry.ref)
    _card(games["mtg"], "Galea, Kindler of Hope", legendary=True)
    deck = deck_import(
        owner=user, game=games["mtg"], data=text, filename="a.dck", format_slug="commander"
    ).deck
    assert deck.hero.name == "Galea, Kindler of Hope"
    assert sum(count for _name, count in _by_name(deck)["main"]) == 21
    forge = deck_export(deck=deck, fmt="forge").content.decode()
    assert forge.startswith(
        "[metadata]\nName=Aura of Courage [AFC] [2021]\n[Commander]\n1 Galea, Kindler of Hope\n[Main]\n"
    )
    again = deck_import(
        owner=user, game=games["mtg"], data=forge, filename="b.dck", format_slug="commander"
    ).deck
    assert again.hero == deck.hero and _by_name(again) == _by_name(deck)


def test_xmage_export_names_the_card_without_a_printing(games, user) -> None:
    _card(games["mtg"], "Shock")
    deck = deck_import(owner=user, game=games["mtg"], data="4 Shock\n", format_slug="constructed").deck
    with pytest.raises(Exception) as refused:
        deck_export(deck=deck, fmt="xmage")
    assert "Shock" in str(refused.value) and "collector number" in str(refused.value)


def test_an_octgn_deck_and_an_mtg_wtf_list_import_with_their_commanders(games, user) -> None:
    data = (FIXTURES / "octgn_arcane_wizardry_excerpt.o8d").read_bytes()
    for entry in parse_deck(data, filename="x.o8d").sections["main"]:
        _card(games["mtg"], entry.name)
    _card(games["mtg"], "Inalla, Archmage Ritualist", legendary=True)
    deck = deck_import(
        owner=user, game=games["mtg"], data=data, filename="x.o8d", format_slug="commander"
    ).deck
    assert deck.hero.name == "Inalla, Archmage Ritualist"
    assert dict(_by_name(deck)["main"])["Island"] == 10
    _card(games["mtg"], "Osgir, the Reconstructor", legendary=True)
    wtf = "// NAME: Lorehold\n// URL: https://mtg.wtf/deck/c21/lorehold-legacies\nCOMMANDER: 1 Osgir, the Reconstructor [foil]\n1 Sol Ring [foil]\n10 Island\n"
    result = deck_import(owner=user, game=games["mtg"], data=wtf, format_slug="commander")
    assert result.deck.hero.name == "Osgir, the Reconstructor" and result.deck.name == "Lorehold"
    assert _by_name(result.deck)["main"] == [("Island", 10), ("Sol Ring", 1)]


@pytest.mark.parametrize("art_by", ["faces", "set_type"])
def test_an_art_series_card_never_competes_with_the_real_card(games, user, art_by) -> None:
    game = games["mtg"]
    real = _card(game, "Sol Ring")
    if art_by == "faces":
        _card(game, "Sol Ring // Sol Ring", external_id="art-sol")
    else:
        # An art card imported under the plain name from a memorabilia set.
        art = _card(game, "Sol Ring", external_id="art-sol")
        Printing.objects.create(
            card=art, card_set=CardSet.objects.create(game=game, code="AC21", set_type="memorabilia")
        )
        Printing.objects.create(card=real, card_set=CardSet.objects.create(game=game, code="C21", set_type="commander"), code="263")  # fmt: skip
    for line in ("1 Sol Ring (C21) 263 *F* #Ramp", "1 Sol Ring [foil]", "1 Sol Ring"):
        deck = deck_import(owner=user, game=game, data=line, format_slug="constructed").deck
        assert _by_name(deck)["main"] == [("Sol Ring", 1)], line
        assert deck_sections(deck)["main"][0][0] == real, line


def test_the_api_takes_client_files_as_uploads_and_offers_their_exports(games, user, api_client_for) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    data = (FIXTURES / "octgn_arcane_wizardry_excerpt.o8d").read_bytes()
    for entry in parse_deck(data, filename="x.o8d").sections["main"]:
        _card(games["mtg"], entry.name)
    _card(games["mtg"], "Inalla, Archmage Ritualist", legendary=True)
    client = api_client_for(user)
    upload = SimpleUploadedFile("C2017 - Arcane Wizardry.o8d", data)
    answer = client.post(
        reverse("api-deck-import"),
        {"game": "mtg", "file": upload, "format_slug": "commander"},
        format="multipart",
    )
    assert answer.status_code == 201, answer.json()
    deck_id = answer.json()["deck"]["id"]
    forge = client.get(reverse("api-deck-export", args=[deck_id]), {"fmt": "forge"})
    assert forge.status_code == 200 and b"[Commander]\n1 Inalla, Archmage Ritualist\n" in forge.content
