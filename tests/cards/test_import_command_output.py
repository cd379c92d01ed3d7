"""What the card commands print: warnings of an import that succeeded, and output ending in a newline."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from tests.cards.conftest import GOOD_ROWS, deckhall_json, es_card

pytestmark = pytest.mark.django_db


def test_import_cards_prints_the_warnings_and_counts_them(games, cdb_bytes, tmp_path):
    skill = (300000001, 4, 0, 0, 0x8000000, 0, 0, 0, 0, 0, "Destiny Board Skill", "Skill.")
    path = tmp_path / "cards.cdb"
    path.write_bytes(cdb_bytes([*GOOD_ROWS, skill]))
    out, err = io.StringIO(), io.StringIO()
    call_command("import_cards", "--game", "yugioh", str(path), stdout=out, stderr=err)
    assert "9 created" in out.getvalue() and "1 warning(s)" in out.getvalue()
    assert err.getvalue().startswith("cards.cdb: warning: line 300000001 (Destiny Board Skill), field 'type'")


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_export_cards_to_standard_output_ends_with_one_newline(games, tmp_path, fmt):
    path = tmp_path / "in.json"
    path.write_bytes(deckhall_json([es_card("1", "Волк")]))
    call_command("import_cards", "--game", "everseal", str(path), stdout=io.StringIO())
    out = io.StringIO()
    call_command("export_cards", "--game", "everseal", "--format", fmt, "-", stdout=out)
    assert out.getvalue().endswith("\n") and not out.getvalue().endswith("\n\n")
