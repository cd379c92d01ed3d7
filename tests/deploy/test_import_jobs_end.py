"""Every import job ends, whatever happens to the process running it, and its upload is dropped."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import DataError
from django.utils import timezone

from cards import services
from cards.models import Card, Game, ImportJob
from cards.services import import_job_create, import_job_reap, import_job_run, import_job_start
from tests.cards.conftest import deckhall_json, es_card

pytestmark = pytest.mark.django_db


def _job(games: dict[str, Any], **fields: Any) -> ImportJob:
    data = deckhall_json([es_card(str(i), f"Карта {i}") for i in range(5)])
    job = import_job_create(game=games["everseal"], created_by=None, filename="cards.json", data=data)
    if fields:
        ImportJob.objects.filter(pk=job.pk).update(**fields)
        job.refresh_from_db()
    return job


def _ago(seconds: int) -> datetime.datetime:
    return timezone.now() - datetime.timedelta(seconds=seconds)


def _codes(job: ImportJob) -> list[str]:
    return [issue["code"] for issue in job.errors]


def test_it_takes_over_a_running_job_whose_heartbeat_is_stale(games: Any, settings: Any) -> None:
    settings.IMPORT_JOB_STALE_SECONDS = 30
    job = _job(games, status=ImportJob.Status.RUNNING, heartbeat_at=_ago(31), attempts=1)
    job = import_job_run(job_id=job.pk)
    assert job.status == ImportJob.Status.DONE and job.created_count == 5 and job.attempts == 2
    assert bytes(job.payload) == b""


def test_it_leaves_a_running_job_with_a_live_heartbeat_alone(games: Any, settings: Any) -> None:
    settings.IMPORT_JOB_STALE_SECONDS = 30
    job = _job(games, status=ImportJob.Status.RUNNING, heartbeat_at=_ago(5), attempts=1)
    job = import_job_run(job_id=job.pk)
    assert job.status == ImportJob.Status.RUNNING and job.attempts == 1
    assert not Card.objects.filter(game=games["everseal"]).exists()


def test_it_fails_a_job_whose_runs_all_died_instead_of_trying_again(games: Any, settings: Any) -> None:
    settings.IMPORT_JOB_STALE_SECONDS, settings.IMPORT_JOB_MAX_ATTEMPTS = 30, 2
    job = _job(games, status=ImportJob.Status.RUNNING, heartbeat_at=_ago(60), attempts=2)
    job = import_job_run(job_id=job.pk)
    assert job.status == ImportJob.Status.FAILED and _codes(job) == ["job_worker_lost"]
    assert "2 time(s)" in job.errors[0]["reason"] and bytes(job.payload) == b""
    assert not Card.objects.filter(game=games["everseal"]).exists()


def test_the_reaper_fails_a_dead_job_when_no_broker_would_run_it_again(games: Any, settings: Any) -> None:
    settings.IMPORT_JOB_STALE_SECONDS, settings.CELERY_BROKER_URL = 30, ""
    job = _job(games, status=ImportJob.Status.RUNNING, heartbeat_at=_ago(31), attempts=1)
    job = import_job_reap(job=job)
    assert job.status == ImportJob.Status.FAILED and _codes(job) == ["job_worker_lost"]
    assert bytes(job.payload) == b"" and job.finished_at is not None


def test_the_reaper_requeues_a_dead_job_once_when_a_broker_is_configured(
    games: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.IMPORT_JOB_STALE_SECONDS, settings.IMPORT_JOB_MAX_ATTEMPTS = 30, 3
    settings.CELERY_BROKER_URL, settings.CELERY_TASK_ALWAYS_EAGER = "redis://127.0.0.1:1/0", False
    queued: list[int] = []
    monkeypatch.setattr(services, "_job_enqueue", lambda *, job_id: queued.append(job_id))
    job = _job(games, status=ImportJob.Status.RUNNING, heartbeat_at=_ago(31), attempts=1)
    import_job_reap(job=job)
    import_job_reap(job=ImportJob.objects.get(pk=job.pk))  # a second poller right after: no second run
    assert queued == [job.pk]
    # The re-run finds the heartbeat stale and takes the job over.
    assert import_job_run(job_id=job.pk).status == ImportJob.Status.DONE


def test_the_reaper_leaves_a_live_job_alone(games: Any, settings: Any) -> None:
    settings.IMPORT_JOB_STALE_SECONDS, settings.CELERY_BROKER_URL = 30, ""
    job = _job(games, status=ImportJob.Status.RUNNING, heartbeat_at=_ago(2), attempts=1)
    assert import_job_reap(job=job).status == ImportJob.Status.RUNNING


def test_a_job_no_worker_ever_started_fails_with_a_reason(games: Any, settings: Any) -> None:
    settings.IMPORT_JOB_PENDING_MINUTES = 30
    job = _job(games, created_at=_ago(31 * 60))
    job = import_job_reap(job=job)
    assert job.status == ImportJob.Status.FAILED and _codes(job) == ["job_not_started"]
    assert bytes(job.payload) == b""


def test_a_job_that_cannot_be_queued_fails_at_once(
    games: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from cards import tasks

    def broker_down(*args: Any, **kwargs: Any) -> None:
        raise ConnectionRefusedError("Error 111 connecting to 127.0.0.1:6379")

    monkeypatch.setattr(tasks.import_job_run_task, "delay", broker_down)
    data = deckhall_json([es_card("1", "Волк")])
    with django_capture_on_commit_callbacks(execute=True):
        job = import_job_start(game=games["everseal"], created_by=None, filename="a.json", data=data)
    job.refresh_from_db()
    assert job.status == ImportJob.Status.FAILED and _codes(job) == ["job_enqueue_failed"]
    assert bytes(job.payload) == b""


def test_a_database_error_ends_the_job_with_its_message(games: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(**kwargs: Any) -> None:
        raise DataError("A string literal cannot contain NUL (0x00) characters.")

    monkeypatch.setattr(services, "_cards_write", refuse)
    job = import_job_run(job_id=_job(games).pk)
    assert job.status == ImportJob.Status.FAILED and _codes(job) == ["database_refused"]
    assert "NUL (0x00)" in job.errors[0]["reason"] and bytes(job.payload) == b""


def test_a_soft_time_limit_ends_the_job_with_its_message(
    games: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from celery.exceptions import SoftTimeLimitExceeded

    def too_slow(**kwargs: Any) -> None:
        raise SoftTimeLimitExceeded()

    settings.CELERY_TASK_SOFT_TIME_LIMIT = 540
    monkeypatch.setattr(services, "_cards_write", too_slow)
    job = import_job_run(job_id=_job(games).pk)
    assert job.status == ImportJob.Status.FAILED and _codes(job) == ["job_time_limit"]
    assert "540 seconds" in job.errors[0]["reason"]


def test_a_nul_in_a_card_name_fails_the_job_and_leaves_the_cards_as_they_were(games: Any) -> None:
    game = games["everseal"]
    assert services.cards_import(game=game, data=deckhall_json([es_card("1", "Волк")]), filename="a.json").ok
    data = deckhall_json([es_card("1", "Волк 2"), es_card("2", "Bad\x00name")])
    job = import_job_create(game=game, created_by=None, filename="nul.json", data=data)
    job = import_job_run(job_id=job.pk)
    # The error quotes the card; PostgreSQL's jsonb refuses a NUL, so it is stored escaped.
    assert job.status == ImportJob.Status.FAILED and _codes(job) == ["nul"]
    assert job.errors[0]["card"] == "Bad\\x00name"
    assert list(Card.objects.filter(game=game).values_list("name", flat=True)) == ["Волк"]
    assert bytes(job.payload) == b"" and job.finished_at is not None


def test_a_result_the_database_refuses_to_store_still_ends_the_job(
    games: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    job = _job(games, status=ImportJob.Status.RUNNING, heartbeat_at=timezone.now(), attempts=1)
    real_update = services.ImportJob.objects.none().__class__.update
    calls: list[dict[str, Any]] = []

    def update(self: Any, **fields: Any) -> int:
        calls.append(fields)
        if len(calls) == 1:
            raise DataError("unsupported Unicode escape sequence")
        return real_update(self, **fields)

    monkeypatch.setattr(services.ImportJob.objects.none().__class__, "update", update)
    job = services._job_finish(job_id=job.pk, result=services.ImportResult(fmt="deckhall-json"))
    assert job.status == ImportJob.Status.FAILED and _codes(job) == ["internal_error"]
    assert bytes(job.payload) == b""


def test_the_games_exist_after_migrate_without_load_demo() -> None:
    assert {"everseal", "twindeck", "yugioh", "caster", "vale"} <= set(
        Game.objects.values_list("slug", flat=True)
    )


def test_an_unknown_game_points_at_sync_games(tmp_path: Any) -> None:
    with pytest.raises(CommandError, match="sync_games"):
        call_command("import_cards", "--game", "chess", str(tmp_path / "x.cdb"))
