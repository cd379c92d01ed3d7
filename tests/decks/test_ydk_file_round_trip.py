"""A .ydk comes back as its author wrote it: header and comment lines, card order with repeated
passcodes in place, line endings; edits change only the card lines. Plus both ydke alphabets and the
export command's terminal output."""

from __future__ import annotations

import base64
import importlib.util
import io
import logging
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from cards.models import Card
from decks.formats import parse_deck
from decks.services import deck_export, deck_import, deck_update

pytestmark = pytest.mark.django_db

AUTHORED = (
    "#created by YGOProDeck\r\n"
    "#source: https://ygoprodeck.com/deck/magicians-123\r\n"
    "#main\r\n"
    "46986414\r\n"
    "55144522\r\n"
    "46986414\r\n"
    "#deck notes: the second Magician is a tech choice\r\n"
    "\r\n"
    "#extra\r\n"
    "44508094\r\n"
    "!side\r\n"
    "44095762\r\n"
)


def _import(user: Any, games: dict[str, Any], data: bytes, name: str = "deck.ydk") -> Any:
    result = deck_import(owner=user, game=games["yugioh"], data=data, filename=name, format_slug="advanced")
    return result.deck


def test_an_unedited_deck_exports_the_authors_file_byte_for_byte(sample_cards, user):
    deck = _import(user, sample_cards, AUTHORED.encode())
    assert deck_export(deck=deck, fmt="ydk").content == AUTHORED.encode()


def test_lf_files_stay_lf_and_a_missing_last_newline_stays_missing(sample_cards, user):
    text = "#main\n46986414\n55144522\n#extra\n!side\n44095762"
    deck = _import(user, sample_cards, text.encode())
    assert deck_export(deck=deck, fmt="ydk").content == text.encode()


def test_a_byte_order_mark_is_kept(sample_cards, user):
    data = "\ufeff#created by MDPro3\n#main\n46986414\n#extra\n!side\n".encode()
    deck = _import(user, sample_cards, data)
    assert deck_export(deck=deck, fmt="ydk").content == data


def test_an_edited_deck_keeps_the_authors_lines_and_changes_only_cards(sample_cards, user, card):
    deck = _import(user, sample_cards, AUTHORED.encode())
    magician, pot, raigeki = card("yugioh", "46986414"), card("yugioh", "55144522"), card("yugioh", "Raigeki")
    deck_update(
        deck=deck,
        by=user,
        sections={
            "main": [(magician, 1), (pot, 1), (raigeki, 2)],
            "extra": [(card("yugioh", "44508094"), 1)],
            "side": [(card("yugioh", "44095762"), 1)],
        },
    )
    lines = deck_export(deck=deck, fmt="ydk").content.decode().split("\r\n")
    assert lines == [
        "#created by YGOProDeck",
        "#source: https://ygoprodeck.com/deck/magicians-123",
        "#main",
        "46986414",
        "55144522",
        "12580477",  # added cards go after the last card of their section
        "12580477",
        "#deck notes: the second Magician is a tech choice",
        "",
        "#extra",
        "44508094",
        "!side",
        "44095762",
        "",
    ]


def test_cards_added_to_a_section_the_file_lacks_get_its_marker(sample_cards, user, card):
    deck = _import(user, sample_cards, b"#created by someone\n46986414\n")
    deck_update(
        deck=deck,
        by=user,
        sections={"main": [(card("yugioh", "46986414"), 1)], "side": [(card("yugioh", "44095762"), 1)]},
    )
    assert deck_export(deck=deck, fmt="ydk").content == b"#created by someone\n46986414\n!side\n44095762\n"


def test_a_deck_built_in_deckhall_gets_the_plain_header(ygo_deck):
    assert deck_export(deck=ygo_deck, fmt="ydk").content.startswith(b"#created by Deckhall\n#main\n")


def test_every_real_ydk_survives_import_and_export_byte_for_byte(shared_data: Path, games, user):
    from cards.services import cards_import

    cdb = shared_data / "ygo" / "cdb" / "cards-2020-03-30.cdb"
    assert cards_import(game=games["yugioh"], data=cdb.read_bytes(), filename=cdb.name).ok
    files = sorted((shared_data / "ygo" / "ydk").glob("*.ydk"))
    # Some decks hold cards newer than the 2020 database; give those passcodes a card so every file
    # can be imported whole (with the 2020 database alone they import without those cards).
    known = set(Card.objects.filter(game=games["yugioh"]).values_list("external_id", flat=True))
    newer = {
        e.ref
        for path in files
        for entries in parse_deck(path.read_bytes(), filename=path.name).sections.values()
        for e in entries
        if e.ref not in known
    }
    Card.objects.bulk_create(
        Card(
            game=games["yugioh"], external_id=ref, identity=ref, name=f"Card {ref}", search_name=f"card {ref}"
        )
        for ref in newer
    )
    same = [
        path.name
        for path in files
        if deck_export(deck=_import(user, games, path.read_bytes(), path.name), fmt="ydk").content
        == path.read_bytes()
    ]
    assert len(files) == 12 and len(same) == 12


def test_ydke_accepts_the_url_safe_alphabet_and_missing_padding():
    # Passcodes whose little-endian bytes encode to "+" and "/" in standard base64.
    raw = (4227858431).to_bytes(4, "little") + (1000).to_bytes(4, "little")
    standard = base64.b64encode(raw).decode()
    assert "+" in standard or "/" in standard
    url_safe = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    for link in (f"ydke://{standard}!!!", f"ydke://{url_safe}!!!"):
        deck = parse_deck(link)
        assert deck.errors == [] and deck.counts() == {"main": [("4227858431", 1), ("1000", 1)]}, link


def test_export_deck_ends_a_ydke_link_with_a_newline(ygo_deck):
    out = io.StringIO()
    call_command("export_deck", str(ygo_deck.pk), "--format", "ydke", stdout=out)
    assert out.getvalue().startswith("ydke://") and out.getvalue().endswith("!\n")
    assert out.getvalue().count("\n") == 1


def test_export_deck_keeps_pdf_library_logs_out_of_the_terminal(ygo_deck, tmp_path, caplog):
    if importlib.util.find_spec("weasyprint") is None:  # not importing it: that logs on its own
        pytest.skip("WeasyPrint is not installed")
    caplog.set_level(logging.DEBUG)
    err = io.StringIO()
    target = tmp_path / "deck.pdf"
    call_command("export_deck", str(ygo_deck.pk), "--format", "pdf", "-o", str(target), stderr=err)
    assert target.read_bytes().startswith(b"%PDF")
    assert not [r for r in caplog.records if r.name.startswith(("weasyprint", "fontTools"))]
    assert err.getvalue() == f"wrote {target}\n"
    # The loggers are restored for the rest of the process (web PDFs keep their warnings in the log).
    assert logging.getLogger("weasyprint").level == logging.NOTSET


def test_a_file_of_thousands_of_comments_is_not_kept_with_the_deck():
    from decks.formats.parse import MAX_LAYOUT_LINES

    text = "#main\n46986414\n" + "#note\n" * MAX_LAYOUT_LINES
    deck = parse_deck(text, fmt="ydk")
    assert deck.errors == [] and deck.layout is None
    assert deck.counts() == {"main": [("46986414", 1)]}
