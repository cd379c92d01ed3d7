"""Deck text as players paste it, each dialect detected from the text alone: MTGO / Cockatrice text,
MTG Arena, Magic Workstation .dec and Russian headers. The examples are shaped as those tools write
them; the Arena one is a real export from ../shared/data."""

from __future__ import annotations

from pathlib import Path

import pytest

from decks.formats import parse_deck

# MTGO's "Save as .txt" and Cockatrice's plain-text export: main deck, one blank line, sideboard.
MTGO_TXT = """4 Elvish Reclaimer
4 Leafkin Druid
20 Forest
2 Veil of Summer

3 Aether Gust
2 Shock
"""
# Cockatrice's clipboard export with "SB:" prefixes, and the Moxfield / MTGGoldfish "// Sideboard" header.
COCKATRICE_SB = "4 Elvish Reclaimer\n20 Forest\nSB: 3 Aether Gust\nSB: 2 Shock\n"
SLASH_HEADER = "// Deck\n4 Elvish Reclaimer\n20 Forest\n\n// Sideboard\n3 Aether Gust\n2 Shock\n"
# Magic Workstation as mtgtop8.com exports it (banner, NAME/CREATOR/FORMAT fields, set tags,
# "(1)" artwork numbers, "// Lands"-style groups inside the main deck, "SB:" lines).
MWS_DEC = """// Deck file for Magic Workstation created with mtgtop8.com
// NAME : Elves
// CREATOR : someone
// FORMAT : Standard

// Lands
        20 [M20] Forest (1)
// Creatures
        4 [M20] Elvish Reclaimer
        4 [M20] Leafkin Druid
SB:  3 [M20] Aether Gust
SB:  2 [] Shock
"""
# Arena's own export: an About block, Commander / Deck / Sideboard headers, set codes and numbers.
ARENA_FULL = """About
Name Elves

Commander
1 Kelsien, the Plague (SLD) 1558

Deck
4 Elvish Reclaimer (M20) 180
20 Forest (M20) 278
1 Bonecrusher Giant // Stomp (ELD) 115 *F*

Sideboard
3 Aether Gust (M20) 42
"""
# How Russian players write a list (topdeck.ru, VK groups): "Колода (N)", "Сайдборд (N)", "Командир".
RUSSIAN = """Колода (24)
4 Elvish Reclaimer
20 Forest

Сайдборд (5)
3 Aether Gust
2 Shock

Командир
1 Kelsien, the Plague
"""
MAIN = [("Elvish Reclaimer", 4), ("Leafkin Druid", 4), ("Forest", 20), ("Veil of Summer", 2)]
SIDE = [("Aether Gust", 3), ("Shock", 2)]


def test_mtgo_text_puts_the_cards_after_the_one_blank_line_in_the_sideboard():
    deck = parse_deck(MTGO_TXT, filename="elves.txt")
    assert deck.source_format == "mtgo" and deck.errors == []
    assert deck.counts() == {"main": MAIN, "side": SIDE}


def test_sb_prefixed_lines_and_sideboard_headers_are_the_sideboard():
    for text in (
        COCKATRICE_SB,
        SLASH_HEADER,
        "4 Elvish Reclaimer\n20 Forest\nSideboard\n3 Aether Gust\n2 Shock\n",
    ):
        deck = parse_deck(text)
        assert deck.errors == []
        assert deck.counts() == {"main": [("Elvish Reclaimer", 4), ("Forest", 20)], "side": SIDE}, text
    assert parse_deck(COCKATRICE_SB).source_format == "mtgo"


def test_several_blank_lines_are_only_grouping():
    deck = parse_deck("4 Elvish Reclaimer\n\n20 Forest\n\n2 Shock\n")
    assert deck.counts() == {"main": [("Elvish Reclaimer", 4), ("Forest", 20), ("Shock", 2)]}
    assert deck.source_format == "text"


def test_magic_workstation_dec_files_are_read():
    deck = parse_deck(MWS_DEC.encode(), filename="elves.dec")
    assert deck.source_format == "mws" and deck.errors == [] and deck.name == "Elves"
    assert deck.counts() == {
        "main": [("Forest", 20), ("Elvish Reclaimer", 4), ("Leafkin Druid", 4)],
        "side": SIDE,
    }


def test_arena_exports_name_set_and_number_and_sections():
    deck = parse_deck(ARENA_FULL)
    assert deck.source_format == "arena" and deck.errors == [] and deck.name == "Elves"
    assert deck.hero is not None and deck.hero.ref == "Kelsien, the Plague"
    assert deck.counts() == {
        "main": [("Elvish Reclaimer", 4), ("Forest", 20), ("Bonecrusher Giant // Stomp", 1)],
        "side": [("Aether Gust", 3)],
    }


def test_the_real_arena_export_is_read(shared_data: Path):
    deck = parse_deck((shared_data / "mtg" / "text" / "arena_deckview_head.txt").read_bytes())
    assert deck.source_format == "arena" and deck.errors == []
    main = dict(deck.counts()["main"])
    assert main["Plains"] == 2 and main["Jace, the Perfected Mind"] == 3 and len(main) == 14
    assert sum(main.values()) == 25


