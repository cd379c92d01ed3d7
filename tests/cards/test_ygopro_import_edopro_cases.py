"""What EDOPro reads, Deckhall reads: rows without text are skipped and unknown card types are imported
as not deck-buildable, both with a warning in the import report; views and triggers are refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cards.api import ImportJobSerializer
from cards.models import Card, ImportJob
from cards.services import cards_import, import_job_create, import_job_run
from tests.cards.conftest import DATAS_SQL, GOOD_ROWS, TEXTS_SQL, make_cdb

pytestmark = pytest.mark.django_db

SKILL = (300000001, 4, 0, 0, 0x8000000, 0, 0, 0, 0, 0, "Destiny Board Skill", "Skill text.")


def _cdb_with(tmp_path: Path, *statements: str) -> bytes:
    path = tmp_path / "extra.cdb"
    make_cdb(path, GOOD_ROWS)
    conn = sqlite3.connect(path)
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()
    return path.read_bytes()


def test_it_skips_a_card_row_without_a_texts_row_with_a_warning(games, tmp_path):
    data = _cdb_with(tmp_path, "INSERT INTO datas VALUES (99999999, 3, 0, 0, 2, 0, 0, 0, 0, 0, 0)")
    result = cards_import(game=games["yugioh"], data=data, filename="x.cdb")
    assert result.ok, result.errors
    assert result.created == len(GOOD_ROWS)
    assert not Card.objects.filter(external_id="99999999").exists()
    [warning] = result.warnings
    assert warning.severity == "warning" and warning.line == 99999999 and warning.field == "texts"
    assert warning.message is not None and warning.message.code == "cdb_no_text_row"


def test_it_imports_a_speed_duel_skill_as_not_deck_buildable_with_a_warning(games, cdb_bytes):
    result = cards_import(game=games["yugioh"], data=cdb_bytes([*GOOD_ROWS, SKILL]), filename="x.cdb")
    assert result.ok, result.errors
    skill = Card.objects.get(external_id="300000001")
    assert skill.card_type == "skill" and not skill.deck_buildable and skill.name == "Destiny Board Skill"
    [warning] = result.warnings
    assert warning.line == 300000001 and warning.field == "type" and "0x8000000" in warning.reason


def test_a_card_of_a_type_nobody_knows_is_kept_as_other(games, cdb_bytes):
    odd = (1000, 3, 0, 0, 0x0, 0, 0, 0, 0, 0, "Nothing", "")
    result = cards_import(game=games["yugioh"], data=cdb_bytes([*GOOD_ROWS, odd]), filename="x.cdb")
    assert result.ok and len(result.warnings) == 1
    card = Card.objects.get(external_id="1000")
    assert card.card_type == "other" and not card.deck_buildable


def test_the_import_job_keeps_the_warnings_and_succeeds(games, cdb_bytes):
    job = import_job_create(
        game=games["yugioh"], created_by=None, filename="x.cdb", data=cdb_bytes([*GOOD_ROWS, SKILL])
    )
    job = import_job_run(job_id=job.pk)
    assert job.status == ImportJob.Status.DONE
    assert [(issue["severity"], issue["code"]) for issue in job.errors] == [("warning", "cdb_not_deck_type")]
    [shown] = ImportJobSerializer(job).data["errors"]
    assert shown["severity"] == "warning" and shown["line"] == 300000001


@pytest.mark.parametrize(
    ("statement", "named"),
    [
        ("CREATE VIEW monsters AS SELECT * FROM datas WHERE type & 1", "view 'monsters'"),
        (
            "CREATE TRIGGER stamp AFTER INSERT ON datas BEGIN UPDATE datas SET ot = 3; END",
            "trigger 'stamp'",
        ),
    ],
)
def test_it_refuses_views_and_triggers_naming_them(games, tmp_path, statement, named):
    result = cards_import(game=games["yugioh"], data=_cdb_with(tmp_path, statement), filename="x.cdb")
    assert not result.ok and named in result.errors[0].reason
    assert "only plain tables" in result.errors[0].reason
    assert not Card.objects.exists()


def test_a_recursive_view_in_place_of_a_table_is_refused_without_running_it(games, tmp_path):
    # `datas` as an endless recursive view: reading it would keep a worker busy forever.
    path = tmp_path / "hostile.cdb"
    conn = sqlite3.connect(path)
    conn.execute(TEXTS_SQL)
    conn.execute(
        "CREATE VIEW datas AS WITH RECURSIVE n(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM n)"
        " SELECT id, 3 AS ot, 0 AS alias, 0 AS setcode, 2 AS type, 0 AS atk, 0 AS def, 0 AS level,"
        " 0 AS race, 0 AS attribute FROM n"
    )
    conn.commit()
    conn.close()
    result = cards_import(game=games["yugioh"], data=path.read_bytes(), filename="x.cdb")
    assert not result.ok and "view 'datas'" in result.errors[0].reason


def test_the_plain_table_check_does_not_mistake_a_table_for_a_view(games, tmp_path):
    path = tmp_path / "plain.cdb"
    conn = sqlite3.connect(path)
    conn.execute(DATAS_SQL)
    conn.execute(TEXTS_SQL)
    conn.execute("CREATE INDEX by_type ON datas(type)")  # indexes are plain schema, not code
    conn.commit()
    conn.close()
    result = cards_import(game=games["yugioh"], data=path.read_bytes(), filename="x.cdb")
    assert [issue.message.code for issue in result.errors if issue.message] == ["no_cards"]


def test_a_query_running_past_the_time_limit_is_stopped_with_a_message(games, cdb_bytes, monkeypatch):
    from cards.importers import ygopro

    monkeypatch.setattr(ygopro, "QUERY_SECONDS", -1)  # every query is already late
    rows = [(10_000 + i, 3, 0, 0, 0x2, 0, 0, 0, 0, 0, f"Spell {i}", "") for i in range(1000)]
    result = cards_import(game=games["yugioh"], data=cdb_bytes(rows), filename="x.cdb")
    assert not result.ok and result.errors[0].message.code == "cdb_too_slow"
    assert not Card.objects.exists()
