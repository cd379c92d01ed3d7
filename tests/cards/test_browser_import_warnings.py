"""The import page in Chromium when an import succeeds with warnings (a .cdb row EDOPro would skip, a
Speed Duel skill): the list is titled as warnings, not as errors, on a desktop and on a phone."""

from __future__ import annotations

from pathlib import Path

import pytest

from cards.models import Card
from cards.services import import_job_create, import_job_run
from tests.cards.conftest import GOOD_ROWS
from tests.conftest import login_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "cards"
SKILL = (300000001, 4, 0, 0, 0x8000000, 0, 0, 0, 0, 0, "Destiny Board Skill", "Skill text.")


@pytest.mark.parametrize(("device", "viewport"), [("desktop", (1280, 900)), ("phone", (390, 844))])
def test_a_finished_import_lists_its_warnings_as_warnings(
    page, games, organizer, cdb_bytes, device, viewport
):
    page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    job = import_job_create(
        game=games["yugioh"], created_by=organizer, filename="skills.cdb", data=cdb_bytes([*GOOD_ROWS, SKILL])
    )
    login_in_browser(page, organizer.username)
    page.goto(f"{page.base_url}/cards/import/{job.pk}/")
    assert page.locator("[data-field=errors-box]").is_hidden()

    import_job_run(job_id=job.pk)  # the worker finishes; the page learns it by polling

    page.wait_for_function("document.querySelector('[data-field=status]').textContent === 'done'")
    page.locator("[data-field=errors-box]").wait_for(state="visible")
    assert (
        page.locator("[data-field=errors-title]").inner_text() == "Warnings — the other cards were imported"
    )
    [row] = page.locator("[data-field=errors] tr").all()
    cells = row.inner_text().split("\t")
    assert cells[:3] == ["300000001", "Destiny Board Skill", "type"]
    assert "imported as skill, which cannot be put in a deck" in cells[3]
    assert not page.locator("[data-field=done-links]").is_hidden()
    assert Card.objects.get(external_id="300000001").deck_buildable is False
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"import-warnings-{device}.png"), full_page=True)

    page.reload()  # rendered by the server this time, with the same title
    assert (
        page.locator("[data-field=errors-title]").inner_text() == "Warnings — the other cards were imported"
    )
