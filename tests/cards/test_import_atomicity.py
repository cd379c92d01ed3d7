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
