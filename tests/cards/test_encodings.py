"""Files saved by spreadsheets and editors in other encodings or separators."""

from __future__ import annotations

import json

import pytest

from cards.models import Card
from cards.services import cards_import

pytestmark = pytest.mark.django_db


def test_it_reads_excel_unicode_text_utf16_with_tabs(games):
    data = "external_id\tname\tattr.size\n1\tВолк\tS\n".encode("utf-16")  # BOM + UTF-16-LE
    result = cards_import(game=games["everseal"], data=data, filename="cards.csv")
    assert result.ok, result.errors
    assert Card.objects.get().name == "Волк" and Card.objects.get().attributes == {"size": "S"}


def test_it_reads_a_csv_separated_by_semicolons(games):
    data = 'external_id;name;text\n1;Волк;"a; b"\n'.encode()
    result = cards_import(game=games["everseal"], data=data, filename="cards.csv")
    assert result.ok, result.errors
    assert Card.objects.get().text == "a; b"


@pytest.mark.parametrize("encoding", ["cp1251", "koi8-r"])
def test_it_refuses_a_legacy_encoding_naming_the_line_and_the_fix(games, encoding):
    data = "external_id,name\n1,Wolf\n2,Волк\n".encode(encoding)
    result = cards_import(game=games["everseal"], data=data, filename="cards.csv")
    assert not result.ok and result.errors[0].line == 3
    assert "not UTF-8" in result.errors[0].reason and "CSV UTF-8" in result.errors[0].reason
    assert not Card.objects.exists()


def test_it_reads_utf16_json(games):
    doc = {"format": "deckhall-cards", "cards": [{"external_id": "1", "name": "Ёж"}]}
    result = cards_import(game=games["everseal"], data=json.dumps(doc).encode("utf-16"), filename="x.json")
    assert result.ok, result.errors
    assert Card.objects.get().search_name == "ёж"


def test_it_reads_cockatrice_xml_in_utf16_and_in_a_declared_legacy_encoding(games):
    body = (
        '<cockatrice_carddatabase version="3"><cards><card><name>{}</name><type>Servant</type></card>'
        "</cards></cockatrice_carddatabase>"
    )
    utf16 = ('<?xml version="1.0" encoding="UTF-16"?>' + body.format("Волк")).encode("utf-16")
    assert cards_import(game=games["caster"], data=utf16, filename="c.xml").ok
    cp1251 = ('<?xml version="1.0" encoding="windows-1251"?>' + body.format("Ёж")).encode("cp1251")
    assert cards_import(game=games["caster"], data=cp1251, filename="c.xml").ok
    assert set(Card.objects.values_list("name", flat=True)) == {"Волк", "Ёж"}