def test_russian_headers_name_main_side_and_commander():
    deck = parse_deck(RUSSIAN)
    assert deck.errors == [] and deck.hero is not None and deck.hero.ref == "Kelsien, the Plague"
    assert deck.counts() == {"main": [("Elvish Reclaimer", 4), ("Forest", 20)], "side": SIDE}


def test_caster_levels_in_parentheses_are_not_taken_for_arena_set_codes():
    deck = parse_deck("2 Carella (Lv2)\n1 Number 39: Utopia\n")
    assert deck.counts() == {"main": [("Carella (Lv2)", 2), ("Number 39: Utopia", 1)]}


# --- through the database, against the real M20 set file ----------------------------------------


@pytest.fixture
def mtg(shared_data: Path, games) -> object:  # type: ignore[no-untyped-def]
    """Magic: The Gathering (games/rulesets/mtg.toml) with the real M20 cards."""
    from cards.services import cards_import

    m20 = shared_data / "mtg" / "cockatrice" / "M20.xml"
    assert cards_import(game=games["mtg"], data=m20.read_bytes(), filename=m20.name).ok
    return games["mtg"]


@pytest.mark.parametrize("text", [MTGO_TXT, MWS_DEC, SLASH_HEADER.replace("// Deck\n", "")])
def test_each_dialect_imports_as_a_deck_with_its_sideboard(mtg, user, text):
    from decks.selectors import deck_sections
    from decks.services import deck_import

    result = deck_import(owner=user, game=mtg, data=text, format_slug="constructed", name="Elves")
    sections = {
        slug: {card.name: n for card, n in lines} for slug, lines in deck_sections(result.deck).items()
    }
    assert sections["side"] == {"Aether Gust": 3, "Shock": 2}
    assert sections["main"]["Elvish Reclaimer"] == 4 and sections["main"]["Forest"] == 20


def test_a_cod_zone_named_as_the_rule_set_titles_a_section_lands_there(mtg, user):
    from decks.selectors import deck_sections
    from decks.services import deck_import

    cod = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_deck version="1"><deckname>Elves</deckname>
  <zone name="Основная колода"><card number="20" name="Forest"/></zone>
  <zone name="sideboard"><card number="2" name="Shock"/></zone>
</cockatrice_deck>"""
    result = deck_import(owner=user, game=mtg, data=cod, format_slug="constructed")
    sections = deck_sections(result.deck)
    assert [(c.name, n) for c, n in sections["main"]] == [("Forest", 20)]
    assert [(c.name, n) for c, n in sections["side"]] == [("Shock", 2)]


def test_the_real_cod_decks_import_and_list_their_reprints_from_other_sets(mtg, shared_data: Path, user):
    """The M20 precons reference reprints from sets outside the four shared files: those lines are
    listed as unknown (never dropped silently) and every other card lands in its zone's section."""
    from cards.services import cards_import
    from decks.formats import parse_deck
    from decks.services import deck_import

    for name in ("ELD.xml", "INR.xml", "UNF.xml"):
        path = shared_data / "mtg" / "cockatrice" / name
        assert cards_import(game=mtg, data=path.read_bytes(), filename=name).ok
    files = sorted((shared_data / "mtg" / "cod").glob("*.cod"))
    assert len(files) == 15
    for path in files:
        data = path.read_bytes()
        parsed = parse_deck(data, filename=path.name)
        assert parsed.errors == [] and set(parsed.sections) <= {"main", "side"}, path.name
        result = deck_import(
            owner=user, game=mtg, data=data, filename=path.name, format_slug="constructed", allow_unknown=True
        )
        imported = sum(n for lines in result.resolved.sections.values() for _c, n in lines)
        assert imported + sum(u.count for u in result.unknown) == parsed.total, path.name
        assert all(u.reason == "unknown" for u in result.unknown), path.name


# MTGO's "Save as .dek": XML with one <Cards> element per card line.
MTGO_DEK = """<?xml version="1.0" encoding="utf-8"?>
<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <NetDeckID>0</NetDeckID>
  <PreconstructedDeckID>0</PreconstructedDeckID>
  <Cards CatID="75269" Quantity="4" Sideboard="false" Name="Elvish Reclaimer" Annotation="0" />
  <Cards CatID="72866" Quantity="20" Sideboard="false" Name="Forest" Annotation="0" />
  <Cards CatID="75197" Quantity="3" Sideboard="true" Name="Aether Gust" Annotation="0" />
</Deck>
"""


def test_mtgo_dek_xml_is_read():
    deck = parse_deck(MTGO_DEK.encode(), filename="elves.dek")
    assert deck.source_format == "mtgo" and deck.errors == []
    assert deck.counts() == {"main": [("Elvish Reclaimer", 4), ("Forest", 20)], "side": [("Aether Gust", 3)]}
