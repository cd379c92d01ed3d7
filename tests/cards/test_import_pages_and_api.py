from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from cards.models import Card, ImportJob
from tests.cards.conftest import COCKATRICE_V3, deckhall_json, es_card

pytestmark = pytest.mark.django_db


def _upload(name: str, data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


def test_players_cannot_import(api_client_for, user, games):
    response = api_client_for(user).post(
        "/api/cards/import/",
        {"game": "caster", "file": _upload("c.xml", COCKATRICE_V3.encode())},
        format="multipart",
    )
    assert response.status_code == 403
    assert not Card.objects.exists()


def test_anonymous_users_cannot_import(api_client, games):
    response = api_client.post("/api/cards/import/", {"game": "caster"}, format="multipart")
    assert response.status_code in {401, 403}


def test_organizers_import_through_the_api_as_a_job(
    api_client_for, organizer, games, django_capture_on_commit_callbacks
):
    client = api_client_for(organizer)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/api/cards/import/",
            {"game": "caster", "file": _upload("c.xml", COCKATRICE_V3.encode())},
            format="multipart",
        )
    assert response.status_code == 202, response.content
    job = client.get(f"/api/import-jobs/{response.json()['id']}/").json()
    assert job["status"] == "done" and job["created_count"] == 5 and job["percent"] == 100
    assert Card.objects.filter(game=games["caster"]).count() == 5


def test_a_job_is_private_to_its_creator(api_client_for, organizer, other_user, games):
    client = api_client_for(organizer)
    job_id = client.post(
        "/api/cards/import/",
        {"game": "caster", "file": _upload("c.xml", COCKATRICE_V3.encode())},
        format="multipart",
    ).json()["id"]
    assert api_client_for(other_user).get(f"/api/import-jobs/{job_id}/").status_code == 404


def test_the_api_names_an_unknown_game(api_client_for, organizer, games):
    response = api_client_for(organizer).post(
        "/api/cards/import/", {"game": "chess", "file": _upload("c.xml", b"<x/>")}, format="multipart"
    )
    assert response.status_code == 400 and "unknown game" in str(response.json())


def test_the_upload_page_runs_the_import_and_shows_progress(
    client, organizer, games, django_capture_on_commit_callbacks
):
    client.force_login(organizer)
    assert client.get("/cards/import/").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/cards/import/",
            {"game": "caster", "file": _upload("c.xml", COCKATRICE_V3.encode()), "file_format": ""},
        )
    job = ImportJob.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/cards/import/{job.pk}/"
    page = client.get(response["Location"])
    assert (
        page.status_code == 200
        and b'class="progress"' in page.content
        and b"cards/import_job.js" in page.content
    )
    job.refresh_from_db()
    assert job.status == ImportJob.Status.DONE and "Browse the cards" in page.content.decode()


def test_the_upload_page_is_for_organizers_only(client, user, games):
    assert client.get("/cards/import/").status_code == 302  # to the login page
    client.force_login(user)
    assert client.get("/cards/import/").status_code == 403


def test_failed_import_errors_are_escaped_on_the_progress_page(
    client, organizer, games, django_capture_on_commit_callbacks
):
    client.force_login(organizer)
    hostile = deckhall_json([es_card("1", "<script>alert(1)</script>", level=-3)])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            "/cards/import/", {"game": "everseal", "file": _upload("x.json", hostile), "file_format": ""}
        )
    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.FAILED
    page = client.get(f"/cards/import/{job.pk}/").content.decode()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_hostile_card_names_are_escaped_in_the_browser_and_detail(client, games):
    from cards.services import cards_import

    cards_import(
        game=games["everseal"],
        data=deckhall_json([es_card("1", "<script>alert(1)</script>")]),
        filename="x.json",
    )
    card = Card.objects.get()
    for url in ("/cards/?game=everseal&q=script", f"/cards/{card.pk}/"):
        page = client.get(url).content.decode()
        assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page


def test_the_export_api_returns_a_reimportable_file(api_client, games):
    from cards.services import cards_import

    cards_import(game=games["everseal"], data=deckhall_json([es_card("1", "Волк")]), filename="x.json")
    response = api_client.get("/api/cards/export/", {"game": "everseal", "fmt": "csv"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert "Волк" in response.content.decode()
    assert api_client.get("/api/cards/export/", {"game": "nope"}).status_code == 400


def test_the_browser_filters_and_paginates(client, games):
    from cards.services import cards_import

    cards = [es_card(str(i), f"Волк {i:02d}") for i in range(60)] + [es_card("big", "Гигант")]
    cards[-1]["attributes"]["size"] = "L"
    cards_import(game=games["everseal"], data=deckhall_json(cards), filename="x.json")
    page = client.get("/cards/", {"game": "everseal", "q": "ВОЛК"}).content.decode()
    assert "60 cards" in page and "page 1 of 2" in page
    page = client.get("/cards/", {"game": "everseal", "attr_key": "size", "attr_value": "L"}).content.decode()
    assert "Гигант" in page and "Волк 01" not in page
