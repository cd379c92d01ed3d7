from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from cards.models import Card
from tests.cards.conftest import deckhall_json, es_card

pytestmark = pytest.mark.django_db


def test_it_imports_a_file_and_reports_counts(games, cdb_bytes, tmp_path, capsys):
    path = tmp_path / "cards.cdb"
    path.write_bytes(cdb_bytes())
    call_command("import_cards", "--game", "yugioh", str(path))
    assert "8 created" in capsys.readouterr().out
    assert Card.objects.filter(game=games["yugioh"]).count() == 8


def test_it_fails_listing_every_error(games, tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_bytes(deckhall_json([es_card("1", "", level=5000), es_card("2", "ok", cost=-1)]))
    with pytest.raises(CommandError, match="3 error"):
        call_command("import_cards", "--game", "everseal", str(path))
    err = capsys.readouterr().err
    assert "field 'name'" in err and "field 'level'" in err and "field 'cost'" in err
    assert not Card.objects.exists()


def test_it_names_an_unknown_game_or_missing_file(games, tmp_path):
    with pytest.raises(CommandError, match="unknown game 'chess'"):
        call_command("import_cards", "--game", "chess", str(tmp_path / "x"))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_cards", "--game", "everseal", str(tmp_path / "missing.json"))


def test_export_then_import_round_trips(games, tmp_path):
    path = tmp_path / "in.json"
    path.write_bytes(deckhall_json([es_card("1", "Волк")]))
    call_command("import_cards", "--game", "everseal", str(path))
    out = tmp_path / "out.csv"
    call_command("export_cards", "--game", "everseal", "--format", "csv", str(out))
    Card.objects.all().delete()
    call_command("import_cards", "--game", "everseal", str(out))
    assert Card.objects.get().attributes["keywords"] == ["Стая"]
