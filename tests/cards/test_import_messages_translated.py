"""Import problems are stored as codes + values and shown in the reader's language (page and API)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import translation

from cards.importers import import_issue_text
from cards.importers.messages import MESSAGES, UNTRANSLATED, msg
from cards.models import Card, ImportJob
from tests.cards.conftest import deckhall_json, es_card

pytestmark = pytest.mark.django_db

BROKEN = deckhall_json(
    [
        es_card("1", "Wolf", level=-3),
        es_card("2", "Bear", card_type=5, is_token="maybe"),
        es_card("3", "Fox"),
        es_card("3", "Fox again"),
    ]
)
RUSSIAN = {
    (1, "Wolf", "level", "-3 вне допустимого диапазона (0–1000)"),
    (2, "Bear", "card_type", "должно быть текстом, получено: целое число"),
    (2, "Bear", "is_token", "ожидается true/false, а не 'maybe'"),
    (4, "Fox again", "external_id", "повторяет карту в строке 3"),
}
ENGLISH = {
    (1, "Wolf", "level", "-3 is out of range (0–1000)"),
    (2, "Bear", "card_type", "must be text, got int"),
    (2, "Bear", "is_token", "expected true/false, got 'maybe'"),
    (4, "Fox again", "external_id", "duplicate of the card on line 3"),
}


def _failed_job(client, organizer, django_capture_on_commit_callbacks) -> ImportJob:
    client.force_login(organizer)
    upload = SimpleUploadedFile("broken.json", BROKEN, content_type="application/json")
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/cards/import/", {"game": "everseal", "file": upload, "file_format": ""})
    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.FAILED and not Card.objects.exists()
    return job


def _page_rows(client, job: ImportJob, language: str) -> set[tuple[int, str, str, str]]:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get(f"/cards/import/{job.pk}/").content.decode()
    body = html.split('data-field="errors">', 1)[1].split("</tbody>", 1)[0]
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>", body)
    return {(int(line), card, field, text.replace("&#x27;", "'")) for line, card, field, text in rows}


def test_it_shows_import_errors_in_russian_on_the_russian_progress_page(
    client, organizer, games, django_capture_on_commit_callbacks
):
    job = _failed_job(client, organizer, django_capture_on_commit_callbacks)
    assert _page_rows(client, job, "ru") == RUSSIAN


def test_it_shows_import_errors_in_english_on_the_english_progress_page(
    client, organizer, games, django_capture_on_commit_callbacks
):
    job = _failed_job(client, organizer, django_capture_on_commit_callbacks)
    assert _page_rows(client, job, "en") == ENGLISH


def test_it_stores_codes_and_values_with_the_english_reason(
    client, organizer, games, django_capture_on_commit_callbacks
):
    job = _failed_job(client, organizer, django_capture_on_commit_callbacks)
    level = next(issue for issue in job.errors if issue["field"] == "level")
    assert level == {
        "line": 1,
        "field": "level",
        "code": "out_of_range",
        "params": {"value": -3, "min": 0, "max": 1000},
        "reason": "-3 is out of range (0–1000)",
        "card": "Wolf",
        "severity": "error",
    }


def test_the_job_api_gives_the_message_in_the_request_language_and_keeps_the_english_reason(
    client, api_client_for, organizer, games, django_capture_on_commit_callbacks
):
    job = _failed_job(client, organizer, django_capture_on_commit_callbacks)
    api = api_client_for(organizer)
    russian = api.get(f"/api/import-jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="ru").json()["errors"]
    english = api.get(f"/api/import-jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="en").json()["errors"]
    assert {(e["line"], e["card"], e["field"], e["message"]) for e in russian} == RUSSIAN
    assert {(e["line"], e["card"], e["field"], e["reason"]) for e in russian} == ENGLISH
    assert {(e["line"], e["card"], e["field"], e["message"]) for e in english} == ENGLISH
    assert {e["code"] for e in russian} == {"out_of_range", "not_text", "not_boolean", "duplicate_id"}


def test_an_old_job_with_only_a_reason_still_shows_it(client, api_client_for, organizer, games):
    old = {"line": 7, "field": "name", "reason": "is empty", "card": "Ghost"}
    damaged = {"line": 8, "field": "level", "code": "out_of_range", "params": {}, "reason": "too big"}
    retired = {"line": 9, "field": "x", "code": "no_longer_exists", "params": {}, "reason": "old text"}
    job = ImportJob.objects.create(
        game=games["everseal"],
        created_by=organizer,
        filename="old.json",
        status=ImportJob.Status.FAILED,
        errors=[old, damaged, retired],
    )
    client.force_login(organizer)
    assert _page_rows(client, job, "ru") == {
        (7, "Ghost", "name", "is empty"),
        (8, "", "level", "too big"),
        (9, "", "x", "old text"),
    }
    errors = api_client_for(organizer).get(f"/api/import-jobs/{job.pk}/", HTTP_ACCEPT_LANGUAGE="ru").json()
    assert [(e["code"], e["message"]) for e in errors["errors"]] == [
        ("", "is empty"),
        ("out_of_range", "too big"),
        ("no_longer_exists", "old text"),
    ]


def test_every_message_has_a_russian_translation_with_the_same_values():
    with translation.override("ru"):
        for code, template in MESSAGES.items():
            if code in UNTRANSLATED:
                continue
            russian = translation.gettext(template)
            assert russian != template or template == "true/false", f"{code}: {template!r} is untranslated"
            assert sorted(re.findall(r"%\((\w+)\)s", russian)) == sorted(re.findall(r"%\((\w+)\)s", template))


def test_a_file_level_problem_nests_translated_values():
    issue = {
        "code": "set_field_not_text",
        "params": msg("set_field_not_text", index=2, kind=msg("kind.list")),
    }
    issue = {**issue, "params": issue["params"].as_dict()["params"]}
    assert import_issue_text(issue, "ru") == "выпуск №2: должно быть текстом, получено: список"
    assert import_issue_text(issue, "en") == "set #2: must be text, got a list"
