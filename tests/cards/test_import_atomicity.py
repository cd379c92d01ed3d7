from __future__ import annotations

import pytest

from cards.models import Card, ImportJob
from cards.services import cards_import, import_job_create, import_job_run
from tests.cards.conftest import deckhall_json, es_card

pytestmark = pytest.mark.django_db


def test_it_leaves_the_database_unchanged_when_one_row_is_bad(games):
    game = games["everseal"]
    cards_import(game=game, data=deckhall_json([es_card("1", "Старый текст", text="v1")]), filename="a.json")
    before = list(Card.objects.values_list("external_id", "text", "updated_at"))
    bad = deckhall_json(
        [es_card("1", "Старый текст", text="v2"), es_card("2", "Новая"), es_card("3", "", level=-1)]
    )
    result = cards_import(game=game, data=bad, filename="b.json")
    assert not result.ok and len(result.errors) == 2
    assert list(Card.objects.values_list("external_id", "text", "updated_at")) == before


def test_it_updates_cards_in_place_on_reimport(games):
    game = games["everseal"]
    cards_import(
        game=game, data=deckhall_json([es_card("1", "Волк", text="v1"), es_card("2", "Ёж")]), filename="a"
    )
    pk = Card.objects.get(external_id="1").pk
    result = cards_import(
        game=game,
        data=deckhall_json([es_card("1", "Волк", text="v2"), es_card("2", "Ёж")]),
        filename="a.json",
    )
    assert (result.created, result.updated, result.unchanged) == (0, 1, 1)
    card = Card.objects.get(external_id="1")
    assert card.pk == pk and card.text == "v2"
    again = cards_import(game=game, data=deckhall_json([es_card("1", "Волк", text="v2")]), filename="a.json")
    assert (again.created, again.updated, again.unchanged) == (0, 0, 1)
    assert Card.objects.filter(game=game).count() == 2  # cards missing from a file are kept


def test_a_failed_job_records_every_error_and_clears_the_upload(games, organizer):
    bad = deckhall_json([es_card("1", "", level=10**9)])
    job = import_job_create(game=games["everseal"], created_by=organizer, filename="bad.json", data=bad)
    job = import_job_run(job_id=job.pk)
    assert job.status == ImportJob.Status.FAILED
    assert {e["field"] for e in job.errors} == {"name", "level"}
    assert bytes(job.payload) == b"" and job.finished_at is not None
    assert import_job_run(job_id=job.pk).status == ImportJob.Status.FAILED  # a redelivered task is a no-op


def test_a_successful_job_reports_counts_and_full_progress(games, organizer):
    data = deckhall_json([es_card(str(i), f"Карта {i}") for i in range(30)])
    job = import_job_create(game=games["everseal"], created_by=organizer, filename="ok.json", data=data)
    job = import_job_run(job_id=job.pk)
    assert job.status == ImportJob.Status.DONE and job.created_count == 30 and job.percent == 100
    assert job.processed == job.total == 30


def _state():
    from cards.models import Printing

    cards = list(Card.objects.order_by("pk").values_list("pk", "external_id", "name", "text", "attributes"))
    return cards, list(Printing.objects.order_by("pk").values_list("pk", "card_id", "code"))


def test_a_bad_row_in_a_cdb_reimport_leaves_existing_cards_untouched(games, cdb_bytes):
    from tests.cards.conftest import GOOD_ROWS

    assert cards_import(game=games["yugioh"], data=cdb_bytes(), filename="x.cdb").ok
    before = _state()
    changed = [(*row[:11], "A new text.") for row in GOOD_ROWS]  # every card's text changes...
    changed.append((1001, 3, 0, 0, 0x11, "lots", 0, 4, 1, 1, "Bad Atk", ""))  # ...but one row is bad
    result = cards_import(game=games["yugioh"], data=cdb_bytes(changed), filename="x.cdb")
    assert [(issue.line, issue.field) for issue in result.errors] == [(1001, "atk")]
    assert _state() == before


def test_a_bad_card_in_a_cockatrice_reimport_leaves_existing_cards_untouched(games):
    from tests.cards.conftest import COCKATRICE_V3

    assert cards_import(game=games["caster"], data=COCKATRICE_V3.encode(), filename="c.xml").ok
    before = _state()
    bad = COCKATRICE_V3.replace("Caster one.", "Changed.").replace('picURL="http:', 'picURL="javascript:')
    result = cards_import(game=games["caster"], data=bad.encode(), filename="c.xml")
    assert [issue.field for issue in result.errors] == ["printings.image_url"]
    assert _state() == before


def test_a_failure_while_writing_rolls_back_every_card(games, monkeypatch):
    """Errors the parsers cannot foresee (a database error half-way) must not leave half an import."""
    from cards import services

    game = games["everseal"]
    cards_import(game=game, data=deckhall_json([es_card("1", "Волк", text="v1")]), filename="a.json")
    before = _state()

    def explode(**kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(services, "_printings_sync", explode)
    job = import_job_create(
        game=game,
        created_by=None,
        filename="b.json",
        data=deckhall_json([es_card("1", "Волк", text="v2"), es_card("2", "Ёж")]),
    )
    job = import_job_run(job_id=job.pk)
    assert job.status == ImportJob.Status.FAILED
    assert job.errors[0]["reason"] == "internal error while importing; see logs"
    assert _state() == before
