"""Deck files as XMage, Forge, OCTGN, MTGJSON and mtg.wtf write them, read as each client reads them
(pure parsers, no database). The files are real excerpts: tests/decks/fixtures/clients/SOURCES.md."""

from __future__ import annotations

import json
from pathlib import Path

from decks.formats import parse_deck

FIXTURES = Path(__file__).parent / "fixtures" / "clients"


def _read(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def test_it_reads_an_xmage_file_with_its_name_metadata_and_comments() -> None:
    deck = parse_deck(_read("xmage_blood_and_fire.dck"), filename="[M12] Blood and Fire.dck")
    assert not deck.errors
    assert deck.source_format == "xmage"
    assert deck.name == "Blood and Fire"
    assert deck.total == 60
    main = dict(deck.counts()["main"])
    assert main["Bloodrage Vampire"] == 2 and main["Swamp"] == 10 and main["Mountain"] == 14
    assert "NAME:Blood and Fire" not in main
    assert {(line.reason, line.text) for line in deck.skipped} >= {
        ("metadata", "NAME:Blood and Fire"),
        ("metadata", "AUTHOR:WotC"),
        ("comment", "# Land"),
    }


def test_it_skips_xmage_layout_lines_of_any_length_and_names_the_sideboard_commander() -> None:
    data = _read("xmage_lorehold_legacies_excerpt.dck")
    assert max(len(line) for line in data.splitlines()) > 1000  # the line the old reader refused whole
    deck = parse_deck(data, filename="Lorehold Legacies (RW).dck")
    assert not deck.errors
    assert deck.source_format == "xmage"
    assert dict(deck.counts()["main"])["Mountain"] == 12
    assert deck.counts()["side"] == [("Osgir, the Reconstructor", 1)]
    assert deck.commanders == ["Osgir, the Reconstructor"]
    assert [line.reason for line in deck.skipped] == ["layout", "layout"]


def test_it_reads_an_xmage_paste_without_the_file_name() -> None:
    text = _read("xmage_lorehold_legacies_excerpt.dck").decode()
    deck = parse_deck(text)
    assert deck.source_format == "xmage" and not deck.errors
    assert deck.commanders == ["Osgir, the Reconstructor"]


def test_it_strips_xmage_variant_marks_from_collector_numbers() -> None:
    text = "NAME:RB Aggro\n1 [WAR:2*] Ugin, the Ineffable\n1 [ODY:72+] Cephalid Looter\nSB: 3 [ZNR:315] Archon of Emeria\n"
    deck = parse_deck(text, filename="rb.dck")
    assert deck.counts() == {
        "main": [("Ugin, the Ineffable", 1), ("Cephalid Looter", 1)],
        "side": [("Archon of Emeria", 3)],
    }
    assert deck.commanders == []  # three copies: a sideboard, not a commander


def test_it_reads_a_forge_file_with_its_commander_foil_mark_and_printings() -> None:
    deck = parse_deck(_read("forge_aura_of_courage_excerpt.dck"), filename="Aura of Courage [AFC] [2021].dck")
    assert not deck.errors
    assert deck.source_format == "forge"
    assert deck.name == "Aura of Courage [AFC] [2021]"
    assert deck.hero is not None and deck.hero.ref == "Galea, Kindler of Hope"
    main = dict(deck.counts()["main"])
    assert main["Forest"] == 8 and main["Sol Ring"] == 1 and "Forest|AFR" not in main
    assert sum(main.values()) == 21


def test_it_tells_forge_from_xmage_by_content_and_reads_forge_sections() -> None:
    text = "[metadata]\nName=Test\nDescription=A deck\n[Main]\n4 Lightning Bolt|M10|2\n20 Mountain\n[Sideboard]\n2 Searing Blood\n[Planes]\n1 Akoum\n"
    deck = parse_deck(text)
    assert deck.source_format == "forge" and deck.notes == "A deck"
    assert deck.counts() == {
        "main": [("Lightning Bolt", 4), ("Mountain", 20)],
        "side": [("Searing Blood", 2)],
        "planes": [("Akoum", 1)],
    }


def test_it_names_a_card_line_standing_before_any_forge_section() -> None:
    deck = parse_deck("4 Lightning Bolt\n[Main]\n1 Shock\n", fmt="dck")
    # Without a leading section the file is XMage-like text; with one first, Forge.
    assert not deck.errors
    forge = parse_deck("[metadata]\nName=x\n4 Lightning Bolt\n", fmt="dck")
    assert forge.source_format == "forge" and not forge.errors  # metadata section: a stray line is skipped
    stray = parse_deck("[metadata]\nName=x\n", fmt="dck")
    assert stray.source_format == "forge" and stray.total == 0


def test_it_reads_an_octgn_deck_with_its_command_zone() -> None:
    deck = parse_deck(_read("octgn_arcane_wizardry_excerpt.o8d"), filename="C2017 - Arcane Wizardry.o8d")
    assert not deck.errors
    assert deck.source_format == "o8d"
    assert deck.hero is not None and deck.hero.name == "Inalla, Archmage Ritualist"
    main = {entry.name: entry.count for entry in deck.sections["main"]}
    assert main["Island"] == 10 and main["Sol Ring"] == 1 and len(main) == 7
    assert all(
        entry.by == "id" for entry in deck.sections["main"]
    )  # OCTGN's GUID first, the name as fallback


MTGJSON_DECK = {
    "meta": {"date": "2021-04-23", "version": "5.2.0"},
    "data": {
        "code": "C21",
        "name": "Lorehold Legacies",
        "releaseDate": "2021-04-23",
        "type": "Commander Deck",
        "commander": [{"count": 1, "name": "Osgir, the Reconstructor", "uuid": "u-osgir", "isFoil": True}],
        "displayCommander": [{"count": 1, "name": "Osgir, the Reconstructor", "uuid": "u-osgir"}],
        "mainBoard": [
            {"count": 1, "name": "Sol Ring", "uuid": "u-sol"},
            {"count": 12, "name": "Mountain", "uuid": "u-mountain"},
        ],
        "sideBoard": [],
        "tokens": [{"count": 1, "name": "Spirit", "uuid": "u-token"}],
    },
}


def test_it_reads_an_mtgjson_deck_file_wrapped_or_bare_by_content_or_name() -> None:
    for data, filename in (
        (json.dumps(MTGJSON_DECK), None),
        (json.dumps(MTGJSON_DECK["data"]), "LoreholdLegacies_C21.json"),
    ):
        deck = parse_deck(data, filename=filename)
        assert not deck.errors, deck.errors
        assert deck.source_format == "mtgjson"
        assert deck.name == "Lorehold Legacies"
        assert deck.hero is not None and (deck.hero.ref, deck.hero.name) == (
            "u-osgir",
            "Osgir, the Reconstructor",
        )
        assert deck.extra_heroes == []  # the display commander is the same card, not a partner
        assert deck.counts() == {"main": [("u-sol", 1), ("u-mountain", 12)]}  # tokens are no deck cards


def test_it_refuses_an_mtgjson_document_without_a_main_board() -> None:
    deck = parse_deck('{"data": {"name": "x"}}', fmt="mtgjson")
    assert [error.code for error in deck.errors] == ["mtgjson_shape"]
    bad = parse_deck('{"mainBoard": [{"count": 0, "name": "Sol Ring"}, "x"]}')
    assert [error.code for error in bad.errors] == ["quantity_range", "json_entry_shape"]


MTGWTF = """// NAME: Lorehold Legacies - Commander 2021
// URL: https://mtg.wtf/deck/c21/lorehold-legacies
// DATE: 2021-04-23
COMMANDER: 1 Osgir, the Reconstructor [foil]
1 Alibou, Ancient Witness [foil]
1 Sol Ring
12 Mountain
"""


def test_it_reads_mtg_wtf_lists_with_their_commander_line_and_foil_marks() -> None:
    deck = parse_deck(MTGWTF)
    assert not deck.errors
    assert deck.source_format == "mtgwtf"
    assert deck.name == "Lorehold Legacies - Commander 2021"
    assert deck.hero is not None and deck.hero.ref == "Osgir, the Reconstructor"
    assert deck.counts() == {"main": [("Alibou, Ancient Witness", 1), ("Sol Ring", 1), ("Mountain", 12)]}
    partners = parse_deck(
        "COMMANDER: 1 Tymna the Weaver\nPARTNER: 1 Thrasios, Triton Hero\nCOMPANION: 1 Lurrus of the Dream-Den\n1 Sol Ring\n"
    )
    assert partners.hero is not None and partners.hero.ref == "Tymna the Weaver"
    assert [entry.ref for entry in partners.extra_heroes] == ["Thrasios, Triton Hero"]
    assert partners.counts()["side"] == [("Lurrus of the Dream-Den", 1)]
