"""The import progress page in Chromium: it polls the job and moves the bar while a worker runs it,
and with eager Celery an upload lands on a finished job."""

from __future__ import annotations

import pytest

from cards.models import ImportJob
from cards.services import import_job_create, import_job_run
from tests.cards.conftest import deckhall_json, es_card
from tests.conftest import login_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_progress_bar_follows_a_running_job(page, live_server, games, organizer):
    data = deckhall_json([es_card(str(i), f"Карта {i}") for i in range(40)])
    job = import_job_create(game=games["everseal"], created_by=organizer, filename="big.json", data=data)
    # A worker has parsed a third of the file but not finished yet.
    ImportJob.objects.filter(pk=job.pk).update(processed=12, total=40)
    login_in_browser(page, organizer.username)
    page.goto(f"{page.base_url}/cards/import/{job.pk}/")
    bar = page.locator("[data-field=bar]")
    assert bar.get_attribute("aria-valuenow") == "30"
    assert page.locator("[data-field=done-links]").is_hidden()

    import_job_run(job_id=job.pk)  # the worker finishes; the page learns it by polling

    page.wait_for_function(
        "document.querySelector('[data-field=bar]').getAttribute('aria-valuenow') === '100'"
    )
    assert page.locator("[data-field=status]").inner_text() == "done"
    assert page.locator("[data-field=created_count]").inner_text() == "40"
    assert page.locator("[data-field=bar] span").evaluate("el => el.style.width") == "100%"
    page.locator("[data-field=done-links] a").click()
    page.wait_for_url("**/cards/?game=everseal")
    assert page.locator("[data-testid=card-link]").count() == 40


def test_an_upload_with_errors_shows_them_escaped_and_imports_nothing(page, live_server, games, organizer):
    login_in_browser(page, organizer.username)
    page.goto(page.base_url + "/cards/import/")
    page.select_option("select[name=game]", "everseal")
    page.set_input_files(
        "input[name=file]",
        files=[
            {
                "name": "bad.csv",
                "mimeType": "text/csv",
                "buffer": "external_id,name,level\n1,<b>Волк</b>,-4\n2,,x\n".encode(),
            }
        ],
    )
    page.click("[data-testid=import-submit]")
    page.wait_for_url("**/cards/import/*/")
    assert page.locator("[data-field=status]").inner_text() == "failed"
    rows = page.locator("[data-field=errors] tr")
    assert rows.count() == 3
    assert rows.nth(0).inner_text().split("\t") == [
        "2",
        "<b>Волк</b>",
        "level",
        "-4 is out of range (0–1000)",
    ]
    assert page.locator("b", has_text="Волк").count() == 0  # shown as text, not markup
    from cards.models import Card

    assert not Card.objects.exists()
