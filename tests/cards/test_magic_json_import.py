"""MTGJSON (AllPrintings, a set file, AtomicCards) and Scryfall bulk files import Magic's cards with their faces,
printings, languages, legalities and pictures, read as a stream from disk."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from cards.importers import detect_format
from cards.models import Card, Printing
from cards.services import cards_import
from tests.cards import magic_files

pytestmark = pytest.mark.django_db


def _import(games, tmp_path, name, document, game="mtg"):
    path = magic_files.write(tmp_path / name, document)
    return cards_import(game=games[game], data=b"", source=path)


def test_it_imports_all_printings_with_faces_sets_and_pictures(games, tmp_path):
    result = _import(games, tmp_path, "AllPrintings.json", magic_files.all_printings())
    assert result.ok, result.errors
    assert result.fmt == "mtgjson" and result.created == 5
    assert any("art_series 1" in str(w) for w in result.warnings)  # Sol Ring // Sol Ring is no deck card
    giant = Card.objects.get(game__slug="mtg", name="Bonecrusher Giant // Stomp")
    assert giant.card_type == "creature" and giant.cost == 3
    assert [face["name"] for face in giant.attributes["faces"]] == ["Bonecrusher Giant", "Stomp"]
    assert giant.attributes["layout"] == "adventure" and giant.attributes["power"] == 4
    delver = Card.objects.get(name="Delver of Secrets // Insectile Aberration")
    assert delver.attributes["legalities"]["vintage"] == "restricted"
    assert delver.attributes["faces"][1] == {
        "name": "Insectile Aberration",
        "type_line": "Creature — Human Insect",
        "text": "Flying",
        "power": "3",
        "toughness": "2",
    }
    valakut = Card.objects.get(name="Valakut Awakening // Valakut Stoneforge")
    assert valakut.card_type == "instant" and "land" in valakut.attributes["types"]  # MDFC: front's type
    fire = Card.objects.get(name="Fire // Ice")
    assert fire.cost == 4 and sorted(fire.attributes["color"]) == ["R", "U"]
    opt = Card.objects.get(name="Opt")
    assert opt.attributes["languages"] == ["de", "en", "ja"]
    printings = {
        (p.card_set.code, p.code, p.rarity, p.image_url)
        for p in Printing.objects.filter(card=opt).select_related("card_set")
    }
    assert printings == {
        (
            "ELD",
            "59",
            "common",
            "https://cards.scryfall.io/normal/front/a/5/a5f6a2b3-9ef5-4d3e-a0e4-c3d9d1f4f0a1.jpg",
        ),
        (
            "M20",
            "65",
            "common",
            "https://cards.scryfall.io/normal/front/f/0/f0f1a2b3-0000-4000-8000-000000000065.jpg",
        ),
    }
    eld = Printing.objects.filter(card=opt, card_set__code="ELD").get().card_set
    assert (eld.name, eld.set_type, str(eld.release_date)) == (
        "Throne of Eldraine",
        "expansion",
        "2019-10-04",
    )


def test_it_reads_one_sets_file_and_then_atomic_cards_without_losing_printings(games, tmp_path):
    assert _import(games, tmp_path, "ELD.json", magic_files.one_set()).created == 2
    result = _import(games, tmp_path, "AtomicCards.json", magic_files.atomic_cards())
    assert result.ok and result.created == 2 and result.updated == 1  # Opt gains the printings list
    opt = Card.objects.get(name="Opt")
    assert opt.printings.count() == 1  # AtomicCards names sets, it does not speak for their printings
    assert opt.attributes["printings"] == ["ELD", "M20"]


def test_it_imports_scryfall_default_cards(games, tmp_path):
    result = _import(games, tmp_path, "default-cards.json", magic_files.default_cards())
    assert result.ok, result.errors
    assert result.fmt == "scryfall" and result.created == 4
    assert not Card.objects.filter(name__in=["Goblin", "Sol Ring // Sol Ring"]).exists()
    opt = Card.objects.get(name="Opt")
    assert opt.attributes["languages"] == ["en", "ja"]
    assert sorted(opt.printings.values_list("card_set__code", flat=True)) == ["ELD", "M20"]
    delver = Card.objects.get(name="Delver of Secrets // Insectile Aberration")
    picture = delver.printings.get().image_url
    assert picture.startswith("https://cards.scryfall.io/normal/front/8/7/")  # the front face's picture
    assert delver.attributes["color"] == "U"


def test_it_tells_the_formats_apart_by_content():
    assert detect_format(b'{"meta": {"date": "2026-11-20", "version": "5.2.2"}, "data": {}}') == "mtgjson"
    assert detect_format(b'[{"object": "card", "id": "x", "name": "Opt"}]') == "scryfall"
    assert detect_format(b'{"format": "deckhall-cards", "version": 1, "cards": []}') == "json"


def test_it_refuses_magic_files_for_another_game(games, tmp_path):
    result = _import(games, tmp_path, "AllPrintings.json", magic_files.all_printings(), game="yugioh")
    assert not result.ok and "mtg" in str(result.errors[0])
    assert not Card.objects.exists()


def test_it_refuses_a_truncated_file_and_writes_nothing(games, tmp_path):
    path = tmp_path / "default-cards.json"
    magic_files.write(path, magic_files.default_cards())
    path.write_bytes(path.read_bytes()[:-200])
    result = cards_import(game=games["mtg"], data=b"", source=path)
    assert not result.ok and "JSON" in str(result.errors[0])
    assert not Card.objects.exists()


def test_the_command_streams_the_file_from_disk(games, tmp_path):
    path = magic_files.write(tmp_path / "AllPrintings.json", magic_files.all_printings())
    out = StringIO()
    call_command("import_cards", "--game", "mtg", str(path), stdout=out, stderr=StringIO())
    assert "5 cards from AllPrintings.json (mtgjson)" in out.getvalue()
