"""Deck-list parsing: detection, section headers in two languages, and errors that name the line."""

from __future__ import annotations

import pytest

from decks.formats import DeckFormatError, DeckLine, DeckList, parse_deck, section_slug, to_ydk


def test_it_reads_text_lists_with_english_and_russian_headers() -> None:
    text = """// Winter pack
Hero: Странник
Основная колода:
3 Снежный Волчонок
2x Лесная Фея
Кракен x1
# a comment

Сайд
1 Береговой Краб
Main Deck (40):
1 Extra Card
"""
    deck = parse_deck(text)
    assert deck.errors == []
    assert deck.source_format == "text"
    assert deck.name == "Winter pack"
    assert deck.hero and deck.hero.ref == "Странник"
    assert deck.counts() == {
        "main": [("Снежный Волчонок", 3), ("Лесная Фея", 2), ("Кракен", 1), ("Extra Card", 1)],
        "side": [("Береговой Краб", 1)],
    }


@pytest.mark.parametrize(
    ("header", "slug"),
    [
        ("Main", "main"), ("Main Deck:", "main"), ("Extra", "extra"), ("Side", "side"), ("Sideboard", "side"),
        ("Hero", "hero"), ("Creatures", "creatures"), ("Additional", "additional"), ("Pool", "pool"),
        ("Основная колода", "main"), ("Дополнительная", "extra"), ("Сайд", "side"), ("Герой", "hero"),
        ("Существа", "creatures"), ("Дополнительный набор", "additional"), ("Side Deck (15)", "side"),
        ("Soul Bond", "soulbond"), ("Образы", "images"),
    ],
)  # fmt: skip
def test_it_normalises_section_headers(header: str, slug: str) -> None:
    assert section_slug(header) == slug


@pytest.mark.parametrize(
    ("line", "needle"),
    [("0 Dark Magician", "between 1 and 999"), ("-2 Dark Magician", "between 1 and 999"),
     ("1000 Dark Magician", "between 1 and 999"), ("Weird section:", "unknown section"),
     ("3 Bad\x00Name", "control characters"), ("1 " + "x" * 600, "longer than")],
)  # fmt: skip
def test_it_names_the_line_of_absurd_quantities_and_hostile_input(line: str, needle: str) -> None:
    deck = parse_deck("Main\n1 Fine Card\n" + line + "\n")
    assert [e.line for e in deck.errors] == [3]
    assert needle in deck.errors[0].message


def test_it_refuses_files_over_the_size_guard() -> None:
    deck = parse_deck(b"1 Card\n" * 400_000)
    assert deck.errors and "too large" in deck.errors[0].message


def test_it_reads_ydk_sections_and_names_non_passcode_lines() -> None:
    deck = parse_deck(
        "#created by me\n#main\n123\n123\n0456\n#extra\n789\n!side\n111\nabc\n", filename="x.ydk"
    )
    assert deck.counts() == {"main": [("123", 2), ("456", 1)], "extra": [("789", 1)], "side": [("111", 1)]}
    assert [(e.line, "passcode" in e.message) for e in deck.errors] == [(10, True)]


def test_it_reports_broken_ydke_links() -> None:
    assert parse_deck("ydke://!!").errors == []
    assert "base64" in parse_deck("ydke://@@@!!!").errors[0].message
    assert "truncated" in parse_deck("ydke://AAA=!!!").errors[0].message


def test_it_refuses_xml_entities_in_cockatrice_files() -> None:
    bomb = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><cockatrice_deck version="1">&a;</cockatrice_deck>'
    deck = parse_deck(bomb)
    assert deck.source_format == "cod"
    assert deck.errors and "refused" in deck.errors[0].message


def test_it_reads_cockatrice_zones() -> None:
    cod = """<?xml version="1.0" encoding="UTF-8"?>
<cockatrice_deck version="1"><deckname>Casters</deckname><comments>hi</comments>
<zone name="main"><card number="4" name="Carella Lv1"/><card number="x" name="Bad"/></zone>
<zone name="side"><card number="2" name="Spark Bolt"/></zone></cockatrice_deck>"""
    deck = parse_deck(cod)
    assert deck.name == "Casters" and deck.notes == "hi"
    assert deck.counts() == {"main": [("Carella Lv1", 4)], "side": [("Spark Bolt", 2)]}
    assert len(deck.errors) == 1 and "Bad" in deck.errors[0].message


def test_it_checks_the_json_schema() -> None:
    assert 'format" must be' in parse_deck('{"format": "other"}').errors[0].message
    bad = parse_deck(
        '{"format": "deckhall-deck", "version": 1, "sections": {"main": [{"card": "1", "count": "x"}]}}'
    )
    assert "not a whole number" in bad.errors[0].message
    assert "not valid JSON" in parse_deck("{nope").errors[0].message


def test_it_checks_csv_headers_and_counts() -> None:
    assert "header" in parse_deck("a,b\n1,2\n", fmt="csv").errors[0].message
    deck = parse_deck("section,count,card,name\nmain,3,123,Foo\nmain,zero,124,Bar\n")
    assert deck.counts() == {"main": [("123", 3)]}
    assert deck.errors[0].line == 3


def test_it_refuses_ydk_for_decks_without_passcodes() -> None:
    with pytest.raises(DeckFormatError):
        to_ydk(DeckList(sections={"main": [DeckLine("Carella Lv1", "Carella Lv1", 4)]}))
    with pytest.raises(DeckFormatError):
        to_ydk(DeckList(sections={"main": []}, hero=DeckLine("1", "Hero", 1)))


def test_it_reads_a_downloaded_ydke_link_saved_as_txt() -> None:
    # The ydke export downloads as a .txt file; uploading that file back must read the link, not text lines.
    link = to_ydke_link()
    deck = parse_deck(link.encode(), filename="Magicians.txt")
    assert deck.errors == [] and deck.source_format == "ydke"
    assert deck.counts() == {"main": [("46986414", 3)], "extra": [("44508094", 1)]}
    assert (
        parse_deck("section,count,card,name\nmain,2,89631139,BEWD\n", filename="x.txt").source_format == "csv"
    )
    assert parse_deck("3 Dark Magician\n", filename="x.txt").source_format == "text"


def to_ydke_link() -> str:
    from decks.formats import to_ydke

    return to_ydke(
        DeckList(sections={"main": [DeckLine("46986414", "DM", 3)], "extra": [DeckLine("44508094", "SD", 1)]})
    )
